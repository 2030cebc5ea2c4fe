//! The JS string type the exports take and return, exact in UTF-16.
//!
//! Natively it is napi-rs's `Utf16String`. Under WASI, emnapi creates a string
//! of more than 16 units with `TextDecoder('utf-16le')`, which turns every lone
//! surrogate into U+FFFD (SPEC § Strings: text that is kept comes back exactly,
//! on every platform). There a string that holds lone surrogates is created in
//! pieces that decode exactly (well-formed runs, and each lone surrogate alone,
//! which emnapi copies unit by unit) and joined with `String.prototype.concat`.

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
            let pieces = exact_pieces(&text.0);
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
    }

    /// Splits `units` where emnapi would not copy it exactly: before and after
    /// each lone surrogate. Well-formed text is one piece.
    fn exact_pieces(units: &[u16]) -> Vec<&[u16]> {
        let mut pieces = Vec::new();
        let (mut start, mut at) = (0, 0);
        while at < units.len() {
            let unit = units[at];
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

    unsafe fn create(env: sys::napi_env, units: &[u16]) -> Result<sys::napi_value> {
        let mut value = ptr::null_mut();
        check_status!(
            // SAFETY: `units` is valid for `len` reads for the duration of the call.
            unsafe {
                sys::napi_create_string_utf16(env, units.as_ptr(), units.len() as isize, &mut value)
            },
            "Failed to create a JS string"
        )?;
        Ok(value)
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
