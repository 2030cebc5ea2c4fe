//! The JS string type the exports take and return, and the one way the
//! binding makes a JS string from UTF-16 units: exact, unit for unit.
//!
//! Natively it is napi-rs's `Utf16String`, and `napi_create_string_utf16`.
//! Under WASI, emnapi creates a string of more than 16 units with
//! `TextDecoder('utf-16le')` (without `ignoreBOM`), which turns every lone
//! surrogate into U+FFFD and drops a U+FEFF that starts the string (SPEC §
//! Strings: text that is kept comes back exactly, on every platform). There
//! a string is created in pieces that decode exactly, joined with
//! `String.prototype.concat`: well-formed runs that do not start with U+FEFF,
//! and each lone surrogate and each U+FEFF that would start a run alone
//! (emnapi copies a piece of up to 16 units unit by unit). Reading a JS
//! string is exact under emnapi too (it copies `charCodeAt` units).

use napi::{sys, Result};

/// A JS string of exactly `units`. Results cross through `Utf16String`;
/// this is for the binding's own strings from UTF-16 (property keys it read
/// and looks up again, which must match the caller's keys unit for unit).
///
/// # Safety
/// `env` must be the live env of the current call.
#[cfg(not(target_family = "wasm"))]
pub unsafe fn create_exact(env: sys::napi_env, units: &[u16]) -> Result<sys::napi_value> {
    // SAFETY: the caller's contract (a live env); `units` outlives the call.
    unsafe { create(env, units) }
}

#[cfg(target_family = "wasm")]
pub use wasm::create_exact;

/// `napi_create_string_utf16`, as N-API does it (inexact under emnapi).
unsafe fn create(env: sys::napi_env, units: &[u16]) -> Result<sys::napi_value> {
    let length = isize::try_from(units.len())
        .map_err(|_| napi::Error::from_reason("a string too long for N-API"))?;
    let mut value = std::ptr::null_mut();
    napi::check_status!(
        // SAFETY: `units` is valid for `length` reads for the duration of the call.
        unsafe { sys::napi_create_string_utf16(env, units.as_ptr(), length, &mut value) },
        "Failed to create a JS string"
    )?;
    Ok(value)
}

/// U+FEFF, which a UTF-16 decoder without `ignoreBOM` drops where it starts the text.
const BOM: u16 = 0xFEFF;

/// Splits `units` where emnapi would not copy it exactly: before and after
/// each lone surrogate, and after a U+FEFF that starts a piece (the
/// decoder takes it for a byte-order mark). Other text is one piece.
#[cfg_attr(not(target_family = "wasm"), allow(dead_code))] // natively one string, tested here
fn exact_pieces(units: &[u16]) -> Vec<&[u16]> {
    let mut pieces = Vec::new();
    let (mut start, mut at) = (0, 0);
    while at < units.len() {
        let unit = units[at];
        if at == start && unit == BOM {
            pieces.push(&units[at..at + 1]);
            at += 1;
            start = at;
            continue;
        }
        let pair = (0xD800..0xDC00).contains(&unit)
            && units
                .get(at + 1)
                .is_some_and(|next| (0xDC00..0xE000).contains(next));
        if pair {
            at += 2;
        } else if (0xD800..0xE000).contains(&unit) {
            if start < at {
                pieces.push(&units[start..at]);
            }
            pieces.push(&units[at..at + 1]);
            at += 1;
            start = at;
        } else {
            at += 1;
        }
    }
    if start < units.len() || pieces.is_empty() {
        pieces.push(&units[start..]);
    }
    pieces
}

#[cfg(not(target_family = "wasm"))]
pub use napi::bindgen_prelude::Utf16String;

#[cfg(target_family = "wasm")]
pub use wasm::Utf16String;

#[cfg(target_family = "wasm")]
mod wasm {
    use std::ops::Deref;
    use std::ptr;

    use napi::bindgen_prelude::{FromNapiValue, ToNapiValue, TypeName, ValidateNapiValue};
    use napi::{check_status, sys, Result, ValueType};

    use super::{create, exact_pieces};

    #[derive(Debug)]
    pub struct Utf16String(Vec<u16>);

    impl From<Vec<u16>> for Utf16String {
        fn from(units: Vec<u16>) -> Self {
            Utf16String(units)
        }
    }

    impl From<String> for Utf16String {
        fn from(text: String) -> Self {
            Utf16String(text.encode_utf16().collect())
        }
    }

    impl Deref for Utf16String {
        type Target = [u16];
        fn deref(&self) -> &[u16] {
            &self.0
        }
    }

    impl TypeName for Utf16String {
        fn type_name() -> &'static str {
            "String(utf16)"
        }
        fn value_type() -> ValueType {
            ValueType::String
        }
    }

    impl ValidateNapiValue for Utf16String {}

    impl FromNapiValue for Utf16String {
        // Reading is exact under emnapi too (it copies `charCodeAt` units).
        unsafe fn from_napi_value(env: sys::napi_env, value: sys::napi_value) -> Result<Self> {
            // SAFETY: the caller's contract (a live env and value) is passed on unchanged.
            let units = unsafe { napi::bindgen_prelude::Utf16String::from_napi_value(env, value)? };
            Ok(Utf16String(units.to_vec()))
        }
    }

    impl ToNapiValue for Utf16String {
        unsafe fn to_napi_value(env: sys::napi_env, text: Utf16String) -> Result<sys::napi_value> {
            // SAFETY: the caller's contract (a live env).
            unsafe { create_exact(env, &text.0) }
        }
    }

    /// A JS string of exactly `units`, from pieces that emnapi copies exactly.
    ///
    /// # Safety
    /// `env` must be the live env of the current call.
    pub unsafe fn create_exact(env: sys::napi_env, units: &[u16]) -> Result<sys::napi_value> {
        let pieces = exact_pieces(units);
        let mut values = Vec::with_capacity(pieces.len());
        for piece in pieces {
            // SAFETY: a live env (the caller's contract) and a slice that outlives the call.
            values.push(unsafe { create(env, piece)? });
        }
        if values.len() == 1 {
            return Ok(values[0]);
        }
        // SAFETY: a live env; every value was just created in it.
        unsafe { concat(env, &values) }
    }

    /// `values[0].concat(...values[1..])`, a bounded number of arguments per call.
    unsafe fn concat(env: sys::napi_env, values: &[sys::napi_value]) -> Result<sys::napi_value> {
        const ARGS_PER_CALL: usize = 4096;
        let mut global = ptr::null_mut();
        let mut string = ptr::null_mut();
        let mut prototype = ptr::null_mut();
        let mut concat = ptr::null_mut();
        // SAFETY: a live env; the names are NUL-terminated; every out-pointer is a local.
        unsafe {
            check_status!(
                sys::napi_get_global(env, &mut global),
                "Failed to get the global object"
            )?;
            check_status!(
                sys::napi_get_named_property(env, global, c"String".as_ptr(), &mut string),
                "Failed to get String"
            )?;
            check_status!(
                sys::napi_get_named_property(env, string, c"prototype".as_ptr(), &mut prototype),
                "Failed to get String.prototype"
            )?;
            check_status!(
                sys::napi_get_named_property(env, prototype, c"concat".as_ptr(), &mut concat),
                "Failed to get String.prototype.concat"
            )?;
        }
        let mut joined = values[0];
        for args in values[1..].chunks(ARGS_PER_CALL) {
            let mut next = ptr::null_mut();
            // SAFETY: `joined` and `args` are values of this env; `args` outlives the call.
            check_status!(
                unsafe {
                    sys::napi_call_function(
                        env,
                        joined,
                        concat,
                        args.len(),
                        args.as_ptr(),
                        &mut next,
                    )
                },
                "Failed to join a JS string"
            )?;
            joined = next;
        }
        Ok(joined)
    }
}

#[cfg(test)]
mod tests {
    use super::exact_pieces;

    fn pieces(units: &[u16]) -> Vec<Vec<u16>> {
        exact_pieces(units)
            .into_iter()
            .map(<[u16]>::to_vec)
            .collect()
    }

    #[test]
    fn well_formed_text_is_one_piece() {
        let text: Vec<u16> = "ok 😀 mid\u{FEFF}dle".encode_utf16().collect();
        assert_eq!(pieces(&text), vec![text.clone()]);
        assert_eq!(pieces(&[]), vec![Vec::<u16>::new()]);
    }

    #[test]
    fn a_leading_bom_and_lone_surrogates_stand_alone() {
        let (bom, high, low, a) = (0xFEFF, 0xD800, 0xDC00, u16::from(b'a'));
        assert_eq!(pieces(&[bom, a, a]), vec![vec![bom], vec![a, a]]);
        assert_eq!(pieces(&[bom, bom, a]), vec![vec![bom], vec![bom], vec![a]]);
        // A BOM right after a lone surrogate starts a piece: alone too.
        assert_eq!(
            pieces(&[a, high, bom, a]),
            vec![vec![a], vec![high], vec![bom], vec![a]]
        );
        assert_eq!(pieces(&[low, bom]), vec![vec![low], vec![bom]]);
        // Inside a piece a BOM is kept by the decoder: no split.
        assert_eq!(pieces(&[a, bom, a]), vec![vec![a, bom, a]]);
        let joined: Vec<u16> = exact_pieces(&[bom, high, bom, low, a]).concat();
        assert_eq!(joined, vec![bom, high, bom, low, a]);
    }
}
