//! Timestamps as the gateway and the memory script write them: ISO-8601
//! strings and epoch numbers, to UTC epoch milliseconds, and back as
//! `toISOString()` does.
//!
//! Hand-written because of what it accepts, which decides which log entries
//! and timers are dated: a `T`, `t` or space between date and time; minute
//! precision (`10:00`); `24:00:00`; any number of fraction digits (`.` or
//! `,`, truncated to milliseconds); `Z`, `±HH`, `±HHMM`, `±HH:MM`; a date
//! alone, or a date-time without a zone, as UTC (never the machine's zone);
//! an epoch number written as digits. `jiff` 0.2.46 (tried) would not be the
//! same set: its `Timestamp` refuses `24:00:00`, more than nine fraction
//! digits and any string without a zone (a date alone included), and accepts
//! what this refuses: the basic format (`20260515T100000Z`), six-digit years
//! (`+002026-…`), hour-only times (`10Z`), second 60 and `[…]` annotations.
//! Matching it to the logs already written would take as much code as this.

use super::scan::{decimal, to_f64, Cursor};

const MS_PER_SECOND: f64 = 1000.0;
const MS_PER_DAY: i64 = 86_400_000;

/// Epoch numbers below this are seconds, not milliseconds: 1e11 ms is March
/// 1973, long before any perpetual log, while 1e11 s is the year 5138.
const SECONDS_BELOW: f64 = 1e11;

/// Epoch milliseconds from an epoch number in milliseconds or seconds.
pub fn epoch_ms_from_number(value: f64) -> Option<f64> {
    if !value.is_finite() {
        return None;
    }
    if value.abs() < SECONDS_BELOW {
        Some(value * MS_PER_SECOND)
    } else {
        Some(value)
    }
}

/// Epoch milliseconds of a timestamp string: ISO-8601 (`2026-05-15`,
/// `2026-05-15T10:00`, `2026-05-15 10:00:00.250+02:00`, …) or an epoch
/// number written as digits. A date-time without a zone is read as UTC
/// (JavaScript would use the local zone; a summary must not depend on it).
pub fn parse_timestamp_ms(text: &[u16]) -> Option<f64> {
    let text = String::from_utf16(crate::utf16::trim(text)).ok()?;
    if let Some(number) = to_f64(text.as_bytes()) {
        // Only plain digits count as an epoch number ("1e3" or "inf" do not).
        if text
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b'-')
        {
            return epoch_ms_from_number(number);
        }
        return None;
    }
    parse_iso(text.as_bytes())
}

/// `new Date(ms).toISOString()` for years 0..=9999 (`2026-05-15T10:00:00.000Z`).
pub fn format_iso_utc(ms: f64) -> Option<String> {
    if !ms.is_finite() {
        return None;
    }
    let ms = ms.floor() as i64;
    let days = ms.div_euclid(MS_PER_DAY);
    let in_day = ms.rem_euclid(MS_PER_DAY);
    let (year, month, day) = civil_from_days(days);
    if !(0..=9999).contains(&year) {
        return None;
    }
    // By hand rather than `format!`: the prompt builder shows one per entry.
    let mut out = String::with_capacity(24);
    let mut push = |value: i64, width: u32, after: char| {
        for place in (0..width).rev() {
            let digit = (value / 10_i64.pow(place)) % 10;
            out.push(char::from(b'0' + digit as u8));
        }
        if after != '\0' {
            out.push(after);
        }
    };
    push(year, 4, '-');
    push(i64::from(month), 2, '-');
    push(i64::from(day), 2, 'T');
    push(in_day / 3_600_000, 2, ':');
    push(in_day / 60_000 % 60, 2, ':');
    push(in_day / 1000 % 60, 2, '.');
    push(in_day % 1000, 3, 'Z');
    Some(out)
}

fn parse_iso(bytes: &[u8]) -> Option<f64> {
    let mut cursor = Cursor::new(bytes);
    let year = i64::from(cursor.fixed_digits(4)?);
    expect(&mut cursor, b'-')?;
    let month = cursor.fixed_digits(2)?;
    expect(&mut cursor, b'-')?;
    let day = cursor.fixed_digits(2)?;
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    let mut ms_in_day = 0i64;
    let mut offset_minutes = 0i64;
    if cursor.at_end() {
        return Some(epoch_ms(year, month, day, 0));
    }
    if !matches!(cursor.next()?, b'T' | b't' | b' ') {
        return None;
    }
    let hour = cursor.fixed_digits(2)?;
    expect(&mut cursor, b':')?;
    let minute = cursor.fixed_digits(2)?;
    let mut second = 0;
    if cursor.eat(b':') {
        second = cursor.fixed_digits(2)?;
    }
    let valid_24 = hour == 24 && minute == 0 && second == 0;
    if (hour > 23 && !valid_24) || minute > 59 || second > 59 {
        return None;
    }
    ms_in_day +=
        i64::from(hour) * 3_600_000 + i64::from(minute) * 60_000 + i64::from(second) * 1000;
    if cursor.eat_if(|byte| matches!(byte, b'.' | b',')).is_some() {
        ms_in_day += fraction_ms(&mut cursor)?;
    }
    match cursor.next() {
        None => {}
        Some(b'Z' | b'z') => {}
        Some(sign @ (b'+' | b'-')) => {
            offset_minutes = zone_offset(&mut cursor)?;
            if sign == b'-' {
                offset_minutes = -offset_minutes;
            }
        }
        Some(_) => return None,
    }
    if !cursor.at_end() {
        return None;
    }
    Some(epoch_ms(
        year,
        month,
        day,
        ms_in_day - offset_minutes * 60_000,
    ))
}

fn epoch_ms(year: i64, month: u32, day: u32, ms_in_day: i64) -> f64 {
    (days_from_civil(year, month, day) * MS_PER_DAY + ms_in_day) as f64
}

fn expect(cursor: &mut Cursor, byte: u8) -> Option<()> {
    cursor.eat(byte).then_some(())
}

/// Fractional seconds as whole milliseconds (extra digits are truncated).
fn fraction_ms(cursor: &mut Cursor) -> Option<i64> {
    let digits = cursor.digits();
    if digits.is_empty() {
        return None;
    }
    let mut first_three = *b"000";
    for (slot, &digit) in first_three.iter_mut().zip(digits) {
        *slot = digit;
    }
    Some(i64::from(decimal(&first_three)))
}

/// `HH`, `HHMM` or `HH:MM`, in minutes.
fn zone_offset(cursor: &mut Cursor) -> Option<i64> {
    let hours = cursor.fixed_digits(2)?;
    let minutes = match cursor.peek() {
        Some(b':') => {
            cursor.advance(1);
            cursor.fixed_digits(2)?
        }
        Some(_) => cursor.fixed_digits(2)?,
        None => 0,
    };
    if hours > 23 || minutes > 59 {
        return None;
    }
    Some(i64::from(hours) * 60 + i64::from(minutes))
}

fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

pub(crate) fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if is_leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
pub(crate) fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month = i64::from(month);
    let day_of_year =
        (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The inverse of [`days_from_civil`].
pub(crate) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z - era * 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_round_trips_over_centuries() {
        for days in (-800_000..800_000).step_by(997) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }
}
