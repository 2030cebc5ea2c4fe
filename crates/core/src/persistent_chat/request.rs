//! The builders' inputs as a caller gives them (the JS params, field for
//! field) and the policy that turns them into the algorithms' params:
//!
//! - data wins over a path: `entries`/`logEntries` over `logPath`, `state`
//!   over `statePath`;
//! - a log or state file that does not exist yet (the first run) reads as
//!   empty; any other file error is an error;
//! - only the end of the log is read: as many entries as the builder can use;
//! - `now` defaults to the clock;
//! - a fenced reload shows the best few of the `recalled` entries given
//!   (`recallEntries`, default 8) that the excerpt does not show; the
//!   builder never searches a log for them (the chat store's
//!   `prepare_turn` does, and gives them here);
//! - a `maxChars` or `maxEntryChars` that is absent or `NaN` takes the
//!   default, `<= 0` or `Infinity` means no cap; entry counts are clamped,
//!   `NaN` is the default.
//!
//! The binding only converts JS values into these requests (strictly, naming
//! a wrong field); the sync and the Promise exports then call the same
//! [`SummaryRequest::rebuild`] / [`PromptRequest::build`], the latter on the
//! libuv thread pool, since that is where the files are read.

use std::path::{Path, PathBuf};

use super::fs::Links;
use super::log::{read_log_tail_or_empty_with_links, LogEntry, LogTail};
use super::prompt::{
    build_injected_prompt_with_recall, log_entries_to_read, Fence, Nonce, PromptParams,
    PromptReport, Recall, RecallHit, TurnMetadata, DEFAULT_CONTINUOUS_ENTRIES,
    DEFAULT_MAX_ENTRY_CHARS, DEFAULT_RECALL_ENTRIES, DEFAULT_REFRESH_ENTRIES,
    DEFAULT_RELOAD_ENTRIES, MAX_CONTINUOUS_ENTRIES, MAX_RECALL_ENTRIES, NONCE_MAX_DIGITS,
    NONCE_MIN_DIGITS,
};
use super::state::{read_state_file_or_empty_with_links, MemoryState};
use super::summary::{
    rebuild_continuity_summary, SummaryParams, DEFAULT_SUMMARY_MAX_CHARS, SUMMARY_LOG_ENTRIES,
};
use crate::error::CoreError;

/// `rebuildPersistentChatContinuitySummary`'s params.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SummaryRequest {
    pub entries: Option<Vec<LogEntry>>,
    pub log_path: Option<PathBuf>,
    pub state: Option<MemoryState>,
    pub state_path: Option<PathBuf>,
    pub current_session: Option<Vec<u16>>,
    /// Epoch milliseconds; `None`: the clock.
    pub now_ms: Option<f64>,
    /// As given: `None` or `NaN` for the default.
    pub max_chars: Option<f64>,
    /// Whether `log_path` and `state_path` may be links (`refuseLinks`).
    pub links: Links,
}

impl SummaryRequest {
    /// The continuity summary; reads the files the request names.
    pub fn rebuild(self) -> Result<Vec<u16>, CoreError> {
        let entries = log_tail_with_links(
            self.entries,
            self.log_path.as_deref(),
            SUMMARY_LOG_ENTRIES,
            self.links,
        )?
        .entries;
        let state = match (self.state, &self.state_path) {
            (Some(state), _) => state,
            (None, Some(path)) => read_state_file_or_empty_with_links(path, self.links)?,
            (None, None) => MemoryState::default(),
        };
        Ok(rebuild_continuity_summary(&SummaryParams {
            entries,
            state,
            current_session: self.current_session,
            now_ms: self.now_ms.unwrap_or_else(clock_ms),
            max_chars: char_budget(self.max_chars, Some(DEFAULT_SUMMARY_MAX_CHARS))
                .unwrap_or(usize::MAX),
        }))
    }
}

/// `buildPersistentChatInjectedPrompt(Report)`'s params.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PromptRequest {
    pub user_message: Vec<u16>,
    pub reload: bool,
    /// Not a reload, but the backend compacted its context since its last
    /// turn: the summary and the last `refresh_entries` entries again.
    pub refresh: bool,
    pub current_session: Option<Vec<u16>>,
    pub turn_metadata: Option<TurnMetadata>,
    pub continuity_summary: Option<Vec<u16>>,
    pub log_entries: Option<Vec<LogEntry>>,
    pub log_path: Option<PathBuf>,
    /// As given: `None` or `NaN` for the default; clamped to `0..=2`.
    pub continuous_entries: Option<f64>,
    /// As given: `None` or `NaN` for the default; at least 0.
    pub reload_entries: Option<f64>,
    /// As given: `None` or `NaN` for [`DEFAULT_REFRESH_ENTRIES`]; at least 0.
    pub refresh_entries: Option<f64>,
    /// As given: `None` or `NaN` for no cap, as `<= 0` and `Infinity`.
    pub max_chars: Option<f64>,
    /// As given: `None` or `NaN` for [`DEFAULT_MAX_ENTRY_CHARS`]; `<= 0` and
    /// `Infinity`: no cap.
    pub max_entry_chars: Option<f64>,
    /// As given: the caller's nonce, checked by [`PromptRequest::build`].
    pub nonce: Option<Vec<u16>>,
    /// Today's layout, without a nonce.
    pub legacy_layout: bool,
    /// Entries recalled on a fenced reload: `None` for
    /// [`DEFAULT_RECALL_ENTRIES`], 0 for none; clamped to
    /// [`MAX_RECALL_ENTRIES`] (the binding refuses more).
    pub recall_entries: Option<usize>,
    /// Candidates for the recall block, best first, each with its log line
    /// (found in the log for the live message by the caller).
    pub recalled: Vec<RecallHit>,
    /// The backend can call `chat_log_search` (see [`Recall`]).
    pub log_search_tool: bool,
}

impl PromptRequest {
    /// How many entries a reload's excerpt shows at most (`reloadEntries`
    /// with its default and clamp).
    pub fn reload_entry_count(&self) -> usize {
        clamped_count(self.reload_entries, DEFAULT_RELOAD_ENTRIES, usize::MAX)
    }

    /// How many entries a refresh shows at most (`refreshEntries` with its
    /// default).
    pub fn refresh_entry_count(&self) -> usize {
        clamped_count(self.refresh_entries, DEFAULT_REFRESH_ENTRIES, usize::MAX)
    }

    /// How many entries a fenced reload recalls at most.
    pub fn recall_entry_count(&self) -> usize {
        self.recall_entries
            .unwrap_or(DEFAULT_RECALL_ENTRIES)
            .min(MAX_RECALL_ENTRIES)
    }

    /// The prompt and its report; reads the end of the log the request names.
    pub fn build(self) -> Result<PromptReport, CoreError> {
        let fence = fence(self.nonce.as_deref(), self.legacy_layout)?;
        let continuous_entries = clamped_count(
            self.continuous_entries,
            DEFAULT_CONTINUOUS_ENTRIES,
            MAX_CONTINUOUS_ENTRIES,
        );
        let reload_entries = self.reload_entry_count();
        let refresh_entries = self.refresh_entry_count();
        let recall = Recall {
            entries: self.recall_entry_count(),
            hits: self.recalled,
            log_search_tool: self.log_search_tool,
        };
        let tail = log_tail(
            self.log_entries,
            self.log_path.as_deref(),
            log_entries_to_read(self.reload, continuous_entries, reload_entries)
                .max(refresh_entries.saturating_mul(2).saturating_add(1)),
        )?;
        build_injected_prompt_with_recall(
            &PromptParams {
                user_message: self.user_message,
                reload: self.reload,
                current_session: self.current_session,
                turn_metadata: self.turn_metadata,
                continuity_summary: self.continuity_summary,
                log_entries: tail.entries,
                skipped_log_lines: tail.skipped_lines,
                continuous_entries,
                reload_entries,
                refresh: self.refresh,
                refresh_entries,
                max_chars: char_budget(self.max_chars, None),
                max_entry_chars: char_budget(self.max_entry_chars, Some(DEFAULT_MAX_ENTRY_CHARS)),
                fence,
            },
            &recall,
        )
    }
}

/// How the prompt is fenced: `nonce` and `legacyLayout` as given.
fn fence(nonce: Option<&[u16]>, legacy_layout: bool) -> Result<Fence, CoreError> {
    match (nonce, legacy_layout) {
        (None, false) => Ok(Fence::Drawn),
        (None, true) => Ok(Fence::Legacy),
        (Some(_), true) => Err(CoreError::OutOfRange {
            message: "The value of \"params.nonce\" is out of range. It must be absent with \"params.legacyLayout\" (a legacy prompt has no nonce).".into(),
        }),
        (Some(text), false) => Nonce::parse(text).map(Fence::Given).ok_or_else(|| {
            let shown: String = String::from_utf16_lossy(text).chars().take(80).collect();
            CoreError::OutOfRange {
                message: format!(
                    "The value of \"params.nonce\" is out of range. It must be {NONCE_MIN_DIGITS} to {NONCE_MAX_DIGITS} lowercase hex digits. Received '{shown}'"
                ),
            }
        }),
    }
}

/// The given entries, else the last `limit` of the log at `path` (none for
/// a file that does not exist yet), else none.
fn log_tail(
    entries: Option<Vec<LogEntry>>,
    path: Option<&Path>,
    limit: usize,
) -> Result<LogTail, CoreError> {
    log_tail_with_links(entries, path, limit, Links::Follow)
}

/// [`log_tail`], refusing a link at `path` when `links` says so.
fn log_tail_with_links(
    entries: Option<Vec<LogEntry>>,
    path: Option<&Path>,
    limit: usize,
    links: Links,
) -> Result<LogTail, CoreError> {
    match (entries, path) {
        (Some(entries), _) => Ok(LogTail {
            entries,
            ..LogTail::default()
        }),
        (None, Some(path)) => read_log_tail_or_empty_with_links(path, limit, links),
        (None, None) => Ok(LogTail::default()),
    }
}

/// A `maxChars` as a unit count: `None` for no cap (`Infinity`, or `<= 0` as
/// in OpenClaw's caps); absent or `NaN` give `default`.
fn char_budget(value: Option<f64>, default: Option<usize>) -> Option<usize> {
    match value {
        None => default,
        Some(number) if number.is_nan() => default,
        Some(number) if number <= 0.0 || number.is_infinite() => None,
        Some(number) => Some(number.min(usize::MAX as f64) as usize),
    }
}

/// A count such as `reloadEntries`, clamped to `0..=max`; absent or `NaN`
/// give `default`; fractions round down.
fn clamped_count(value: Option<f64>, default: usize, max: usize) -> usize {
    match value {
        Some(number) if !number.is_nan() => number.clamp(0.0, max as f64) as usize,
        _ => default,
    }
}

/// Now, in epoch milliseconds (0 on a clock set before 1970).
pub(crate) fn clock_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |elapsed| elapsed.as_millis() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budgets_and_counts_follow_the_js_rules() {
        assert_eq!(char_budget(None, Some(6000)), Some(6000));
        assert_eq!(char_budget(Some(f64::NAN), Some(6000)), Some(6000));
        assert_eq!(char_budget(Some(0.0), Some(6000)), None);
        assert_eq!(char_budget(Some(-3.0), Some(6000)), None);
        assert_eq!(char_budget(Some(f64::INFINITY), Some(6000)), None);
        assert_eq!(char_budget(Some(12.9), None), Some(12));
        assert_eq!(clamped_count(None, 2, 2), 2);
        assert_eq!(clamped_count(Some(f64::NAN), 25, usize::MAX), 25);
        assert_eq!(clamped_count(Some(-1.0), 2, 2), 0);
        assert_eq!(clamped_count(Some(7.0), 2, 2), 2);
        assert_eq!(
            clamped_count(Some(f64::INFINITY), 25, usize::MAX),
            usize::MAX
        );
    }

    #[test]
    fn data_wins_over_a_path_and_a_missing_file_is_empty() {
        let missing = Path::new("/definitely/not/here.jsonl");
        let given = vec![super::super::log::bare_entry(
            super::super::log::Role::User,
            "hi",
        )];
        assert_eq!(
            log_tail(Some(given.clone()), Some(missing), 5)
                .unwrap()
                .entries,
            given
        );
        assert_eq!(
            log_tail(None, Some(missing), 5).unwrap(),
            LogTail::default()
        );
        assert_eq!(log_tail(None, None, 5).unwrap(), LogTail::default());
        let not_a_file = log_tail(None, Some(Path::new("/")), 5).unwrap_err();
        assert_eq!(not_a_file.code(), "ENOTREGULAR");
    }
}
