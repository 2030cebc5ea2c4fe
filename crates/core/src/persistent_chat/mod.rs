//! Persistent chat: perpetual log, continuity summary, injected prompt.
//!
//! Pure Rust over UTF-16 text (`Vec<u16>`), so JavaScript strings, lone
//! surrogates included, come back exactly; the N-API binding only converts.
//!
//! - [`log`] holds log entries and the tail reader (`readPersistentChatLogEntries`);
//! - [`state`] reads the memory state written by the Python memory script;
//! - [`summary`] is `rebuildPersistentChatContinuitySummary`;
//! - [`prompt`] is `buildPersistentChatInjectedPrompt` and its report;
//! - [`request`] holds both builders' params as a caller gives them, and the
//!   policy that resolves them (data over paths, missing files, defaults);
//! - [`time`] parses and prints the timestamps they share.

mod budget;
pub mod fields;
pub(crate) mod fs;
pub use fs::Links;
pub(crate) mod json;
pub mod log;
pub mod prompt;
pub mod request;
mod scan;
pub mod state;
pub(crate) mod status;
pub mod summary;
pub(crate) mod text;
pub mod time;
