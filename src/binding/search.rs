//! The search exports' arguments (`searchPersistentChatLog`,
//! `readPersistentChatLogWindow`) and their results as JS objects.

use napi::bindgen_prelude::Unknown;
use napi::ValueType;
use napi_derive::napi;
use openclaw_context_core::persistent_chat::Links;
use openclaw_context_core::search::{
    SearchHit, SearchOptions, Window, WindowAt, WindowEntry, Zone, DEFAULT_WINDOW_ENTRY_CHARS,
    MAX_LIMIT, MAX_OFFSET_MINUTES, MAX_WINDOW, MAX_WINDOW_ENTRY_CHARS,
};

use super::persistent_chat::{flag, links, named_now_ms, TimestampValue};
use super::text::Utf16String;
use super::{Failure, Js};
use openclaw_context_core::persistent_chat::log::Timestamp;

/// A search hit: the entry's fields, its line, its score, and an excerpt.
#[napi(object, object_from_js = false)]
pub struct PersistentChatLogHit {
    #[napi(ts_type = "'user' | 'assistant' | 'system' | 'tool'")]
    pub role: String,
    /// At most `excerptChars` UTF-16 units of the entry's text around the
    /// best match (cut on grapheme boundaries, `…` where text was left out).
    #[napi(ts_type = "string")]
    pub text: Utf16String,
    #[napi(ts_type = "string | number")]
    pub ts: Option<TimestampValue>,
    #[napi(ts_type = "string")]
    pub session: Option<Utf16String>,
    #[napi(ts_type = "string")]
    pub status: Option<Utf16String>,
    #[napi(ts_type = "string")]
    pub id: Option<Utf16String>,
    /// The entry's 1-based line number in the log.
    pub line: f64,
    /// Higher is better (BM25; comparable within one search only).
    pub score: f64,
}

/// An entry of a window read, with its line.
#[napi(object, object_from_js = false)]
pub struct PersistentChatLogWindowEntry {
    #[napi(ts_type = "'user' | 'assistant' | 'system' | 'tool'")]
    pub role: String,
    /// The entry's text, masked, then cut to `at.maxEntryChars` UTF-16
    /// units (default 8,000) as the prompt builders cut it.
    #[napi(ts_type = "string")]
    pub text: Utf16String,
    #[napi(ts_type = "string | number")]
    pub ts: Option<TimestampValue>,
    #[napi(ts_type = "string")]
    pub session: Option<Utf16String>,
    #[napi(ts_type = "string")]
    pub status: Option<Utf16String>,
    #[napi(ts_type = "string")]
    pub id: Option<Utf16String>,
    /// The entry's 1-based line number in the log.
    pub line: f64,
}

fn ts(ts: Option<Timestamp>) -> Option<TimestampValue> {
    ts.map(|ts| match ts {
        Timestamp::Text(text) => napi::Either::A(text.into()),
        Timestamp::Number(number) => napi::Either::B(number),
    })
}

impl From<SearchHit> for PersistentChatLogHit {
    fn from(hit: SearchHit) -> Self {
        let entry = hit.entry;
        PersistentChatLogHit {
            role: entry.role.as_str().to_owned(),
            text: entry.text.into(),
            ts: ts(entry.ts),
            session: entry.session.map(Into::into),
            status: entry.status.map(Into::into),
            id: entry.id.map(Into::into),
            line: hit.line as f64,
            score: hit.score,
        }
    }
}

impl From<WindowEntry> for PersistentChatLogWindowEntry {
    fn from(item: WindowEntry) -> Self {
        let entry = item.entry;
        PersistentChatLogWindowEntry {
            role: entry.role.as_str().to_owned(),
            text: entry.text.into(),
            ts: ts(entry.ts),
            session: entry.session.map(Into::into),
            status: entry.status.map(Into::into),
            id: entry.id.map(Into::into),
            line: item.line as f64,
        }
    }
}

/// The common file options: `refuseLinks`, `emptyIfMissing`.
pub struct FileOptions {
    pub links: Links,
    pub empty_if_missing: bool,
}

/// The largest integer a JS number holds exactly (`Number.MAX_SAFE_INTEGER`):
/// a line number's bound, as a `u64` so that it is the same on 32-bit targets.
pub(crate) const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// An optional integer option in `min..=max` (`undefined` → `default`);
/// anything else a `TypeError` or a `RangeError` naming it.
pub(crate) fn integer(
    value: Js<'_>,
    name: &str,
    default: u64,
    min: u64,
    max: u64,
) -> Result<u64, Failure> {
    if value.is_undefined()? {
        return Ok(default);
    }
    let number = value.number(name)?;
    if !(number.is_finite()
        && number.fract() == 0.0
        && number >= min as f64
        && number <= max as f64)
    {
        return Err(Failure::Range(format!(
            "The value of \"{name}\" is out of range. It must be an integer >= {min} and <= {max}. Received {number}"
        )));
    }
    Ok(number as u64)
}

fn file_options(options: Option<Js<'_>>) -> Result<FileOptions, Failure> {
    let Some(options) = options else {
        return Ok(FileOptions {
            links: Links::Follow,
            empty_if_missing: false,
        });
    };
    Ok(FileOptions {
        links: links(options.get("refuseLinks")?, "options.refuseLinks")?,
        empty_if_missing: flag(options.get("emptyIfMissing")?, "options.emptyIfMissing")?,
    })
}

/// `searchPersistentChatLog`'s `options`: the search's and the file's.
pub fn search_options(options: Option<Unknown>) -> Result<(SearchOptions, bool), Failure> {
    let options = match options.map(Js::from) {
        None => None,
        Some(options) => options.optional_object("options")?,
    };
    let search = search_limits(options.as_ref(), Links::Follow)?;
    let files = file_options(options)?;
    Ok((
        SearchOptions {
            links: files.links,
            ..search
        },
        files.empty_if_missing,
    ))
}

/// `ChatStore.search`'s `options` (`limit`, `excerptChars`: the store's
/// rules decide the rest).
pub fn store_search_options(options: Option<Unknown>) -> Result<SearchOptions, Failure> {
    let options = match options.map(Js::from) {
        None => None,
        Some(options) => options.optional_object("options")?,
    };
    search_limits(options.as_ref(), Links::Refuse)
}

fn search_limits(options: Option<&Js<'_>>, links: Links) -> Result<SearchOptions, Failure> {
    let Some(options) = options else {
        return Ok(SearchOptions {
            links,
            now_ms: Some(clock_ms()),
            ..SearchOptions::default()
        });
    };
    let limit = integer(
        options.get("limit")?,
        "options.limit",
        10,
        1,
        MAX_LIMIT as u64,
    )? as usize;
    let excerpt_chars = integer(
        options.get("excerptChars")?,
        "options.excerptChars",
        600,
        1,
        1 << 20,
    )? as usize;
    let now_ms = named_now_ms(options.get("now")?, "options.now")?
        .map_or_else(clock_ms, |ms| ms.floor() as i64);
    Ok(SearchOptions {
        limit,
        excerpt_chars,
        links,
        index_budget: None,
        now_ms: Some(now_ms),
        zone: time_zone(options.get("timeZone")?, "options.timeZone")?,
        ..SearchOptions::default()
    })
}

/// The clock, in epoch milliseconds: a search's `now` when the caller gives
/// none (read here, never in the ranking).
fn clock_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis() as i64)
}

/// A `timeZone` option: an IANA name (`'Europe/Berlin'`), `'UTC'`, an
/// offset string (`'+02:00'`, `'-0530'`), or a number of minutes east of UTC
/// (an integer, at most ±1,559); `undefined` or `null`: UTC. Another type is
/// a `TypeError`, an unknown name or an offset out of range a `RangeError`,
/// each naming `name`.
pub(crate) fn time_zone(value: Js<'_>, name: &str) -> Result<Zone, Failure> {
    match value.kind()? {
        ValueType::Undefined | ValueType::Null => Ok(Zone::UTC),
        ValueType::Number => {
            let minutes = value.number(name)?;
            let in_range = minutes.fract() == 0.0 && minutes.abs() <= f64::from(MAX_OFFSET_MINUTES);
            in_range
                .then(|| Zone::fixed_minutes(minutes as i32))
                .flatten()
                .ok_or_else(|| {
                    Failure::Range(format!(
                        "The value of \"{name}\" is out of range. It must be an integer >= -{MAX_OFFSET_MINUTES} and <= {MAX_OFFSET_MINUTES} (minutes east of UTC). Received {minutes}"
                    ))
                })
        }
        ValueType::String => {
            let text = String::from_utf16_lossy(&value.string(name)?);
            Zone::parse(&text).ok_or_else(|| {
                Failure::Range(format!(
                    "The value of \"{name}\" is invalid. It must be an IANA time zone name, 'UTC' or an offset such as '+02:00'. Received '{text}'"
                ))
            })
        }
        _ => Err(Failure::Type(format!(
            "The \"{name}\" argument must be of type string or number. {}",
            value.describe()
        ))),
    }
}

/// `readPersistentChatLogWindow`'s `at` (`{ id | line, before, after,
/// maxEntryChars }`) and `options`.
pub fn window_request(
    at: Unknown,
    options: Option<Unknown>,
) -> Result<(Window, FileOptions), Failure> {
    let window = window_at(at)?;
    let options = match options.map(Js::from) {
        None => None,
        Some(options) => options.optional_object("options")?,
    };
    Ok((window, file_options(options)?))
}

/// A window's `at`: `{ id | line, before, after, maxEntryChars }`.
pub fn window_at(at: Unknown) -> Result<Window, Failure> {
    let at = Js::from(at).object("at")?;
    let id = at.get("id")?.optional_string("at.id")?;
    let line = at.get("line")?;
    let center = match (id, line.is_undefined()?) {
        (Some(id), true) => WindowAt::Id(id),
        (None, false) => WindowAt::Line(integer(line, "at.line", 1, 1, MAX_SAFE_INTEGER)?),
        _ => {
            return Err(Failure::Type(
                "The \"at\" argument must have exactly one of \"id\" (a string) and \"line\" (a number)".into(),
            ))
        }
    };
    let before = integer(at.get("before")?, "at.before", 5, 0, MAX_WINDOW as u64)? as usize;
    let after = integer(at.get("after")?, "at.after", 5, 0, MAX_WINDOW as u64)? as usize;
    let max_entry_chars = integer(
        at.get("maxEntryChars")?,
        "at.maxEntryChars",
        DEFAULT_WINDOW_ENTRY_CHARS as u64,
        1,
        MAX_WINDOW_ENTRY_CHARS as u64,
    )? as usize;
    let max_chars = at.get("maxChars")?;
    let max_chars = if max_chars.is_undefined()? {
        None
    } else {
        let most = (2 * MAX_WINDOW + 1) * MAX_WINDOW_ENTRY_CHARS;
        Some(integer(max_chars, "at.maxChars", 1, 1, most as u64)? as usize)
    };
    Ok(Window {
        at: center,
        before,
        after,
        max_entry_chars,
        max_chars,
    })
}
