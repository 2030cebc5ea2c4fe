//! The memory state the Python memory script keeps beside the log.

use std::io::Read;
use std::path::Path;

use super::fields;
use super::fs::{open_state_file, Links};
use super::json::{self, Json};
use super::log::Timestamp;
use crate::error::CoreError;

/// A state file larger than this is refused rather than read into memory:
/// the real one is a few kilobytes.
pub const MAX_STATE_FILE_BYTES: u64 = 32 << 20;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct MemoryState {
    pub decisions: Vec<Vec<u16>>,
    pub guardrails: Vec<Vec<u16>>,
    pub pending_threads: Vec<Vec<u16>>,
    pub timers: Vec<Timer>,
    pub model_notes: Vec<Vec<u16>>,
    pub notes: Vec<Vec<u16>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Timer {
    pub name: Vec<u16>,
    pub status: Vec<u16>,
    /// An ISO-8601 string or an epoch number, as written.
    pub due: Option<Timestamp>,
}

impl MemoryState {
    /// The state from the memory script's JSON. Lenient inside: a member of
    /// the wrong type, or an item that is neither a string nor an object with
    /// a string `text`, is left out rather than failing the whole state.
    pub(crate) fn from_json(value: &Json) -> Result<MemoryState, &'static str> {
        if *value == Json::Null {
            return Ok(MemoryState::default());
        }
        if !matches!(value, Json::Object(_)) {
            return Err("the memory state is not a JSON object");
        }
        let items = |names| {
            value
                .first(names, array)
                .map(|list| list.iter().filter_map(item_text).collect())
                .unwrap_or_default()
        };
        Ok(MemoryState {
            decisions: items(fields::state::DECISIONS),
            guardrails: items(fields::state::GUARDRAILS),
            pending_threads: items(fields::state::PENDING_THREADS),
            timers: value
                .first(fields::state::TIMERS, array)
                .map(|list| list.iter().filter_map(Timer::from_json).collect())
                .unwrap_or_default(),
            model_notes: items(fields::state::MODEL_NOTES),
            notes: items(fields::state::NOTES),
        })
    }

    pub fn is_empty(&self) -> bool {
        *self == MemoryState::default()
    }
}

impl Timer {
    /// `{ name, status, due? }`; a bare string is a timer's name.
    fn from_json(value: &Json) -> Option<Timer> {
        if let Json::String(name) = value {
            return Some(Timer {
                name: name.clone(),
                status: Vec::new(),
                due: None,
            });
        }
        let text = |names| value.first(names, Json::as_text).map(<[u16]>::to_vec);
        Some(Timer {
            name: text(fields::timer::NAME)?,
            status: text(fields::timer::STATUS).unwrap_or_default(),
            due: value.first(fields::timer::DUE, Timestamp::from_json),
        })
    }
}

fn array(value: &Json) -> Option<&[Json]> {
    match value {
        Json::Array(items) => Some(items),
        _ => None,
    }
}

fn item_text(item: &Json) -> Option<Vec<u16>> {
    match item {
        Json::String(text) => Some(text.clone()),
        object => object
            .first(fields::state::ITEM_TEXT, Json::as_text)
            .map(<[u16]>::to_vec),
    }
}

/// Parses the state file's bytes; an empty file (one being written, or a
/// first run's placeholder) is an empty state.
pub fn parse_state_json(bytes: &[u8]) -> Result<MemoryState, String> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(MemoryState::default());
    }
    let value = json::parse(bytes)
        .map_err(|err| format!("invalid JSON at byte {}: {}", err.offset, err.reason))?;
    MemoryState::from_json(&value).map_err(str::to_owned)
}

/// Reads the memory state at `path`; a missing file is an empty state.
///
/// Errors carry the path and a code like every file error: `ENOTREGULAR` for
/// a FIFO or directory, `EFBIG` past [`MAX_STATE_FILE_BYTES`], and `EINVAL`
/// (syscall `read`) when the file is not valid state JSON. A corrupt state
/// is reported, not read as empty: silently forgetting every decision and
/// guardrail would be worse than a visible error.
pub fn read_state_file_or_empty(path: &Path) -> Result<MemoryState, CoreError> {
    read_state_file_or_empty_with_links(path, Links::Follow)
}

/// [`read_state_file_or_empty`], refusing a symlink or a hard-linked file at
/// `path` when `links` is [`Links::Refuse`] (`ENOTREGULAR`).
pub fn read_state_file_or_empty_with_links(
    path: &Path,
    links: Links,
) -> Result<MemoryState, CoreError> {
    let shown = path.to_string_lossy();
    let (file, metadata) = match open_state_file(path, links) {
        Err(CoreError::Io { code: "ENOENT", .. }) => return Ok(MemoryState::default()),
        other => other?,
    };
    let file_error = |code: &'static str, reason: String| CoreError::Io {
        code,
        syscall: "read",
        path: shown.to_string(),
        reason,
    };
    if metadata.len() > MAX_STATE_FILE_BYTES {
        return Err(file_error("EFBIG", "memory state file too large".into()));
    }
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    file.take(MAX_STATE_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| CoreError::io(&err, "read", &shown))?;
    if bytes.len() as u64 > MAX_STATE_FILE_BYTES {
        return Err(file_error("EFBIG", "memory state file too large".into()));
    }
    parse_state_json(&bytes).map_err(|reason| {
        file_error(
            "EINVAL",
            format!("memory state file is not valid: {reason}"),
        )
    })
}
