//! Numbers read from JS: budgets (`maxChars`) and counts (`limit`).

use std::fmt::Display;

use super::{Failure, Js};

/// A `maxChars`-style budget: `undefined` and `NaN` mean `default`,
/// `Infinity` means no cap, any other non-number is a `TypeError`.
pub fn budget(value: Js<'_>, name: impl Display + Copy, default: f64) -> Result<f64, Failure> {
    if value.is_undefined()? {
        return Ok(default);
    }
    let number = value.number(name)?;
    Ok(if number.is_nan() { default } else { number })
}

/// A required count such as `limit`: a number `>= 0`; fractions round
/// down and `Infinity` means no limit.
pub fn count(value: Js<'_>, name: impl Display + Copy) -> Result<usize, Failure> {
    count_of(value.number(name)?, name)
}

/// `count` of a number already read.
pub fn count_of(number: f64, name: impl Display) -> Result<usize, Failure> {
    if number.is_nan() || number < 0.0 {
        return Err(Failure::Range(format!(
            "The value of \"{name}\" is out of range. It must be >= 0. Received {number}"
        )));
    }
    Ok(if number >= usize::MAX as f64 {
        usize::MAX
    } else {
        number as usize
    })
}
