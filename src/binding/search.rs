//! The search exports' arguments (`searchPersistentChatLog`,
//! `readPersistentChatLogWindow`) and their results as JS objects.

use std::fmt::Display;

use napi::ValueType;
use napi_derive::napi;
use openclaw_context_core::persistent_chat::Links;
use openclaw_context_core::search::{
    SearchHit, SearchOptions, Window, WindowAt, WindowEntry, Zone, DEFAULT_WINDOW_ENTRY_CHARS,
    MAX_LIMIT, MAX_OFFSET_MINUTES, MAX_WINDOW, MAX_WINDOW_ENTRY_CHARS,
};

use super::persistent_chat::{refuse_links, EpochMs, TimestampValue};
use super::shape::{arg, FromJs, Limit};
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
    integer_of(value.number(name)?, name, min, max)
}

/// An integer option of a shape: absent → `default`.
fn integer_or(
    number: Option<Limit>,
    name: &str,
    default: u64,
    min: u64,
    max: u64,
) -> Result<u64, Failure> {
    Limit::value(number).map_or(Ok(default), |number| integer_of(number, name, min, max))
}

/// A number that must be an integer in `min..=max`: else a `RangeError`.
fn integer_of(number: f64, name: &str, min: u64, max: u64) -> Result<u64, Failure> {
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

/// `searchPersistentChatLog`'s `options`: the search's and the file's.
pub fn search_options(
    options: Option<arg::PersistentChatSearchOptions>,
) -> Result<(SearchOptions, bool), Failure> {
    let Some(options) = options.map(|options| options.read("options")).transpose()? else {
        return Ok((unlimited(Links::Follow), false));
    };
    let links = refuse_links(options.refuse_links);
    let search = search_limits(
        options.limit,
        options.excerpt_chars,
        options.now,
        options.time_zone,
        links,
    )?;
    Ok((search, options.empty_if_missing.unwrap_or(false)))
}

/// `ChatStore.search`'s `options` (`limit`, `excerptChars`, `now`,
/// `timeZone`: the store's rules decide the rest).
pub fn store_search_options(
    options: Option<arg::ChatStoreSearchOptions>,
) -> Result<SearchOptions, Failure> {
    let Some(options) = options.map(|options| options.read("options")).transpose()? else {
        return Ok(unlimited(Links::Refuse));
    };
    search_limits(
        options.limit,
        options.excerpt_chars,
        options.now,
        options.time_zone,
        Links::Refuse,
    )
}

/// A search with every default, read at the clock.
fn unlimited(links: Links) -> SearchOptions {
    SearchOptions {
        links,
        now_ms: Some(clock_ms()),
        ..SearchOptions::default()
    }
}

fn search_limits(
    limit: Option<Limit>,
    excerpt_chars: Option<Limit>,
    now: Option<EpochMs>,
    zone: Option<Zone>,
    links: Links,
) -> Result<SearchOptions, Failure> {
    let limit = integer_or(limit, "options.limit", 10, 1, MAX_LIMIT as u64)? as usize;
    let excerpt_chars =
        integer_or(excerpt_chars, "options.excerptChars", 600, 1, 1 << 20)? as usize;
    let now_ms = now.map_or_else(clock_ms, |EpochMs(ms)| ms.floor() as i64);
    Ok(SearchOptions {
        limit,
        excerpt_chars,
        links,
        index_budget: None,
        now_ms: Some(now_ms),
        zone: zone.unwrap_or(Zone::UTC),
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
    Option::<Zone>::from_js(value, &name).map(|zone| zone.unwrap_or(Zone::UTC))
}

impl FromJs for Zone {
    fn from_js(value: Js<'_>, name: &dyn Display) -> Result<Self, Failure> {
        match value.kind()? {
            ValueType::Number => {
                let minutes = value.number(name)?;
                let in_range =
                    minutes.fract() == 0.0 && minutes.abs() <= f64::from(MAX_OFFSET_MINUTES);
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
}

/// `readPersistentChatLogWindow`'s `at` (`{ id | line, before, after,
/// maxEntryChars }`) and `options`.
pub fn window_request(
    at: arg::PersistentChatWindowAt,
    options: Option<arg::PersistentChatReadOptions>,
) -> Result<(Window, FileOptions), Failure> {
    let window = window_at(at)?;
    let options = options.map(|options| options.read("options")).transpose()?;
    let files = FileOptions {
        links: refuse_links(options.as_ref().and_then(|o| o.refuse_links)),
        empty_if_missing: options.and_then(|o| o.empty_if_missing).unwrap_or(false),
    };
    Ok((window, files))
}

/// A window's `at`: `{ id | line, before, after, maxEntryChars }`.
pub fn window_at(at: arg::PersistentChatWindowAt) -> Result<Window, Failure> {
    let at = at.read("at")?;
    let center = match (at.id, Limit::value(at.line)) {
        (Some(id), None) => WindowAt::Id(id.to_vec()),
        (None, Some(line)) => WindowAt::Line(integer_of(line, "at.line", 1, MAX_SAFE_INTEGER)?),
        _ => {
            return Err(Failure::Type(
                "The \"at\" argument must have exactly one of \"id\" (a string) and \"line\" (a number)".into(),
            ))
        }
    };
    let before = integer_or(at.before, "at.before", 5, 0, MAX_WINDOW as u64)? as usize;
    let after = integer_or(at.after, "at.after", 5, 0, MAX_WINDOW as u64)? as usize;
    let max_entry_chars = integer_or(
        at.max_entry_chars,
        "at.maxEntryChars",
        DEFAULT_WINDOW_ENTRY_CHARS as u64,
        1,
        MAX_WINDOW_ENTRY_CHARS as u64,
    )? as usize;
    let most = (2 * MAX_WINDOW + 1) * MAX_WINDOW_ENTRY_CHARS;
    let max_chars = Limit::value(at.max_chars)
        .map(|chars| integer_of(chars, "at.maxChars", 1, most as u64))
        .transpose()?
        .map(|chars| chars as usize);
    Ok(Window {
        at: center,
        before,
        after,
        max_entry_chars,
        max_chars,
    })
}
