//! Failures and how each becomes a JS exception (`TypeError`, `RangeError`,
//! the core's file errors with `code`, `path`, `syscall`).

use napi::{sys, Env, Status};
use openclaw_context_core::error::CoreError;

use super::js;

/// Why a call failed, before it becomes a JS exception.
pub enum Failure {
    /// A wrong argument type: `TypeError`, code `ERR_INVALID_ARG_TYPE`.
    Type(String),
    /// A value of the right type outside its range: `RangeError`, `ERR_OUT_OF_RANGE`.
    Range(String),
    /// A failure of the core (file errors): `Error` with `code`, `path`, `syscall`.
    Core(CoreError),
    /// A Node-API call failed. Nearly always because JS code it ran threw
    /// (a getter, a Proxy trap): that exception is pending and is what the
    /// caller gets; else an `Error` with code `ERR_NAPI`.
    NapiCall,
    /// The work of a Promise export panicked on the thread pool: `Error`
    /// with the panic's message and code `GenericFailure`, as napi-rs's
    /// `catch_unwind` gives a sync export.
    Panic(String),
}

impl From<CoreError> for Failure {
    fn from(err: CoreError) -> Self {
        match err {
            CoreError::OutOfRange { message } => Failure::Range(message),
            err => Failure::Core(err),
        }
    }
}

/// Runs one export's body and turns a failure into the JS exception it
/// stands for. The exception is thrown here, so napi-rs only sees
/// `PendingException` and leaves it as it is.
pub fn run<T>(env: &Env, body: impl FnOnce() -> Result<T, Failure>) -> napi::Result<T> {
    js::with_key_cache(body).map_err(|failure| throw(env.raw(), failure))
}

fn throw(env: sys::napi_env, failure: Failure) -> napi::Error {
    let pending = napi::Error::new(
        Status::PendingException,
        "a JavaScript exception is pending",
    );
    // A pending exception (the caller's own, from a getter) wins, as it would in JS.
    if exception_pending(env) {
        return pending;
    }
    let Some(error) = error_value(env, failure) else {
        return napi::Error::new(Status::GenericFailure, "could not create the error");
    };
    // SAFETY: `env` is the live env of this call, on its thread; `error` was just made in it.
    unsafe { sys::napi_throw(env, error) };
    pending
}

/// The JS value a failure throws or rejects with: the pending exception if
/// there is one (taken, so it can be handed on), else a new error object.
/// `None` if the env cannot make one.
pub(crate) fn error_value(env: sys::napi_env, failure: Failure) -> Option<sys::napi_value> {
    if exception_pending(env) {
        let mut exception = std::ptr::null_mut();
        // SAFETY: `env` is live on this thread and `exception` a valid out-pointer.
        let status = unsafe { sys::napi_get_and_clear_last_exception(env, &mut exception) };
        return (status == sys::Status::napi_ok).then_some(exception);
    }
    let (constructor, code, message, path, syscall): (ErrorConstructor, &str, String, _, _) =
        match failure {
            Failure::NapiCall => (
                ErrorConstructor::Error,
                "ERR_NAPI",
                "a Node-API call failed".to_owned(),
                None,
                None,
            ),
            Failure::Type(message) => (
                ErrorConstructor::Type,
                "ERR_INVALID_ARG_TYPE",
                message,
                None,
                None,
            ),
            Failure::Range(message) => (
                ErrorConstructor::Range,
                "ERR_OUT_OF_RANGE",
                message,
                None,
                None,
            ),
            Failure::Panic(message) => (
                ErrorConstructor::Error,
                "GenericFailure",
                message,
                None,
                None,
            ),
            Failure::Core(err) => (
                ErrorConstructor::Error,
                err.code(),
                err.to_string(),
                Some(err.path().to_owned()).filter(|path| !path.is_empty()),
                err.syscall(),
            ),
        };
    let error = create_error(env, constructor, code, &message)?;
    if let Some(path) = path {
        set_string_property(env, error, c"path", &path);
    }
    if let Some(syscall) = syscall {
        set_string_property(env, error, c"syscall", syscall);
    }
    Some(error)
}

enum ErrorConstructor {
    Error,
    Type,
    Range,
}

fn exception_pending(env: sys::napi_env) -> bool {
    let mut pending = false;
    // SAFETY: `env` is live on this thread and `pending` a valid out-pointer.
    unsafe { sys::napi_is_exception_pending(env, &mut pending) };
    pending
}

/// A JS string, or null if it cannot be made (an error is being built).
fn js_string(env: sys::napi_env, text: &str) -> sys::napi_value {
    js::create_string(env, text).unwrap_or(std::ptr::null_mut())
}

fn create_error(
    env: sys::napi_env,
    constructor: ErrorConstructor,
    code: &str,
    message: &str,
) -> Option<sys::napi_value> {
    let code = js_string(env, code);
    let message = js_string(env, message);
    let mut error = std::ptr::null_mut();
    let create = match constructor {
        ErrorConstructor::Error => sys::napi_create_error,
        ErrorConstructor::Type => sys::napi_create_type_error,
        ErrorConstructor::Range => sys::napi_create_range_error,
    };
    // SAFETY: `env` is live on this thread; `code` and `message` are strings
    // of it (a null one makes the call fail with `napi_invalid_arg`, which
    // leaves `error` null); `error` is a valid out-pointer.
    unsafe { create(env, code, message, &mut error) };
    (!error.is_null()).then_some(error)
}

fn set_string_property(
    env: sys::napi_env,
    object: sys::napi_value,
    name: &std::ffi::CStr,
    text: &str,
) {
    let value = js_string(env, text);
    // SAFETY: `env` is live on this thread, `object` an object of it, `name`
    // NUL-terminated; a null `value` makes the call fail and set nothing.
    unsafe { sys::napi_set_named_property(env, object, name.as_ptr(), value) };
}
