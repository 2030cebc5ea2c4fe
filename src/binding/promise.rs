//! The Promise exports. Their JS arguments are converted on the JS thread,
//! exactly as the sync exports convert them; the work, file I/O included,
//! runs on the libuv thread pool (a napi `AsyncTask`); the promise settles
//! with the value, or rejects with the very error object the sync export
//! would have thrown (a `TypeError` naming the field, an `Error` with `code`
//! and `path`, the caller's own exception from a getter).

use std::panic::{catch_unwind, AssertUnwindSafe};

use napi::bindgen_prelude::{PromiseRaw, ToNapiValue, TypeName};
use napi::{sys, Env, JsValue, Task, ValueType};
use openclaw_context_core::error::CoreError;

use super::{error_value, js, Failure};

type Work<O> = Box<dyn FnOnce() -> Result<O, CoreError> + Send>;

/// One export call's work, built from its converted arguments, and how its
/// output becomes a JS value.
pub struct Job<O, J> {
    /// Taken by the one run.
    work: Option<Work<O>>,
    to_js: fn(O) -> J,
}

impl<O, J> Job<O, J> {
    pub fn new(
        work: impl FnOnce() -> Result<O, CoreError> + Send + 'static,
        to_js: fn(O) -> J,
    ) -> Self {
        Job {
            work: Some(Box::new(work)),
            to_js,
        }
    }

    /// The sync export: the same work, on this thread.
    pub fn run_here(mut self) -> Result<J, Failure> {
        let work = self.work.take().ok_or_else(ran_twice)?;
        Ok((self.to_js)(work()?))
    }
}

fn ran_twice() -> Failure {
    Failure::Panic("the work of this call ran twice".into())
}

/// Runs `work`, a panic included: a panic on a pool thread would unwind into
/// libuv's C frame and abort the process.
fn catching_panics<O>(work: Work<O>) -> Result<O, Failure> {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(result) => result.map_err(Failure::from),
        Err(payload) => Err(Failure::Panic(panic_message(payload.as_ref()))),
    }
}

/// napi-rs's wording for a panic of a sync export.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(text) = payload.downcast_ref::<String>() {
        text.clone()
    } else if let Some(text) = payload.downcast_ref::<&str>() {
        (*text).to_owned()
    } else {
        "panic from Rust code".to_owned()
    }
}

impl<O: Send + 'static, J: ToNapiValue + TypeName> Task for Job<O, J> {
    // A failure travels as data, never as `Err`: napi-rs would reject with a
    // fresh plain `Error` built from a message, losing `code` and `path`.
    type Output = Result<O, Failure>;
    type JsValue = Settled<J>;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        Ok(match self.work.take() {
            Some(work) => catching_panics(work),
            None => Err(ran_twice()),
        })
    }

    fn resolve(&mut self, _env: Env, output: Self::Output) -> napi::Result<Settled<J>> {
        Ok(match output {
            Ok(output) => Settled::Value((self.to_js)(output)),
            Err(failure) => Settled::Rejected(failure),
        })
    }
}

/// What a task's promise is resolved with: the value, or a promise rejected
/// with the failure's error object, which the task's promise then follows
/// (resolving a promise with a rejected one rejects it with the same reason).
pub enum Settled<J> {
    Value(J),
    Rejected(Failure),
}

impl<J: TypeName> TypeName for Settled<J> {
    fn type_name() -> &'static str {
        J::type_name()
    }

    fn value_type() -> ValueType {
        J::value_type()
    }
}

impl<J: ToNapiValue> ToNapiValue for Settled<J> {
    unsafe fn to_napi_value(env: sys::napi_env, settled: Self) -> napi::Result<sys::napi_value> {
        match settled {
            // SAFETY: the caller's contract: `env` is live, on its thread.
            Settled::Value(value) => unsafe { J::to_napi_value(env, value) },
            Settled::Rejected(failure) => rejected_promise(env, failure),
        }
    }
}

/// A promise already rejected with the failure's error object.
fn rejected_promise(env: sys::napi_env, failure: Failure) -> napi::Result<sys::napi_value> {
    // First: this takes a pending exception, which would make the calls below fail.
    let error = error_value(env, failure)
        .ok_or_else(|| napi::Error::from_reason("could not create the error"))?;
    let (mut deferred, mut promise) = (std::ptr::null_mut(), std::ptr::null_mut());
    // SAFETY: `env` is the live env of the current call, on its thread;
    // both out-pointers are valid.
    let status = unsafe { sys::napi_create_promise(env, &mut deferred, &mut promise) };
    if status != sys::Status::napi_ok {
        return Err(napi::Error::new(
            status.into(),
            "could not create a promise",
        ));
    }
    // SAFETY: `deferred` was just made by `napi_create_promise` and is settled
    // only here (settling frees it); `error` is a value of this env.
    let status = unsafe { sys::napi_reject_deferred(env, deferred, error) };
    if status != sys::Status::napi_ok {
        return Err(napi::Error::new(
            status.into(),
            "could not reject a promise",
        ));
    }
    Ok(promise)
}

/// A Promise export: `convert` reads the JS arguments into a job (on this
/// thread, with the same property-name cache as a sync call); the job runs
/// on the thread pool. A conversion failure rejects the promise at once;
/// nothing is thrown.
pub fn spawn<'scope, O: Send + 'static, J: ToNapiValue + TypeName + 'static>(
    env: &Env,
    convert: impl FnOnce() -> Result<Job<O, J>, Failure>,
) -> napi::Result<PromiseRaw<'scope, J>> {
    let promise = match js::with_key_cache(convert) {
        Ok(job) => env.spawn(job)?.promise_object().raw(),
        Err(failure) => rejected_promise(env.raw(), failure)?,
    };
    Ok(PromiseRaw::new(env.raw(), promise))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_in_the_work_is_a_failure_with_its_message() {
        let work: Work<()> = Box::new(|| panic!("boom {}", 42));
        match catching_panics(work) {
            Err(Failure::Panic(message)) => assert_eq!(message, "boom 42"),
            _ => panic!("not caught"),
        }
        let work: Work<u8> = Box::new(|| Ok(7));
        assert!(matches!(catching_panics(work), Ok(7)));
    }

    // (Nothing here touches a napi type: this crate's test binary has no
    // Node to resolve the N-API symbols against.)
    #[test]
    fn the_sync_run_converts_the_works_output() {
        let job = Job::new(|| Ok(20), |n: i32| n + 1);
        assert!(matches!(job.run_here(), Ok(21)));
        let job = Job::new(
            || {
                Err(CoreError::NotRegularFile {
                    path: "/".into(),
                    kind: "directory",
                })
            },
            |n: i32| n,
        );
        assert!(matches!(job.run_here(), Err(Failure::Core(_))));
    }
}
