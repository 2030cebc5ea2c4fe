//! `SecretMasker`: the core's masker as a JS class. The options are read
//! here (a wrong type names its field); masking runs in the core, on this
//! thread or (the `Async` methods) on the libuv thread pool.

use std::sync::Arc;

use napi_derive::napi;
use openclaw_context_core::mask::{Masker, Refusal};

use super::promise::Job;
use super::shape::{arg, units, FromJs};
use super::text::Utf16String;
use super::Failure;

/// Options of `new SecretMasker(options)`.
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct SecretMaskerOptions {
    /// The operator's patterns, each a JS regular expression as `source` or
    /// `/source/flags` (flags `i`, `m`, `s`, `u`; `g` and `d` ignored).
    /// Their matches become `[redacted:custom]` (only the first capturing
    /// group, when the pattern has one). A pattern the linear-time engine
    /// cannot compile (lookaround, backreferences, `y` or `v`), one that
    /// matches the empty string, one too large once compiled, or past the
    /// 256th is not used and is listed in `refused`.
    pub patterns: Option<Vec<Utf16String>>,
}

/// An operator pattern `SecretMasker` does not use, and why.
#[napi(object, object_from_js = false)]
pub struct SecretMaskerRefusal {
    pub pattern: String,
    /// One line, e.g. `look-around, including look-ahead and look-behind, is not supported`.
    pub reason: String,
}

impl From<&Refusal> for SecretMaskerRefusal {
    fn from(refusal: &Refusal) -> Self {
        SecretMaskerRefusal {
            pattern: refusal.pattern.clone(),
            reason: refusal.reason.clone(),
        }
    }
}

/// The masker for `options` (`undefined` or an object with `patterns`).
pub fn masker(options: Option<arg::SecretMaskerOptions>) -> Result<Masker, Failure> {
    let patterns = options
        .map(|options| options.read("options"))
        .transpose()?
        .and_then(|options| options.patterns)
        .unwrap_or_default();
    Ok(Masker::from_utf16(&units(patterns)))
}

pub fn refused(masker: &Masker) -> Vec<SecretMaskerRefusal> {
    masker.refused().iter().map(Into::into).collect()
}

/// The texts of a `maskMany` call.
pub fn texts(texts: arg::Vec<Utf16String>) -> Result<Vec<Vec<u16>>, Failure> {
    Ok(units(texts.read("texts")?))
}

/// A masking job for the pool: the masker is shared, the text owned.
pub fn job(masker: &Arc<Masker>, text: Vec<u16>) -> Job<Vec<u16>, Utf16String> {
    let masker = Arc::clone(masker);
    Job::new(move || Ok(masker.mask(&text)), Into::into)
}

pub fn many_job(
    masker: &Arc<Masker>,
    texts: Vec<Vec<u16>>,
) -> Job<Vec<Vec<u16>>, Vec<Utf16String>> {
    let masker = Arc::clone(masker);
    Job::new(
        move || Ok(texts.iter().map(|text| masker.mask(text)).collect()),
        |masked| masked.into_iter().map(Into::into).collect(),
    )
}
