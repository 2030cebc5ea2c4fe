//! A log entry, as the gateway writes it (one JSON object per line) and as
//! the builders take it.

use super::super::fields;
use super::super::json::{self, Json};
use super::super::text::js_number_to_string;
use super::super::time::{epoch_ms_from_number, format_iso_utc, parse_timestamp_ms};
use crate::utf16;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    User,
    Assistant,
    System,
    Tool,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::System => "system",
            Role::Tool => "tool",
        }
    }

    /// The role named exactly (lower case) by `text`, as the gateway writes it.
    pub fn from_text(text: &[u16]) -> Option<Role> {
        [Role::User, Role::Assistant, Role::System, Role::Tool]
            .into_iter()
            .find(|role| utf16::equals_ascii(text, role.as_str()))
    }
}

/// An entry's `ts`: kept as written, so a string shows exactly as logged.
#[derive(Debug, Clone, PartialEq)]
pub enum Timestamp {
    Text(Vec<u16>),
    Number(f64),
}

impl Timestamp {
    /// UTC epoch milliseconds; numbers below 1e11 are taken as seconds.
    pub fn epoch_ms(&self) -> Option<f64> {
        match self {
            Timestamp::Text(text) => parse_timestamp_ms(text),
            Timestamp::Number(number) => epoch_ms_from_number(*number),
        }
    }

    /// How the timestamp is shown to a model: a string as written, a
    /// number as an ISO-8601 instant (`toISOString()`), else as JS prints it.
    pub fn display(&self) -> Vec<u16> {
        match self {
            Timestamp::Text(text) => text.clone(),
            Timestamp::Number(number) => {
                let iso = epoch_ms_from_number(*number).and_then(format_iso_utc);
                iso.unwrap_or_else(|| js_number_to_string(*number))
                    .encode_utf16()
                    .collect()
            }
        }
    }

    /// A string, or a finite number; anything else counts as absent.
    pub(crate) fn from_json(value: &Json) -> Option<Timestamp> {
        match value {
            Json::String(text) => Some(Timestamp::Text(text.clone())),
            Json::Number(number) if number.is_finite() => Some(Timestamp::Number(*number)),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct LogEntry {
    pub role: Role,
    pub text: Vec<u16>,
    pub ts: Option<Timestamp>,
    pub session: Option<Vec<u16>>,
    pub status: Option<Vec<u16>>,
    pub id: Option<Vec<u16>>,
}

impl LogEntry {
    /// An entry from a parsed JSON object; `None` without a known `role` or a
    /// string `text`/`content`. Optional fields of the wrong type count as absent.
    pub(crate) fn from_json(object: &Json) -> Option<LogEntry> {
        let text = |names| object.first(names, Json::as_text).map(<[u16]>::to_vec);
        Some(LogEntry {
            role: object
                .first(fields::entry::ROLE, Json::as_text)
                .and_then(Role::from_text)?,
            text: text(fields::entry::TEXT)?,
            ts: object.first(fields::entry::TS, Timestamp::from_json),
            session: text(fields::entry::SESSION),
            status: text(fields::entry::STATUS),
            id: object.first(fields::entry::ID, id_text),
        })
    }
}

/// An entry with only a role and a text, for tests.
#[cfg(test)]
pub(crate) fn bare_entry(role: Role, text: &str) -> LogEntry {
    LogEntry {
        role,
        text: text.encode_utf16().collect(),
        ts: None,
        session: None,
        status: None,
        id: None,
    }
}

/// `String(number)` in JavaScript, as UTF-16 (for numeric ids and metadata).
pub fn js_number_text(number: f64) -> Vec<u16> {
    js_number_to_string(number).encode_utf16().collect()
}

/// Ids are strings; a numeric id is kept as JavaScript would print it.
fn id_text(value: &Json) -> Option<Vec<u16>> {
    match value {
        Json::String(text) => Some(text.clone()),
        Json::Number(number) if number.is_finite() => Some(js_number_text(*number)),
        _ => None,
    }
}

/// One line of the log (its `\n` and a trailing `\r` are allowed). `None`
/// for anything that is not a valid entry: invalid UTF-8 or JSON, no known
/// `role`, no string `text`.
pub fn parse_log_line(line: &[u8]) -> Option<LogEntry> {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    LogEntry::from_json(&json::parse(line).ok()?)
}
