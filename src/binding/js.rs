//! Reading JS arguments without trusting them.
//!
//! Every getter names the argument it reads, so a wrong type becomes a
//! `TypeError` that says which field was wrong. A getter that throws (a Proxy,
//! an accessor) leaves its exception pending and we hand that exception back
//! to the caller unchanged.

use std::fmt::{self, Display};
use std::marker::PhantomData;

use napi::bindgen_prelude::Unknown;
use napi::{sys, JsValue, ValueType};

use super::Failure;

/// The most items an array argument (`logEntries`, `entries`, a state
/// list, `requiredHeadings`, `protectedIdentifiers`, the keys of
/// `turnMetadata`) may have. The builders use at most a few hundred
/// entries (a prompt reads `2 * reloadEntries + 1` of the log, the summary
/// 200), and lists of headings, identifiers or decisions are a handful:
/// 65,536 is far beyond any real call, and walking that many items takes
/// milliseconds, never the seconds and GBs of a `length` of 2**26.
pub const MAX_ARRAY_ITEMS: u32 = 1 << 16;

thread_local! {
    /// Property-name strings of the export call running on this thread; a
    /// `napi_value` lives only as long as the call's handle scope, so
    /// [`with_key_cache`] gives each call (even a re-entrant one) its own.
    static KEYS: std::cell::RefCell<Vec<(&'static str, sys::napi_value)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// Runs one export call with a fresh property-name cache, then puts back
/// the cache of any call it is nested in.
pub fn with_key_cache<T>(body: impl FnOnce() -> T) -> T {
    let outer = KEYS.with_borrow_mut(std::mem::take);
    let result = body();
    KEYS.with_borrow_mut(|keys| *keys = outer);
    result
}

/// A JS value of the export call running now. Its handle lives as long as
/// the call's handle scope: `'env`, the lifetime of the `Unknown` argument it
/// came from, so it cannot be kept past the call.
///
/// Every unsafe call below relies on the same two facts, stated once here:
/// `env` and `value` were handed to this call by Node (or made by N-API in
/// it) and are used only on the JS thread, inside the call; N-API checks
/// the value's type itself and answers a wrong one with an error status,
/// never undefined behaviour. Out-pointers are locals.
#[derive(Clone, Copy)]
pub struct Js<'env> {
    env: sys::napi_env,
    value: sys::napi_value,
    scope: PhantomData<&'env ()>,
}

impl<'env> From<Unknown<'env>> for Js<'env> {
    fn from(value: Unknown<'env>) -> Self {
        let raw = value.value();
        Js {
            env: raw.env,
            value: raw.value,
            scope: PhantomData,
        }
    }
}

impl<'env> Js<'env> {
    /// A value napi-rs hands an export's argument conversion (see
    /// `shape::arg`): the same facts as `From<Unknown>`.
    pub(super) fn given(env: sys::napi_env, value: sys::napi_value) -> Self {
        Js {
            env,
            value,
            scope: PhantomData,
        }
    }
}

/// Ok only for `napi_ok`; a pending JS exception stays pending.
fn check(status: sys::napi_status) -> Result<(), Failure> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(Failure::NapiCall)
    }
}

impl<'env> Js<'env> {
    /// Another value of the same call (a property, an element).
    fn sibling(&self, value: sys::napi_value) -> Js<'env> {
        Js {
            env: self.env,
            value,
            scope: PhantomData,
        }
    }

    pub fn kind(&self) -> Result<ValueType, Failure> {
        let mut kind = 0;
        // SAFETY: see `Js`.
        check(unsafe { sys::napi_typeof(self.env, self.value, &mut kind) })?;
        Ok(ValueType::from(kind))
    }

    pub fn is_undefined(&self) -> Result<bool, Failure> {
        Ok(self.kind()? == ValueType::Undefined)
    }

    pub fn is_nullish(&self) -> Result<bool, Failure> {
        Ok(matches!(
            self.kind()?,
            ValueType::Undefined | ValueType::Null
        ))
    }

    pub fn is_array(&self) -> Result<bool, Failure> {
        let mut result = false;
        // SAFETY: see `Js`.
        check(unsafe { sys::napi_is_array(self.env, self.value, &mut result) })?;
        Ok(result)
    }

    /// How the value reads in an error message: "Received type number (42)".
    pub fn describe(&self) -> String {
        let Ok(kind) = self.kind() else {
            return "Received an unreadable value".into();
        };
        match kind {
            ValueType::Undefined => "Received undefined".into(),
            ValueType::Null => "Received null".into(),
            ValueType::Boolean => format!("Received type boolean ({})", self.raw_bool()),
            ValueType::Number => format!("Received type number ({})", self.raw_f64()),
            ValueType::String => "Received type string".into(),
            ValueType::Symbol => "Received type symbol".into(),
            ValueType::BigInt => "Received type bigint".into(),
            ValueType::Function => "Received type function".into(),
            ValueType::Object if self.is_array().unwrap_or(false) => {
                "Received an instance of Array".into()
            }
            _ => "Received type object".into(),
        }
    }

    /// The value of a boolean (`false` for another type: the caller checked).
    fn raw_bool(&self) -> bool {
        let mut result = false;
        // SAFETY: see `Js`; for a non-boolean N-API returns an error and
        // leaves `result` as it was.
        unsafe { sys::napi_get_value_bool(self.env, self.value, &mut result) };
        result
    }

    /// The value of a number (`0` for another type: the caller checked).
    fn raw_f64(&self) -> f64 {
        let mut result = 0.0;
        // SAFETY: as `raw_bool`.
        unsafe { sys::napi_get_value_double(self.env, self.value, &mut result) };
        result
    }

    fn expected(&self, name: impl Display + Copy, what: &str) -> Failure {
        Failure::Type(format!(
            "The \"{name}\" argument must be {what}. {}",
            self.describe()
        ))
    }

    /// The string's UTF-16 code units, exactly (lone surrogates included).
    pub fn string(&self, name: impl Display + Copy) -> Result<Vec<u16>, Failure> {
        if self.kind()? != ValueType::String {
            return Err(self.expected(name, "of type string"));
        }
        self.read_string()
    }

    /// The units of a value known to be a string: the one place the binding
    /// reads a JS string.
    fn read_string(&self) -> Result<Vec<u16>, Failure> {
        // Straight into our own buffer: one copy, no NUL terminator kept.
        let mut len = 0usize;
        // SAFETY: see `Js`; a null buffer asks only for the length.
        check(unsafe {
            sys::napi_get_value_string_utf16(
                self.env,
                self.value,
                std::ptr::null_mut(),
                0,
                &mut len,
            )
        })?;
        // Not zero-filled first: at 16 M units that memset was 4.5% of a call.
        let mut units: Vec<u16> = Vec::with_capacity(len + 1);
        let mut written = 0usize;
        // SAFETY: see `Js`; the buffer has room for `len + 1` units, the size
        // passed, so N-API writes within it.
        check(unsafe {
            sys::napi_get_value_string_utf16(
                self.env,
                self.value,
                units.as_mut_ptr(),
                len + 1,
                &mut written,
            )
        })?;
        // SAFETY: N-API wrote `written` (<= len) units, then a NUL we drop.
        unsafe { units.set_len(written.min(len)) };
        Ok(units)
    }

    /// `undefined` or `null` → None; a string → its units; else a TypeError.
    pub fn optional_string(&self, name: impl Display + Copy) -> Result<Option<Vec<u16>>, Failure> {
        match self.kind()? {
            ValueType::Undefined | ValueType::Null => Ok(None),
            ValueType::String => self.read_string().map(Some),
            _ => Err(self.expected(name, "of type string")),
        }
    }

    /// A path argument: a string of valid Unicode (paths go to the OS as UTF-8).
    pub fn path(&self, name: impl Display + Copy) -> Result<String, Failure> {
        let units = self.string(name)?;
        let path = String::from_utf16(&units).map_err(|_| {
            Failure::Type(format!(
                "The \"{name}\" argument must be a path without lone surrogates"
            ))
        })?;
        if path.is_empty() || path.contains('\0') {
            return Err(Failure::Type(format!(
                "The \"{name}\" argument must be a non-empty path without NUL bytes"
            )));
        }
        Ok(path)
    }

    pub fn optional_path(&self, name: impl Display + Copy) -> Result<Option<String>, Failure> {
        if self.is_nullish()? {
            return Ok(None);
        }
        self.path(name).map(Some)
    }

    pub fn number(&self, name: impl Display + Copy) -> Result<f64, Failure> {
        if self.kind()? != ValueType::Number {
            return Err(self.expected(name, "of type number"));
        }
        Ok(self.raw_f64())
    }

    pub fn optional_number(&self, name: impl Display + Copy) -> Result<Option<f64>, Failure> {
        if self.is_nullish()? {
            return Ok(None);
        }
        self.number(name).map(Some)
    }

    pub fn optional_boolean(&self, name: impl Display + Copy) -> Result<Option<bool>, Failure> {
        if self.is_nullish()? {
            return Ok(None);
        }
        self.boolean(name).map(Some)
    }

    pub fn boolean(&self, name: impl Display + Copy) -> Result<bool, Failure> {
        if self.kind()? != ValueType::Boolean {
            return Err(self.expected(name, "of type boolean"));
        }
        Ok(self.raw_bool())
    }

    /// A plain object argument (not null, not an array, not a function).
    pub fn object(&self, name: impl Display + Copy) -> Result<Js<'env>, Failure> {
        if self.kind()? != ValueType::Object || self.is_array()? {
            return Err(self.expected(name, "of type object"));
        }
        Ok(*self)
    }

    /// `undefined`/`null` → None; an object → Some; else a TypeError.
    pub fn optional_object(&self, name: impl Display + Copy) -> Result<Option<Js<'env>>, Failure> {
        if self.is_nullish()? {
            return Ok(None);
        }
        self.object(name).map(Some)
    }

    /// `obj[key]`; runs getters, and a getter that throws throws through.
    pub fn get(&self, key: &'static str) -> Result<Js<'env>, Failure> {
        let key_value = self.key(key)?;
        let mut value = std::ptr::null_mut();
        // SAFETY: see `Js`; `key_value` is a string of this call (the cache
        // is per call). A getter may run JS and throw: an error status.
        check(unsafe { sys::napi_get_property(self.env, self.value, key_value, &mut value) })?;
        Ok(self.sibling(value))
    }

    /// The JS string for a property name, made once per export call: the
    /// same few names are read from every log entry of a call.
    fn key(&self, name: &'static str) -> Result<sys::napi_value, Failure> {
        let cached =
            KEYS.with_borrow(|keys| keys.iter().find(|(k, _)| *k == name).map(|(_, v)| *v));
        if let Some(value) = cached {
            return Ok(value);
        }
        let value = create_string(self.env, name)?;
        KEYS.with_borrow_mut(|keys| keys.push((name, value)));
        Ok(value)
    }

    /// The length of an array argument, checked before any item is read:
    /// a `length` of 2**26 (holes, or a Proxy) fails at once instead of
    /// after seconds of walking.
    fn array_length(&self, name: impl Display + Copy) -> Result<u32, Failure> {
        if self.kind()? != ValueType::Object || !self.is_array()? {
            return Err(self.expected(name, "an array"));
        }
        let mut length = 0u32;
        // SAFETY: see `Js`.
        check(unsafe { sys::napi_get_array_length(self.env, self.value, &mut length) })?;
        if length > MAX_ARRAY_ITEMS {
            return Err(Failure::Range(format!(
                "The length of \"{name}\" is out of range. It must be <= {MAX_ARRAY_ITEMS}. Received {length}"
            )));
        }
        Ok(length)
    }

    /// `array[index]`; runs getters, and an index past a shrunk array reads
    /// `undefined`.
    fn element(&self, index: u32) -> Result<Js<'env>, Failure> {
        let mut value = std::ptr::null_mut();
        // SAFETY: see `Js`.
        check(unsafe { sys::napi_get_element(self.env, self.value, index, &mut value) })?;
        Ok(self.sibling(value))
    }

    /// The items of an array argument.
    pub fn array(&self, name: impl Display + Copy) -> Result<Vec<Js<'env>>, Failure> {
        (0..self.array_length(name)?)
            .map(|index| self.element(index))
            .collect()
    }

    /// The items of an array that may be absent (`None` for undefined or
    /// null), each read by `item` under the name `name[index]` as it is
    /// reached: the first bad item ends the walk.
    pub fn optional_array_of<T>(
        &self,
        name: impl Display + Copy,
        mut item: impl FnMut(Js<'env>, fmt::Arguments<'_>) -> Result<T, Failure>,
    ) -> Result<Option<Vec<T>>, Failure> {
        if self.is_nullish()? {
            return Ok(None);
        }
        (0..self.array_length(name)?)
            .map(|index| item(self.element(index)?, format_args!("{name}[{index}]")))
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// `Object.keys(obj)`: own, enumerable, string keys (index keys as
    /// strings), in that order. Not `napi_get_property_names`: that one is
    /// `for…in` and walks the prototype chain.
    pub fn keys(&self, name: impl Display + Copy) -> Result<Vec<Vec<u16>>, Failure> {
        let mut names = std::ptr::null_mut();
        // SAFETY: see `Js`; the mode, filter and conversion are N-API's constants.
        check(unsafe {
            sys::napi_get_all_property_names(
                self.env,
                self.value,
                sys::KeyCollectionMode::own_only,
                sys::KeyFilter::enumerable | sys::KeyFilter::skip_symbols,
                sys::KeyConversion::numbers_to_strings,
                &mut names,
            )
        })?;
        self.sibling(names)
            .array(format_args!("Object.keys({name})"))?
            .iter()
            .map(|key| key.string("key"))
            .collect()
    }

    /// `obj[key]` for a key given as UTF-16 (from `keys()`).
    pub fn get_utf16(&self, key: &[u16]) -> Result<Js<'env>, Failure> {
        let key_value = create_string_utf16(self.env, key)?;
        let mut value = std::ptr::null_mut();
        // SAFETY: as `get`.
        check(unsafe { sys::napi_get_property(self.env, self.value, key_value, &mut value) })?;
        Ok(self.sibling(value))
    }
}

// The two places the binding makes a JS string (results are made by
// napi-rs from `Utf16String`).

/// A JS string from UTF-16 units, exactly (lone surrogates and a leading
/// U+FEFF included, under WASI too: see `text`).
fn create_string_utf16(env: sys::napi_env, units: &[u16]) -> Result<sys::napi_value, Failure> {
    // SAFETY: `env` is the live env of the current call.
    unsafe { super::text::create_exact(env, units) }.map_err(|_| Failure::NapiCall)
}

/// A JS string from UTF-8 text (property names, error codes and messages).
pub(super) fn create_string(env: sys::napi_env, text: &str) -> Result<sys::napi_value, Failure> {
    let length = isize::try_from(text.len()).map_err(|_| Failure::NapiCall)?;
    let mut value = std::ptr::null_mut();
    // SAFETY: `env` is the live env of the current call; `text` is valid
    // UTF-8 for `length` bytes; the out-pointer is a local.
    check(unsafe { sys::napi_create_string_utf8(env, text.as_ptr().cast(), length, &mut value) })?;
    Ok(value)
}
