//! The refresh mark: the backend compacted its context (the plugin saw a
//! signal of it), so the next turn to that backend session restates the
//! summary and the last entries once ([`PromptMode::Refresh`]).
//!
//! The mark is a small file of the folder ([`REFRESH_FILE`]), replaced
//! whole and synced (the file, then the folder): a compaction seen just
//! before a power cut or a gateway restart still refreshes the next turn.
//! It is consumed by the log itself, so that a process that dies between
//! any two steps neither loses the refresh nor sends it twice:
//!
//! 1. the turn that refreshes writes into the mark the id of the user entry
//!    it is about to append (`turn`), synced, then builds its prompt;
//! 2. the user entry is appended (synced) before the turn is dispatched:
//!    from then on the mark counts as consumed, whether or not it is still
//!    there;
//! 3. the mark is removed ([`ChatStore::clear_refresh`]), a tidy-up only.
//!
//! A process that dies before 2 dispatched nothing: the next turn finds no
//! entry with that id and refreshes. One that dies after 2 left the entry:
//! the next turn finds it and removes the mark.
//!
//! The usage mark ([`USAGE_FILE`]) keeps the last context size the backend
//! reported (`usage_update.used`) for its session: a drop by more than half
//! at the next report is a compaction too.
//!
//! [`PromptMode::Refresh`]: crate::persistent_chat::prompt::PromptMode::Refresh

use super::entry_json::value_json;
use super::replace::replace_file_synced;
use super::sys::Access;
use super::ChatStore;
use crate::error::CoreError;
use crate::persistent_chat::fs::read_at_most;
use crate::persistent_chat::json::{self, Json};
use crate::persistent_chat::log::LogEntry;

/// The refresh mark's file in the chat folder.
pub const REFRESH_FILE: &str = "refresh-pending.json";
/// The last reported context size of the chat's backend session.
pub const USAGE_FILE: &str = "backend-usage.json";
/// OpenClaw's session row as the last turn saw it (its id and start):
/// a row started anew since is a session the user (or the gateway's reset
/// policy) started, not one the backend lost.
pub const SESSION_ROW_FILE: &str = "openclaw-session.json";
/// Each of these files is a few hundred bytes; a larger one is not ours.
const MAX_MARK_BYTES: u64 = 64 * 1024;

/// A compaction the plugin saw, not yet restated to the backend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefreshMark {
    /// 16 hex digits, drawn for each mark.
    pub id: String,
    /// The backend session that compacted.
    pub session: Vec<u16>,
    /// The signal that showed it (`tool_call`, `agent_text`, `usage_drop`…).
    pub signal: String,
    /// The id of the user entry of the turn that restates it, once a turn
    /// took it (see the module header).
    pub turn: Option<Vec<u16>>,
}

/// What a turn does about the mark (see [`ChatStore::take_refresh`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RefreshDecision {
    /// Restate: the mark's id (for [`ChatStore::clear_refresh`]).
    Refresh(String),
    /// Nothing pending for this turn.
    None,
}

/// What [`ChatStore::note_usage`] found.
#[derive(Debug, Clone, PartialEq)]
pub struct UsageNote {
    /// The size the same session reported last, if any.
    pub previous: Option<f64>,
    /// It dropped by more than half: a compaction, marked.
    pub mark: Option<String>,
}

fn text(value: &[u16]) -> Json {
    Json::String(value.to_vec())
}

fn ascii(value: &str) -> Json {
    Json::String(key(value))
}

fn key(name: &str) -> Vec<u16> {
    name.encode_utf16().collect()
}

impl RefreshMark {
    fn to_json(&self) -> Vec<u8> {
        let mut members = vec![
            (key("id"), ascii(&self.id)),
            (key("session"), text(&self.session)),
            (key("signal"), ascii(&self.signal)),
        ];
        if let Some(turn) = &self.turn {
            members.push((key("turn"), text(turn)));
        }
        let mut out = Vec::new();
        value_json(&mut out, &Json::Object(members));
        out
    }

    fn from_json(value: &Json) -> Option<RefreshMark> {
        let id = String::from_utf16(value.get("id")?.as_text()?).ok()?;
        let signal = String::from_utf16(value.get("signal")?.as_text()?).ok()?;
        Some(RefreshMark {
            id,
            session: value.get("session")?.as_text()?.to_vec(),
            signal,
            turn: value
                .get("turn")
                .and_then(Json::as_text)
                .map(<[u16]>::to_vec),
        })
    }
}

/// A signal's name as stored: ASCII letters, digits and `_`, at most 32.
fn signal_name(signal: &str) -> String {
    let name: String = signal
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
        .take(32)
        .collect();
    if name.is_empty() {
        "compaction".to_owned()
    } else {
        name
    }
}

fn draw_id() -> Result<String, CoreError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).map_err(|err| CoreError::Random {
        reason: err.to_string(),
    })?;
    Ok(format!("{:016x}", u64::from_le_bytes(bytes)))
}

impl ChatStore {
    /// Marks a compaction of `session`: its next turn restates the summary
    /// and the last entries ([`Self::take_refresh`]). A mark already there
    /// is replaced (two compactions before a turn refresh it once). Synced.
    pub fn mark_refresh(&self, session: &[u16], signal: &str) -> Result<String, CoreError> {
        let mark = RefreshMark {
            id: draw_id()?,
            session: session.to_vec(),
            signal: signal_name(signal),
            turn: None,
        };
        self.write_mark(REFRESH_FILE, &mark.to_json())?;
        Ok(mark.id)
    }

    /// The mark, if there is one. A file that is not a mark (not JSON, a
    /// field missing) reads as none; the store's file rules apply as to
    /// every file of the folder.
    pub fn read_refresh(&self) -> Result<Option<RefreshMark>, CoreError> {
        Ok(self
            .read_mark(REFRESH_FILE)?
            .as_ref()
            .and_then(RefreshMark::from_json))
    }

    /// The turn's decision, with the log `window` it read: a mark of
    /// `current_session` that no entry of the window consumed makes this
    /// turn a refresh, and the mark records `turn_entry` (the id of the
    /// user entry the turn appends next) before the prompt is built. A
    /// mark the window shows consumed, or of another session, or any mark
    /// on a reload (which restates everything anyway), is removed.
    pub(crate) fn take_refresh(
        &self,
        window: &[LogEntry],
        current_session: Option<&[u16]>,
        reload: bool,
        turn_entry: &[u16],
    ) -> Result<RefreshDecision, CoreError> {
        let Some(mark) = self.read_refresh()? else {
            return Ok(RefreshDecision::None);
        };
        let consumed = mark
            .turn
            .as_deref()
            .is_some_and(|turn| window.iter().any(|entry| entry.id.as_deref() == Some(turn)));
        let ours = current_session == Some(&mark.session[..]);
        if reload || consumed || !ours {
            self.clear_refresh(&mark.id)?;
            return Ok(RefreshDecision::None);
        }
        let taken = RefreshMark {
            turn: Some(turn_entry.to_vec()),
            ..mark
        };
        self.write_mark(REFRESH_FILE, &taken.to_json())?;
        Ok(RefreshDecision::Refresh(taken.id))
    }

    /// Removes the mark if it is still `id` (a later compaction's mark is
    /// left for its own turn). Whether it removed it.
    pub fn clear_refresh(&self, id: &str) -> Result<bool, CoreError> {
        let (folder, _lock) = self.open_shared()?;
        let Some(mark) = self.read_refresh()? else {
            return Ok(false);
        };
        if mark.id != id {
            return Ok(false);
        }
        folder
            .remove(REFRESH_FILE)
            .map_err(|err| CoreError::io(&err, "unlink", &self.path_of(REFRESH_FILE)))?;
        folder.sync()?;
        Ok(true)
    }

    /// Records the context size `used` that `session` reported at the end
    /// of a turn. When the same session reported more than twice as much
    /// before, its context was compacted: a refresh is marked
    /// ([`Self::mark_refresh`], signal `usage_drop`).
    pub fn note_usage(&self, session: &[u16], used: f64) -> Result<UsageNote, CoreError> {
        if !used.is_finite() || used < 0.0 {
            return Err(CoreError::OutOfRange {
                message: format!(
                    "The value of \"used\" is out of range. It must be a finite number >= 0. Received {used}"
                ),
            });
        }
        let previous = self.read_mark(USAGE_FILE)?.and_then(|value| {
            let same = value.get("session").and_then(Json::as_text) == Some(session);
            match value.get("used") {
                Some(Json::Number(number)) if same && number.is_finite() => Some(*number),
                _ => None,
            }
        });
        let dropped = previous.is_some_and(|previous| used * 2.0 < previous);
        let mark = if dropped {
            Some(self.mark_refresh(session, "usage_drop")?)
        } else {
            None
        };
        let note = Json::Object(vec![
            (key("session"), text(session)),
            (key("used"), Json::Number(used)),
        ]);
        let mut bytes = Vec::new();
        value_json(&mut bytes, &note);
        self.write_mark(USAGE_FILE, &bytes)?;
        Ok(UsageNote { previous, mark })
    }

    /// Records `row`, what identifies OpenClaw's session row of the chat
    /// (its id and start time, as the caller renders them), and returns the
    /// one recorded before (`None` at a chat's first turn). Written (synced)
    /// only when it changed.
    pub fn note_session_row(&self, row: &[u16]) -> Result<Option<Vec<u16>>, CoreError> {
        let previous = self.read_mark(SESSION_ROW_FILE)?.and_then(|value| {
            value
                .get("row")
                .and_then(Json::as_text)
                .map(<[u16]>::to_vec)
        });
        if previous.as_deref() != Some(row) {
            let mut bytes = Vec::new();
            value_json(&mut bytes, &Json::Object(vec![(key("row"), text(row))]));
            self.write_mark(SESSION_ROW_FILE, &bytes)?;
        }
        Ok(previous)
    }

    fn path_of(&self, name: &str) -> String {
        self.folder.join(name).to_string_lossy().into_owned()
    }

    fn write_mark(&self, name: &str, bytes: &[u8]) -> Result<(), CoreError> {
        let (folder, _lock) = self.open_shared()?;
        replace_file_synced(&folder, name, bytes)
    }

    fn read_mark(&self, name: &str) -> Result<Option<Json>, CoreError> {
        let folder = self.open()?;
        let Some((file, status, _)) = folder.open_file(name, Access::Read)? else {
            return Ok(None);
        };
        let shown = self.path_of(name);
        let Some(bytes) = read_at_most(file, status.size, MAX_MARK_BYTES, &shown)? else {
            return Ok(None);
        };
        Ok(json::parse(&bytes).ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_row_is_compared_with_the_last_one() {
        let dir = std::env::temp_dir().join(format!("occn-row-{}", crate::process_id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = ChatStore::open_folder(&dir, None).unwrap();
        let u = |s: &str| s.encode_utf16().collect::<Vec<u16>>();
        assert_eq!(store.note_session_row(&u("a|1")).unwrap(), None);
        assert_eq!(store.note_session_row(&u("a|1")).unwrap(), Some(u("a|1")));
        assert_eq!(store.note_session_row(&u("a|2")).unwrap(), Some(u("a|1")));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_mark_round_trips_and_a_signal_name_is_kept_plain() {
        let mark = RefreshMark {
            id: "0123456789abcdef".into(),
            session: vec![0x62, 0x65, 0xd800, 0x31],
            signal: signal_name("tool_call\n\"x"),
            turn: Some("t:user".encode_utf16().collect()),
        };
        assert_eq!(mark.signal, "tool_callx");
        let parsed = json::parse(&mark.to_json()).unwrap();
        assert_eq!(RefreshMark::from_json(&parsed), Some(mark));
        assert_eq!(signal_name("\n"), "compaction");
    }
}
