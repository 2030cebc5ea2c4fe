//! The field names of the persistent-chat inputs, each with the aliases it
//! also goes by, in the order they are tried (the first present wins). One
//! table for both readers: the JSON reader of the log and the state file
//! (lenient: a field of the wrong type counts as absent) and the binding's
//! reader of JS values (strict: a wrong type is a `TypeError` naming the
//! field as the caller spelled it).

/// A field's name, then its aliases.
pub type Names = &'static [&'static str];

/// A log entry: `{ ts, role, text, session, status, id }`.
pub mod entry {
    use super::Names;
    pub const ROLE: Names = &["role"];
    pub const TEXT: Names = &["text", "content"];
    pub const TS: Names = &["ts", "timestamp"];
    pub const SESSION: Names = &["session", "sessionId"];
    pub const STATUS: Names = &["status"];
    pub const ID: Names = &["id"];
}

/// The memory state: lists of items (strings or `{ text }`) and timers.
pub mod state {
    use super::Names;
    pub const DECISIONS: Names = &["decisions"];
    pub const GUARDRAILS: Names = &["guardrails"];
    pub const PENDING_THREADS: Names = &["pendingThreads", "pending_threads"];
    pub const TIMERS: Names = &["timers"];
    pub const MODEL_NOTES: Names = &["modelNotes", "model_notes"];
    pub const NOTES: Names = &["notes"];
    /// The text of an item given as an object.
    pub const ITEM_TEXT: Names = &["text"];
}

/// A timer of the memory state: `{ name, status, due }`, or a bare name.
pub mod timer {
    use super::Names;
    pub const NAME: Names = &["name", "text"];
    pub const STATUS: Names = &["status"];
    pub const DUE: Names = &["due"];
}
