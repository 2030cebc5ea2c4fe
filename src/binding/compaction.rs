//! The compaction exports' `options` argument.

use super::shape::{units, FromJs};
use super::{Failure, Js};

/// The `options` argument of the compaction caps (`undefined` or `null`:
/// the defaults).
pub fn cap_options(
    value: Js<'_>,
) -> Result<openclaw_context_core::compaction::CapOptions, Failure> {
    let Some(options) = Option::<crate::CapCompactionOptions>::from_js(value, &"options")? else {
        return Ok(openclaw_context_core::compaction::CapOptions::default());
    };
    Ok(openclaw_context_core::compaction::CapOptions {
        token_budget: options.token_budget,
        required_headings: options.required_headings.map(units),
        protected_identifiers: options.protected_identifiers.map(units).unwrap_or_default(),
    })
}
