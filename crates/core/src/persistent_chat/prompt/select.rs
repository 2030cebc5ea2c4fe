//! Choosing the log entries a prompt may show: repeats counted once, the
//! live message already appended left out, and on a continuous turn only
//! what the backend session does not hold yet.

use foldhash::{HashSet, HashSetExt};

use crate::persistent_chat::log::{LogEntry, Role, Timestamp};
use crate::utf16;

/// The entries a prompt may show, oldest first.
pub(super) struct Selection<'a> {
    pub(super) entries: Vec<&'a LogEntry>,
    /// Of the newest `wanted` entries, those left out as already held.
    pub(super) already_held: usize,
}

/// The newest `wanted` entries worth showing, oldest first: repeated copies
/// count once (the first copy keeps its place), the backend's tool entries
/// (`role: "tool"`) are never shown, and a newest entry that is the live
/// message itself (already appended to the log) is left out.
///
/// `held_by` is the backend session of a continuous turn. That backend
/// holds the log up to its own newest entry: the entries it wrote, the
/// excerpt its reload prompt carried, and what earlier continuous prompts
/// injected (they were built from the log before its turns were appended).
/// So only entries after its newest one are new to it, whoever wrote them:
/// another channel, another backend session, a writer outside the gateway,
/// or one that sets no `session` at all. Without `held_by`, or when no entry
/// is of that session, every entry is a candidate.
pub(super) fn select_entries<'a>(
    entries: &'a [LogEntry],
    live: &[u16],
    wanted: usize,
    held_by: Option<&[u16]>,
) -> Selection<'a> {
    let mut unique = dedupe(entries);
    // The backend's own tool summaries are for search and recall only.
    unique.retain(|entry| entry.role != Role::Tool);
    if unique.last().is_some_and(|entry| is_live_copy(entry, live)) {
        unique.pop();
    }
    let unseen_from = held_by.map_or(0, |session| {
        unique
            .iter()
            .rposition(|entry| entry.session.as_deref() == Some(session))
            .map_or(0, |newest_held| newest_held + 1)
    });
    let start = unique.len().saturating_sub(wanted);
    Selection {
        already_held: unseen_from.saturating_sub(start),
        entries: unique.split_off(start.max(unseen_from)),
    }
}

pub(super) fn is_live_copy(entry: &LogEntry, live: &[u16]) -> bool {
    entry.role == Role::User && utf16::trim(&entry.text) == utf16::trim(live)
}

#[derive(Clone, PartialEq, Eq, Hash)]
pub(super) enum TsKey<'a> {
    None,
    Text(&'a [u16]),
    Number(u64),
}

pub(super) type ContentKey<'a> = (Role, &'a [u16], TsKey<'a>);

pub(super) fn content_key(entry: &LogEntry) -> ContentKey<'_> {
    let ts = match &entry.ts {
        None => TsKey::None,
        Some(Timestamp::Text(text)) => TsKey::Text(text),
        Some(Timestamp::Number(number)) => TsKey::Number(number.to_bits()),
    };
    (entry.role, &entry.text, ts)
}

/// Entries without repeats, the first copy kept. Per SPEC, two entries are
/// one when their `id`s match, or when role, text and ts match: a retried
/// append that got a fresh id is still the same message at the same time.
fn dedupe(entries: &[LogEntry]) -> Vec<&LogEntry> {
    let mut ids = HashSet::with_capacity(entries.len());
    let mut contents = HashSet::with_capacity(entries.len());
    let mut unique = Vec::new();
    for entry in entries {
        let repeated_id = entry.id.as_ref().is_some_and(|id| !ids.insert(&id[..]));
        let repeated_content = !contents.insert(content_key(entry));
        if !repeated_id && !repeated_content {
            unique.push(entry);
        }
    }
    unique
}
