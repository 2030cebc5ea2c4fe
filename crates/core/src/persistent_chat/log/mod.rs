//! The perpetual log: a JSON Lines file the gateway appends one entry to per
//! message, read from its end.
//!
//! - `entry`: the entry model and the parse of one line;
//! - `tail`: the checked tail read (`readPersistentChatLogEntries`), safe
//!   against a writer;
//! - `backward`: the block reader under it, lines from the end backwards;
//! - `options`: how both read (line cap, gap, block sizes, links, the
//!   entries' text cap).

mod backward;
mod entry;
mod options;
mod tail;

#[cfg(test)]
pub(crate) use entry::bare_entry;
pub use entry::{js_number_text, parse_log_line, LogEntry, Role, Timestamp};
pub(crate) use options::TailOptions;
pub use options::{entry_cap, LogReadOptions, MAX_LINE_BYTES};
pub(crate) use tail::read_open_log_tail;
pub use tail::{
    read_log_tail, read_log_tail_or_empty, read_log_tail_or_empty_with_links,
    read_log_tail_with_links, read_log_tail_with_options, LogTail,
};
