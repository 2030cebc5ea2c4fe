//! A turn's prompt prepared from the chat's files in one call: the log
//! window and the reload decision, the entries masked whole as they are
//! read, then cut (a log of an earlier release holds `<private>` spans and
//! its own masks), on a reload the summary rebuilt from the memory state and
//! replaced, on a reload the log searched for the live message (the recall
//! block's candidates), the prompt built, and the debug copy of it written. What the
//! plugin did in seven calls across the language boundary (one of them on
//! the event loop), the store does on the thread pool in one.

use super::refresh::RefreshDecision;
use super::turn::TURN_WINDOW;
use super::ChatStore;
use crate::error::CoreError;
use crate::persistent_chat::log::{LogEntry, LogTail, Role};
use crate::persistent_chat::prompt::{PromptReport, RecallHit, DEFAULT_MAX_ENTRY_CHARS};
use crate::persistent_chat::request::clock_ms;
use crate::persistent_chat::request::{PromptRequest, SummaryRequest};
use crate::persistent_chat::text::shown_text;
use crate::persistent_chat::Links;
use crate::search::{SearchOptions, Zone, MAX_LIMIT};

/// The recall's query is at most this much of the live message (UTF-16
/// units): a question fits many times over, while a pasted document of
/// megabytes costs the search no more than this.
pub const RECALL_QUERY_MAX_CHARS: usize = 2_000;

/// The most log bytes a turn's recall indexes before the prompt goes out
/// (about a tenth of a second on a 2-core x64 machine; it reads an index
/// file of at most 8 times as many bytes, in about as long): a chat whose
/// index lags more (its first reload after an import, or after an upgrade,
/// with a large log) or whose index file is larger (its first reload in a
/// new process) recalls nothing on that turn, and the caller catches the
/// index up after it ([`ChatStore::warm_index`],
/// [`PreparedTurn::index_behind`]).
pub const RECALL_MAX_INDEX_BYTES: u64 = 4 << 20;

/// A window crowded by the backend's tool entries (which no prompt shows)
/// is read again this many times as long, once.
const TOOL_CROWDED_FACTOR: usize = 8;

/// What a turn needs besides the prompt builder's own request.
#[derive(Debug, Clone)]
pub struct TurnFiles {
    /// Log entries read for the reload decision and the summary (at least
    /// [`TURN_WINDOW`], and at least the entries the prompt may show).
    pub window: usize,
    /// The id of the user entry the turn appends next: given, a refresh
    /// marked for the turn's backend session ([`ChatStore::mark_refresh`])
    /// makes the turn a refresh, consumed by that entry (see
    /// [`super::refresh`]). `None`: no refresh, the mark left as it is.
    pub refresh_entry: Option<Vec<u16>>,
    /// The summary's budget (`SummaryRequest::max_chars`).
    pub summary_max_chars: Option<f64>,
    /// What `last-injected-preprompt.txt` keeps of the prompt, in UTF-16
    /// units (`None`: all of it).
    pub last_prompt_max_chars: Option<usize>,
    /// The turn's time, UTC epoch milliseconds (`None`: the clock, read
    /// once when the turn starts): the summary's `now` and the time the
    /// recall reads the live message's time words at.
    pub now_ms: Option<i64>,
    /// The user's time zone, for the recall's time words.
    pub zone: Zone,
}

impl Default for TurnFiles {
    fn default() -> Self {
        TurnFiles {
            window: TURN_WINDOW,
            refresh_entry: None,
            summary_max_chars: None,
            last_prompt_max_chars: None,
            now_ms: None,
            zone: Zone::UTC,
        }
    }
}

/// A prepared turn: the prompt and its report, and whether it is a reload.
#[derive(Debug, Clone)]
pub struct PreparedTurn {
    pub report: PromptReport,
    pub reload: bool,
    /// The turn restates the summary and the last entries after a
    /// compaction: the mark's id, for [`ChatStore::clear_refresh`] once the
    /// turn's user entry is appended.
    pub refresh: Option<String>,
    /// On a reload, the newest backend session of the window's entries: the
    /// chat had a backend session before this one (`None`: its first, or a
    /// log whose entries name none, as an import's).
    pub previous_session: Option<Vec<u16>>,
    /// The recall found the search index too far behind the log, its file
    /// too large to read within the turn, or in use by another thread, and
    /// recalled nothing: [`ChatStore::warm_index`] after the turn lets the
    /// next reload recall.
    pub index_behind: bool,
}

impl ChatStore {
    /// The turn's prompt from the chat's files. `request` is the builder's
    /// request without its log, summary and reload flag (they come from the
    /// folder: whatever it holds of them is replaced).
    pub fn prepare_turn(
        &self,
        mut request: PromptRequest,
        files: &TurnFiles,
    ) -> Result<PreparedTurn, CoreError> {
        // Held over the whole turn: a forget between the log's read and the
        // summary's write would otherwise see its text written back.
        let _lock = self.lock_shared()?;
        let now_ms = files.now_ms.unwrap_or_else(|| clock_ms() as i64);
        // Each entry masked whole as it is read, then cut.
        let shown = request
            .reload_entry_count()
            .max(request.refresh_entry_count());
        let window = files.window.max(TURN_WINDOW).max(shown);
        let (tail, reload) = self.read_turn_window(window, request.current_session.as_deref())?;
        let tail = self.uncrowded(tail, window, shown)?;
        let refresh = match &files.refresh_entry {
            Some(entry) => match self.take_refresh(
                &tail.entries,
                request.current_session.as_deref(),
                reload,
                entry,
            )? {
                RefreshDecision::Refresh(id) => Some(id),
                RefreshDecision::None => None,
            },
            None => None,
        };
        let previous_session = if reload {
            tail.entries
                .iter()
                .rev()
                .find_map(|entry| entry.session.clone().filter(|session| !session.is_empty()))
        } else {
            None
        };
        // The lines of the entries a reload's excerpt shows (the last
        // non-tool ones; the tail read gives each entry's line start): its
        // recall leaves them out unread (the builder would pass over them).
        let mut shown_lines: Vec<u64> = tail
            .entries
            .iter()
            .zip(&tail.starts)
            .rev()
            .filter(|(entry, _)| entry.role != Role::Tool)
            .take(request.reload_entry_count())
            .map(|(_, &start)| start)
            .collect();
        shown_lines.sort_unstable();
        // The backend's tool entries are searched and recalled, never shown
        // in the excerpt or the summary.
        let entries: Vec<LogEntry> = tail
            .entries
            .into_iter()
            .filter(|entry| entry.role != Role::Tool)
            .collect();
        let summary = if reload || refresh.is_some() {
            let summary = SummaryRequest {
                entries: Some(entries.clone()),
                state: Some(self.read_memory_state()?),
                current_session: request.current_session.clone(),
                now_ms: Some(now_ms as f64),
                max_chars: files.summary_max_chars,
                ..SummaryRequest::default()
            }
            .rebuild()?;
            // Masked before it is stored or sent: the memory state can hold
            // what the log masks.
            let summary = self.masker.mask(&summary);
            self.replace_summary_masked(&summary)?;
            Some(summary)
        } else {
            None
        };
        let mut index_behind = false;
        if reload && !request.legacy_layout {
            match self.recall(&request, now_ms, &files.zone, shown_lines) {
                Some(recalled) => request.recalled = recalled,
                None => index_behind = true,
            }
        }
        request.reload = reload;
        request.refresh = refresh.is_some();
        request.log_entries = Some(entries);
        request.log_path = None;
        request.continuity_summary = summary;
        let report = request.build()?;
        self.replace_last_prompt(&bounded_last_prompt(
            &report.prompt,
            files.last_prompt_max_chars,
        ))?;
        Ok(PreparedTurn {
            report,
            reload,
            refresh,
            previous_session,
            index_behind,
        })
    }

    /// The turn's window, read again [`TOOL_CROWDED_FACTOR`] times as long
    /// when the backend's tool entries leave fewer than `shown` others in
    /// it (a turn of many tool calls): the excerpt keeps its entries. The
    /// reload decision stands (a longer window can only find more of the
    /// session, and the shorter one already decided).
    fn uncrowded(&self, tail: LogTail, window: usize, shown: usize) -> Result<LogTail, CoreError> {
        let tools = tail
            .entries
            .iter()
            .filter(|entry| entry.role == Role::Tool)
            .count();
        if tools == 0 || tail.entries.len() < window || tail.entries.len() - tools >= shown {
            return Ok(tail);
        }
        let longer = window.saturating_mul(TOOL_CROWDED_FACTOR);
        Ok(self.read_turn_window(longer, None)?.0)
    }

    /// The recall block's candidates on a reload: the log searched for the
    /// live message (its first [`RECALL_QUERY_MAX_CHARS`] units) through
    /// the folder's index, best first, each entry re-read from the log by
    /// the search, masked whole, then cut to at most an entry's shown length
    /// around its best match (an entry the excerpt shows is known by its
    /// id, or its role, text and ts, and left out by the builder; the
    /// excerpt's own lines, `shown_lines`, are not even read). Enough hits
    /// that those the excerpt shows can be passed over, at most the
    /// search's [`MAX_LIMIT`]. A search that fails (an
    /// index that cannot be written or is refused) recalls nothing: the
    /// turn's prompt never fails for it. `None` when the index lags the log
    /// by more than [`RECALL_MAX_INDEX_BYTES`] (nothing recalled either).
    /// The live message's time words are read at the turn's time `now_ms`
    /// in `zone` ("what did we decide yesterday" lifts yesterday's entries).
    fn recall(
        &self,
        request: &PromptRequest,
        now_ms: i64,
        zone: &Zone,
        shown_lines: Vec<u64>,
    ) -> Option<Vec<RecallHit>> {
        let wanted = request.recall_entry_count();
        if wanted == 0 {
            return Some(Vec::new());
        }
        let options = SearchOptions {
            limit: wanted
                .saturating_add(request.reload_entry_count())
                .saturating_add(2)
                .min(MAX_LIMIT),
            // At most an entry's shown length, around the best match: the
            // hits' texts held at once stay bounded (a log line can be 8 MiB,
            // and a hostile log can make every hit one), and a long entry
            // shows the part the live message asked about.
            excerpt_chars: DEFAULT_MAX_ENTRY_CHARS,
            links: Links::Refuse,
            index_budget: Some(RECALL_MAX_INDEX_BYTES),
            now_ms: Some(now_ms),
            zone: zone.clone(),
            known_lines: shown_lines,
        };
        // A live message is never cut and can be megabytes: its start is
        // the query, so that what the search spends on it stays bounded.
        let live = &request.user_message;
        let query = &live[..live.len().min(RECALL_QUERY_MAX_CHARS)];
        let hits = match self.search_within(query, &options) {
            Ok(Some(hits)) => hits,
            Ok(None) => return None,
            Err(_) => return Some(Vec::new()),
        };
        // Masked whole by the search, then cut to the excerpt.
        let recalled = hits
            .into_iter()
            .map(|hit| RecallHit {
                entry: LogEntry {
                    text: shown_text(&hit.entry.text, Some(DEFAULT_MAX_ENTRY_CHARS)).into_owned(),
                    ..hit.entry
                },
                line: hit.line,
            })
            .collect();
        Some(recalled)
    }
}

/// The text for `last-injected-preprompt.txt`: the prompt, or (when a huge
/// live message makes it longer than `limit`) its first `limit` units, a
/// surrogate pair never split, and a line saying how much is left out.
pub fn bounded_last_prompt(prompt: &[u16], limit: Option<usize>) -> Vec<u16> {
    let Some(limit) = limit.filter(|&limit| prompt.len() > limit) else {
        return prompt.to_vec();
    };
    let mut cut = limit;
    if cut > 0 && (0xd800..=0xdbff).contains(&prompt[cut - 1]) {
        cut -= 1;
    }
    let mut kept = prompt[..cut].to_vec();
    let note = format!(
        "\n[… {} more characters of the live message, not kept in this file]\n",
        prompt.len() - cut
    );
    kept.extend(note.encode_utf16());
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(text: &str) -> Vec<u16> {
        text.encode_utf16().collect()
    }

    #[test]
    fn a_long_prompt_is_cut_whole_pairs_and_says_how_much_is_left_out() {
        assert_eq!(bounded_last_prompt(&u("short"), Some(10)), u("short"));
        assert_eq!(bounded_last_prompt(&u("short"), None), u("short"));
        let cut = bounded_last_prompt(&u("abcdef"), Some(4));
        assert_eq!(
            String::from_utf16_lossy(&cut),
            "abcd\n[… 2 more characters of the live message, not kept in this file]\n"
        );
        // "ab😀cd": the pair at 2..4 is not split at a limit of 3.
        let cut = bounded_last_prompt(&u("ab😀cd"), Some(3));
        assert!(String::from_utf16(&cut).is_ok());
        assert!(String::from_utf16_lossy(&cut).starts_with("ab\n[… 4 more"));
    }
}
