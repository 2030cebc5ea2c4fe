#![deny(clippy::all)]
// Every unsafe block says why it is sound.
#![deny(clippy::undocumented_unsafe_blocks)]
//! The core of openclaw-context-native, with no Node-API types: every
//! export's algorithm on UTF-16 text (`&[u16]`, the units of a JS string).
//!
//! - [`compaction`]: `capCompactionSummary` and the fixed
//!   `capCompactionSummaryPreservingSuffix`;
//! - [`persistent_chat`]: the perpetual log, the continuity summary and the
//!   injected prompt;
//! - [`store`]: a chat's folder and its files (layout, file rules, append,
//!   atomic replace, inspect), the one owner of their bytes;
//! - [`search`]: ranked search over a perpetual log and a window read;
//! - [`utf16`]: JS string semantics (surrogate- and grapheme-safe cuts);
//! - [`mask`]: secrets and `<private>` spans masked in linear time;
//! - [`error`]: the errors the binding maps to JS errors with `code`;
//! - [`progress`]: how far the process's long work is, for a progress line.

pub mod archive;
pub mod compaction;
pub mod error;
pub mod mask;
pub mod persistent_chat;
pub mod progress;
pub mod search;
pub mod store;
pub mod utf16;

/// This process's id, for temp file names; WASI has none (std's
/// `process::id` panics there: "unsupported"), so 0, and the names' other
/// parts and `O_EXCL` keep them unique.
pub(crate) fn process_id() -> u32 {
    #[cfg(target_os = "wasi")]
    return 0;
    #[cfg(not(target_os = "wasi"))]
    std::process::id()
}

// The test helpers, one file shared with the integration tests (their `mod support;`),
// which name this crate `openclaw_context_core`: so does the crate itself in its tests.
#[cfg(test)]
extern crate self as openclaw_context_core;
#[cfg(test)]
#[path = "../tests/support/mod.rs"]
pub(crate) mod test_support;
