//! `rebuildPersistentChatContinuitySummary`: the contents of
//! `continuity-summary.txt`, state and memory only, never a transcript.
//!
//! Output (sections in this order, one blank line between them, no trailing
//! newline; a section with no items is left out, except the first):
//!
//! ```text
//! Current thread / pending next action:
//! - Latest user request: <newest user entry's text, on one line>
//! - Latest assistant status: <status of the reply to that request>
//! - Actionable notes: <the one note>        (or "- Actionable notes:" then "  - <note>" lines)
//!
//! Active decisions and guardrails:
//! - <decision>                              (decisions, then guardrails)
//!
//! Pending threads / open topics:
//! - <thread>
//!
//! Timer status:
//! - <name>: <status> (due <due>)            (see `timer_line` for due/overdue)
//!
//! Model capability notes:
//! - <note>
//! ```
//!
//! Fixed wordings: no user entry yet gives `- Latest user request: none yet`;
//! the status line reads the reply's `status` (`ok`, `ACP_TURN_FAILED`, …),
//! `replied (no status recorded)` for a reply without one,
//! `awaiting reply to the latest request` when the newest request has no
//! reply, `no turns yet` when there is neither. The notes line is left out
//! when there are no notes. Every item is one line (whitespace runs, line
//! breaks included, collapse to one space) of at most [`ITEM_MAX_CHARS`]
//! units, cut with `…` at a grapheme boundary. Under `max_chars` each section
//! keeps its first items and ends with `- … (N more)` (see `budget`).

use super::budget::{fit_sections, ListSection};
use super::log::{LogEntry, Role, Timestamp};
use super::state::{MemoryState, Timer};
use super::status::is_ok_status;
use super::text::{collapse_whitespace, cut_with_ellipsis, one_line, push_str};
use crate::utf16::encode;

pub const DEFAULT_SUMMARY_MAX_CHARS: usize = 6000;
/// How many log entries a builder given a log path reads: the summary looks
/// only at the newest user entry and what follows it.
pub const SUMMARY_LOG_ENTRIES: usize = 200;
/// The longest a single item's text may be, in UTF-16 units.
pub const ITEM_MAX_CHARS: usize = 500;

pub const CURRENT_THREAD_HEADER: &str = "Current thread / pending next action:";
pub const DECISIONS_HEADER: &str = "Active decisions and guardrails:";
pub const PENDING_THREADS_HEADER: &str = "Pending threads / open topics:";
pub const TIMERS_HEADER: &str = "Timer status:";
pub const MODEL_NOTES_HEADER: &str = "Model capability notes:";

pub const LATEST_REQUEST_LABEL: &str = "- Latest user request: ";
pub const LATEST_STATUS_LABEL: &str = "- Latest assistant status: ";
pub const NOTES_LABEL: &str = "- Actionable notes:";

/// A timer that came due less than this long ago shows as "due now".
const DUE_NOW_WINDOW_MS: f64 = 60_000.0;

#[derive(Debug, Clone, PartialEq)]
pub struct SummaryParams {
    /// Log entries, oldest first (as `read_log_tail` gives them).
    pub entries: Vec<LogEntry>,
    pub state: MemoryState,
    /// The backend session now in use; replies from other sessions that
    /// failed happened before a reload.
    pub current_session: Option<Vec<u16>>,
    /// "Now" in epoch milliseconds, for timers.
    pub now_ms: f64,
    pub max_chars: usize,
}

/// The continuity summary for `params`; the same params give the same units.
pub fn rebuild_continuity_summary(params: &SummaryParams) -> Vec<u16> {
    let state = &params.state;
    let decisions: Vec<&Vec<u16>> = state.decisions.iter().chain(&state.guardrails).collect();
    let optional = [
        list_section(DECISIONS_HEADER, &decisions),
        list_section(
            PENDING_THREADS_HEADER,
            &state.pending_threads.iter().collect::<Vec<_>>(),
        ),
        timer_section(&state.timers, params.now_ms),
        list_section(
            MODEL_NOTES_HEADER,
            &state.model_notes.iter().collect::<Vec<_>>(),
        ),
    ];
    let mut sections = vec![current_thread_section(params)];
    sections.extend(
        optional
            .into_iter()
            .filter(|section| !section.items.is_empty()),
    );
    fit_sections(&sections, params.max_chars).text
}

fn current_thread_section(params: &SummaryParams) -> ListSection {
    let turn = latest_turn(&params.entries, params.current_session.as_deref());
    let mut items = vec![
        labelled(LATEST_REQUEST_LABEL, &turn.request_text()),
        labelled(LATEST_STATUS_LABEL, &turn.status_text()),
    ];
    items.extend(notes_lines(&params.state.notes));
    ListSection {
        header: CURRENT_THREAD_HEADER.encode_utf16().collect(),
        items,
    }
}

/// The newest user request and the reply that counts as its status.
struct LatestTurn<'a> {
    request: Option<&'a LogEntry>,
    reply: Option<&'a LogEntry>,
}

/// The newest user entry, and the newest assistant entry after it that is
/// not a failure from before a reload. Only that turn counts: a failure of
/// an earlier turn never shows, and a request whose only reply was such a
/// stale failure stays pending.
fn latest_turn<'a>(entries: &'a [LogEntry], current_session: Option<&[u16]>) -> LatestTurn<'a> {
    let request_index = entries.iter().rposition(|entry| entry.role == Role::User);
    let after_request = match request_index {
        Some(index) => &entries[index + 1..],
        None => entries,
    };
    let reply = after_request
        .iter()
        .rev()
        .filter(|entry| entry.role == Role::Assistant)
        .find(|entry| !is_failure_from_before_reload(entry, current_session));
    LatestTurn {
        request: request_index.map(|index| &entries[index]),
        reply,
    }
}

/// A failed reply whose session is not the current one: the backend it
/// failed on is gone, so its failure says nothing about the session now.
fn is_failure_from_before_reload(entry: &LogEntry, current_session: Option<&[u16]>) -> bool {
    let failed = entry
        .status
        .as_deref()
        .is_some_and(|status| !is_ok_status(status));
    match (entry.session.as_deref(), current_session) {
        (Some(session), Some(current)) => failed && session != current,
        _ => false,
    }
}

impl LatestTurn<'_> {
    fn request_text(&self) -> Vec<u16> {
        match self.request {
            Some(entry) => non_empty_or(one_line(&entry.text, ITEM_MAX_CHARS), "(empty message)"),
            None => "none yet".encode_utf16().collect(),
        }
    }

    fn status_text(&self) -> Vec<u16> {
        let fixed = match (self.reply, self.request) {
            (Some(reply), _) => match reply.status.as_deref().map(collapse_whitespace) {
                Some(status) if !status.is_empty() => {
                    return cut_with_ellipsis(&status, ITEM_MAX_CHARS)
                }
                _ => "replied (no status recorded)",
            },
            (None, Some(_)) => "awaiting reply to the latest request",
            (None, None) => "no turns yet",
        };
        fixed.encode_utf16().collect()
    }
}

/// One note inline; several as an indented list under the label.
fn notes_lines(notes: &[Vec<u16>]) -> Vec<Vec<u16>> {
    let notes = one_line_items(&notes.iter().collect::<Vec<_>>());
    match notes.as_slice() {
        [] => Vec::new(),
        [only] => {
            let mut line = NOTES_LABEL.encode_utf16().collect::<Vec<u16>>();
            line.push(u16::from(b' '));
            line.extend_from_slice(only);
            vec![line]
        }
        many => {
            let mut lines = vec![NOTES_LABEL.encode_utf16().collect()];
            lines.extend(many.iter().map(|note| labelled("  - ", note)));
            lines
        }
    }
}

fn list_section(header: &str, items: &[&Vec<u16>]) -> ListSection {
    ListSection {
        header: header.encode_utf16().collect(),
        items: one_line_items(items)
            .iter()
            .map(|item| labelled("- ", item))
            .collect(),
    }
}

/// Items on one line each, empty ones and repeats left out, order kept.
fn one_line_items(items: &[&Vec<u16>]) -> Vec<Vec<u16>> {
    let mut seen = std::collections::HashSet::new();
    items
        .iter()
        .map(|item| one_line(item, ITEM_MAX_CHARS))
        .filter(|item| !item.is_empty() && seen.insert(item.clone()))
        .collect()
}

fn timer_section(timers: &[Timer], now_ms: f64) -> ListSection {
    let mut seen = std::collections::HashSet::new();
    ListSection {
        header: TIMERS_HEADER.encode_utf16().collect(),
        items: timers
            .iter()
            .map(|timer| timer_line(timer, now_ms))
            .filter(|line| seen.insert(line.clone()))
            .collect(),
    }
}

/// A timer that has finished keeps its status. One whose due time has
/// passed `now` shows `due now (due T)` for a minute, then `overdue (was
/// due T)`, whatever its recorded status (a stored "pending" is stale by
/// then). Otherwise `<status> (due T)`, with `pending` for a missing status.
fn timer_line(timer: &Timer, now_ms: f64) -> Vec<u16> {
    let name = non_empty_or(one_line(&timer.name, ITEM_MAX_CHARS), "(unnamed timer)");
    let status = one_line(&timer.status, ITEM_MAX_CHARS);
    let passed_for_ms = timer
        .due
        .as_ref()
        .and_then(Timestamp::epoch_ms)
        .map(|due_ms| now_ms - due_ms)
        .filter(|&passed| passed >= 0.0 && !is_finished_timer(&status));
    let (state, due_label) = match passed_for_ms {
        Some(passed) if passed < DUE_NOW_WINDOW_MS => (encode("due now"), " (due "),
        Some(_) => (encode("overdue"), " (was due "),
        None => (non_empty_or(status, "pending"), " (due "),
    };
    let mut line = labelled("- ", &name);
    push_str(&mut line, ": ");
    line.extend(state);
    if let Some(due) = &timer.due {
        push_str(&mut line, due_label);
        line.extend(due_text(due));
        push_str(&mut line, ")");
    }
    line
}

fn is_finished_timer(status: &[u16]) -> bool {
    let status = String::from_utf16_lossy(status).to_ascii_lowercase();
    matches!(
        status.as_str(),
        "done"
            | "complete"
            | "completed"
            | "fired"
            | "triggered"
            | "sent"
            | "finished"
            | "cancelled"
            | "canceled"
            | "dismissed"
            | "expired"
            | "stopped"
    )
}

fn due_text(due: &Timestamp) -> Vec<u16> {
    one_line(&due.display(), ITEM_MAX_CHARS)
}

fn labelled(label: &str, text: &[u16]) -> Vec<u16> {
    let mut line: Vec<u16> = label.encode_utf16().collect();
    line.extend_from_slice(text);
    line
}

fn non_empty_or(text: Vec<u16>, fallback: &str) -> Vec<u16> {
    if text.is_empty() {
        fallback.encode_utf16().collect()
    } else {
        text
    }
}
