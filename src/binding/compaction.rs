//! The compaction exports' `options` argument.

use std::fmt::Display;

use super::{Failure, Js};

/// An optional array of strings, e.g. `options.requiredHeadings`.
pub fn optional_strings(
    value: Js<'_>,
    name: impl Display + Copy,
) -> Result<Option<Vec<Vec<u16>>>, Failure> {
    value.optional_array_of(name, |item, name| item.string(name))
}

/// The `options` argument of the compaction caps.
pub fn cap_options(
    value: Js<'_>,
) -> Result<openclaw_context_core::compaction::CapOptions, Failure> {
    let Some(options) = value.optional_object("options")? else {
        return Ok(openclaw_context_core::compaction::CapOptions::default());
    };
    Ok(openclaw_context_core::compaction::CapOptions {
        token_budget: options
            .get("tokenBudget")?
            .optional_number("options.tokenBudget")?,
        required_headings: optional_strings(
            options.get("requiredHeadings")?,
            "options.requiredHeadings",
        )?,
        protected_identifiers: optional_strings(
            options.get("protectedIdentifiers")?,
            "options.protectedIdentifiers",
        )?
        .unwrap_or_default(),
    })
}
