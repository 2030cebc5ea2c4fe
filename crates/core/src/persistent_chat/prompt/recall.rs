//! Recall on a reload (issue 30, 5b): of the log entries the search found
//! for the live message, the best few that the excerpt does not show,
//! within [`RECALL_MAX_CHARS`], oldest first.

use foldhash::{HashSet, HashSetExt};

use super::select::{content_key, is_live_copy};
use super::{RecallHit, MAX_RECALL_ENTRIES, RECALL_MAX_CHARS};
use crate::persistent_chat::log::LogEntry;
use crate::persistent_chat::text::shown_text;

/// A recalled entry as the layout shows it.
#[derive(Clone, Copy)]
pub(super) struct Recalled<'a> {
    pub(super) entry: &'a LogEntry,
    /// Its 1-based line in the log: its number in the block.
    pub(super) line: u64,
    /// 0 for the best hit: the worst goes first when `maxChars` bites.
    pub(super) rank: usize,
}

/// The recalled entries, oldest first (by line): the best of `hits` (best
/// first) that are not among `shown` (the excerpt's candidates; one entry is
/// another when their ids or their role, text and timestamp match, as the
/// excerpt counts repeats), not the live message, not a repeat of a better
/// hit, at most `wanted` (and [`MAX_RECALL_ENTRIES`]), their texts as shown
/// (cut to `max_entry_chars`) at most [`RECALL_MAX_CHARS`] together.
pub(super) fn choose_recalled<'a>(
    hits: &'a [RecallHit],
    wanted: usize,
    shown: &[&LogEntry],
    live: &[u16],
    max_entry_chars: Option<usize>,
) -> Vec<Recalled<'a>> {
    let wanted = wanted.min(MAX_RECALL_ENTRIES);
    if wanted == 0 {
        return Vec::new();
    }
    let mut ids: HashSet<&[u16]> = HashSet::with_capacity(shown.len() + hits.len());
    let mut contents = HashSet::with_capacity(shown.len() + hits.len());
    for entry in shown {
        if let Some(id) = &entry.id {
            ids.insert(id);
        }
        contents.insert(content_key(entry));
    }
    let mut chosen: Vec<Recalled> = Vec::with_capacity(wanted);
    let mut chars = 0usize;
    for hit in hits {
        if chosen.len() == wanted {
            break;
        }
        let entry = &hit.entry;
        let repeated_id = entry.id.as_ref().is_some_and(|id| ids.contains(&id[..]));
        if repeated_id || contents.contains(&content_key(entry)) || is_live_copy(entry, live) {
            continue;
        }
        let length = shown_text(&entry.text, max_entry_chars).len();
        if chars.saturating_add(length) > RECALL_MAX_CHARS {
            continue;
        }
        chars += length;
        if let Some(id) = &entry.id {
            ids.insert(id);
        }
        contents.insert(content_key(entry));
        chosen.push(Recalled {
            entry,
            line: hit.line,
            rank: chosen.len(),
        });
    }
    chosen.sort_by_key(|recalled| recalled.line);
    chosen
}
