//! JS values ↔ the persistent-chat core types. Strict: a field of the wrong
//! type is a `TypeError` that names it (`params.logEntries[3].role`).

use std::fmt::Display;
use std::path::PathBuf;

use super::shape::FromJs;
use super::text::Utf16String;
use napi::ValueType;
use napi_derive::napi;

use super::{count, Failure, Js};
use openclaw_context_core::persistent_chat::fields::{self, Names};
use openclaw_context_core::persistent_chat::log::{LogEntry, Role, Timestamp};
use openclaw_context_core::persistent_chat::prompt::{
    MetadataValue, PromptReport, RecallHit, TurnMetadata, MAX_RECALL_ENTRIES,
};
use openclaw_context_core::persistent_chat::request::{PromptRequest, SummaryRequest};
use openclaw_context_core::persistent_chat::state::{MemoryState, Timer};
use openclaw_context_core::persistent_chat::time::{epoch_ms_from_number, parse_timestamp_ms};
use openclaw_context_core::persistent_chat::Links;
use openclaw_context_core::store::prepare::TurnFiles;
use openclaw_context_core::store::turn::TURN_WINDOW;

/// One perpetual-log entry, as `readPersistentChatLogEntries` returns it and
/// as the builders take it (they also accept the aliases `content`,
/// `timestamp` and `sessionId`).
#[napi(object)]
pub struct PersistentChatLogEntry {
    #[napi(ts_type = "'user' | 'assistant' | 'system' | 'tool'")]
    pub role: String,
    #[napi(ts_type = "string")]
    pub text: Utf16String,
    /// As written: an ISO-8601 string or an epoch number.
    #[napi(ts_type = "string | number")]
    pub ts: Option<TimestampValue>,
    /// The backend session the entry belongs to.
    #[napi(ts_type = "string")]
    pub session: Option<Utf16String>,
    /// For assistant entries: `ok` or an error code such as `ACP_TURN_FAILED`.
    #[napi(ts_type = "string")]
    pub status: Option<Utf16String>,
    #[napi(ts_type = "string")]
    pub id: Option<Utf16String>,
}

/// A timestamp as the log wrote it.
pub type TimestampValue = napi::Either<Utf16String, f64>;

impl From<LogEntry> for PersistentChatLogEntry {
    fn from(entry: LogEntry) -> Self {
        PersistentChatLogEntry {
            role: entry.role.as_str().to_owned(),
            text: entry.text.into(),
            ts: entry.ts.map(|ts| match ts {
                Timestamp::Text(text) => napi::Either::A(text.into()),
                Timestamp::Number(number) => napi::Either::B(number),
            }),
            session: entry.session.map(Into::into),
            status: entry.status.map(Into::into),
            id: entry.id.map(Into::into),
        }
    }
}

/// The field under the first of `names` (a name, then its aliases) that is
/// not `undefined`, and the name an error about it should give: an alias
/// only when it is the one present.
fn field(value: Js<'_>, names: Names) -> Result<(Js<'_>, &'static str), Failure> {
    let mut first = None;
    for &name in names {
        let field = value.get(name)?;
        if !field.is_undefined()? {
            return Ok((field, name));
        }
        first.get_or_insert((field, name));
    }
    first.ok_or(Failure::NapiCall)
}

pub(crate) fn timestamp(
    value: Js<'_>,
    name: impl Display + Copy,
) -> Result<Option<Timestamp>, Failure> {
    match value.kind()? {
        ValueType::Undefined | ValueType::Null => Ok(None),
        ValueType::String => Ok(Some(Timestamp::Text(value.string(name)?))),
        ValueType::Number => Ok(Some(Timestamp::Number(value.number(name)?))),
        _ => Err(Failure::Type(format!(
            "The \"{name}\" argument must be of type string or number. {}",
            value.describe()
        ))),
    }
}

/// An id: a string, or a number kept as JavaScript prints it.
fn id(value: Js<'_>, name: impl Display + Copy) -> Result<Option<Vec<u16>>, Failure> {
    match value.kind()? {
        ValueType::Number => {
            let number = value.number(name)?;
            Ok(Some(
                openclaw_context_core::persistent_chat::log::js_number_text(number),
            ))
        }
        _ => value.optional_string(name),
    }
}

pub fn log_entry(value: Js<'_>, name: impl Display + Copy) -> Result<LogEntry, Failure> {
    let entry = value.object(name)?;
    let (role, role_key) = field(entry, fields::entry::ROLE)?;
    let role_text = role.string(format_args!("{name}.{role_key}"))?;
    let role = Role::from_text(&role_text).ok_or_else(|| {
        Failure::Type(format!(
            "The \"{name}.role\" argument must be one of 'user', 'assistant', 'system', 'tool'. Received '{}'",
            String::from_utf16_lossy(&role_text)
        ))
    })?;
    let (text, text_key) = field(entry, fields::entry::TEXT)?;
    let (ts, ts_key) = field(entry, fields::entry::TS)?;
    let (session, session_key) = field(entry, fields::entry::SESSION)?;
    let (status, status_key) = field(entry, fields::entry::STATUS)?;
    let (id_value, id_key) = field(entry, fields::entry::ID)?;
    Ok(LogEntry {
        role,
        text: text.string(format_args!("{name}.{text_key}"))?,
        ts: timestamp(ts, format_args!("{name}.{ts_key}"))?,
        session: session.optional_string(format_args!("{name}.{session_key}"))?,
        status: status.optional_string(format_args!("{name}.{status_key}"))?,
        id: id(id_value, format_args!("{name}.{id_key}"))?,
    })
}

/// A log entry given by JavaScript, read as `log_entry` reads it.
pub struct LoggedEntry(pub LogEntry);

impl FromJs for LoggedEntry {
    fn from_js(value: Js<'_>, name: &dyn Display) -> Result<Self, Failure> {
        log_entry(value, name).map(LoggedEntry)
    }
}

pub fn log_entries(
    value: Js<'_>,
    name: impl Display + Copy,
) -> Result<Option<Vec<LogEntry>>, Failure> {
    value.optional_array_of(name, |item, name| log_entry(item, name))
}

/// A state item: a string, or an object with a string `text`.
fn state_item(value: Js<'_>, name: impl Display + Copy) -> Result<Vec<u16>, Failure> {
    if value.kind()? == ValueType::String {
        return value.string(name);
    }
    let (text, key) = field(value.object(name)?, fields::state::ITEM_TEXT)?;
    text.string(format_args!("{name}.{key}"))
}

/// The items under the first of `keys` that holds an array.
fn state_items(
    state: Js<'_>,
    keys: Names,
    name: impl Display + Copy,
) -> Result<Vec<Vec<u16>>, Failure> {
    for key in keys {
        let items = state
            .get(key)?
            .optional_array_of(format_args!("{name}.{key}"), |item, name| {
                state_item(item, name)
            })?;
        if let Some(items) = items {
            return Ok(items);
        }
    }
    Ok(Vec::new())
}

fn timer(value: Js<'_>, name: impl Display + Copy) -> Result<Timer, Failure> {
    if value.kind()? == ValueType::String {
        return Ok(Timer {
            name: value.string(name)?,
            status: Vec::new(),
            due: None,
        });
    }
    let timer = value.object(name)?;
    let (timer_name, name_key) = field(timer, fields::timer::NAME)?;
    let (status, status_key) = field(timer, fields::timer::STATUS)?;
    let (due, due_key) = field(timer, fields::timer::DUE)?;
    Ok(Timer {
        name: timer_name.string(format_args!("{name}.{name_key}"))?,
        status: status
            .optional_string(format_args!("{name}.{status_key}"))?
            .unwrap_or_default(),
        due: timestamp(due, format_args!("{name}.{due_key}"))?,
    })
}

pub fn memory_state(
    value: Js<'_>,
    name: impl Display + Copy,
) -> Result<Option<MemoryState>, Failure> {
    let Some(state) = value.optional_object(name)? else {
        return Ok(None);
    };
    let (timers, timers_key) = field(state, fields::state::TIMERS)?;
    let timers = timers
        .optional_array_of(format_args!("{name}.{timers_key}"), |item, name| {
            timer(item, name)
        })?
        .unwrap_or_default();
    Ok(Some(MemoryState {
        decisions: state_items(state, fields::state::DECISIONS, name)?,
        guardrails: state_items(state, fields::state::GUARDRAILS, name)?,
        pending_threads: state_items(state, fields::state::PENDING_THREADS, name)?,
        timers,
        model_notes: state_items(state, fields::state::MODEL_NOTES, name)?,
        notes: state_items(state, fields::state::NOTES, name)?,
    }))
}

/// A `maxChars` of the persistent-chat builders: `undefined` → `None`, else
/// the number (the core applies the defaults and the no-cap rules).
pub(crate) fn char_budget(
    value: Js<'_>,
    name: impl Display + Copy,
) -> Result<Option<f64>, Failure> {
    if value.is_undefined()? {
        return Ok(None);
    }
    super::budget(value, name, f64::NAN).map(Some)
}

/// `params[path_key]` as a path, read only when `data` was not given: data
/// wins over a path, and an unused path is not looked at.
fn path_unless<T>(
    data: &Option<T>,
    params: Js<'_>,
    path_key: &'static str,
) -> Result<Option<PathBuf>, Failure> {
    if data.is_some() {
        return Ok(None);
    }
    let name = format!("params.{path_key}");
    Ok(params
        .get(path_key)?
        .optional_path(&name)?
        .map(PathBuf::from))
}

/// `now`: an ISO-8601 string or epoch milliseconds; `None` for the clock.
pub(crate) fn now_ms(value: Js<'_>) -> Result<Option<f64>, Failure> {
    named_now_ms(value, "params.now")
}

/// A `now` named `name`: an ISO-8601 string or epoch milliseconds (within
/// `Date`'s range, ±8.64e15); `undefined` or `null`: `None`.
pub(crate) fn named_now_ms(value: Js<'_>, name: &str) -> Result<Option<f64>, Failure> {
    Option::<EpochMs>::from_js(value, &name).map(|ms| ms.map(|EpochMs(ms)| ms))
}

/// A time given as an ISO-8601 string or epoch milliseconds (within
/// `Date`'s range, ±8.64e15), in epoch milliseconds.
pub struct EpochMs(pub f64);

impl FromJs for EpochMs {
    fn from_js(value: Js<'_>, name: &dyn Display) -> Result<Self, Failure> {
        if value.kind()? == ValueType::Number {
            return epoch_ms_from_number(value.number(name)?)
                .filter(|ms| ms.abs() <= 8.64e15)
                .map(EpochMs)
                .ok_or_else(|| {
                    Failure::Range(format!(
                        "The value of \"{name}\" is out of range. It must be a finite time."
                    ))
                });
        }
        let text = value.string(name)?;
        parse_timestamp_ms(&text).map(EpochMs).ok_or_else(|| {
            Failure::Range(format!(
                "The value of \"{name}\" is invalid. It must be an ISO-8601 time. Received '{}'",
                String::from_utf16_lossy(&text)
            ))
        })
    }
}

pub fn summary_params(value: Js<'_>) -> Result<SummaryRequest, Failure> {
    let params = value.object("params")?;
    let entries = log_entries(params.get("entries")?, "params.entries")?;
    let log_path = path_unless(&entries, params, "logPath")?;
    let state = memory_state(params.get("state")?, "params.state")?;
    let state_path = path_unless(&state, params, "statePath")?;
    Ok(SummaryRequest {
        entries,
        log_path,
        state,
        state_path,
        current_session: params
            .get("currentSession")?
            .optional_string("params.currentSession")?,
        now_ms: now_ms(params.get("now")?)?,
        max_chars: char_budget(params.get("maxChars")?, "params.maxChars")?,
        links: links(params.get("refuseLinks")?, "params.refuseLinks")?,
    })
}

/// `refuseLinks`: absent or `false` follows links, `true` refuses them.
pub fn links(value: Js<'_>, name: impl Display + Copy) -> Result<Links, Failure> {
    Ok(refuse_links(Some(flag(value, name)?)))
}

/// A shape's `refuseLinks`: absent is `false` (links followed).
pub fn refuse_links(refuse: Option<bool>) -> Links {
    if refuse.unwrap_or(false) {
        Links::Refuse
    } else {
        Links::Follow
    }
}

/// An optional boolean option: absent, `undefined` or `null` is `false`.
pub fn flag(value: Js<'_>, name: impl Display + Copy) -> Result<bool, Failure> {
    if value.is_nullish()? {
        return Ok(false);
    }
    value.boolean(name)
}

fn turn_metadata(value: Js<'_>) -> Result<Option<TurnMetadata>, Failure> {
    const NAME: &str = "params.turnMetadata";
    match value.kind()? {
        ValueType::Undefined | ValueType::Null => Ok(None),
        ValueType::String => Ok(Some(TurnMetadata::Text(value.string(NAME)?))),
        _ => {
            let object = value.object(NAME)?;
            let fields = object
                .keys(NAME)?
                .into_iter()
                .map(|key| {
                    let name = format!("{NAME}.{}", String::from_utf16_lossy(&key));
                    let field = object.get_utf16(&key)?;
                    let value = match field.kind()? {
                        ValueType::String => MetadataValue::Text(field.string(&name)?),
                        ValueType::Number => MetadataValue::Number(field.number(&name)?),
                        ValueType::Boolean => MetadataValue::Bool(field.boolean(&name)?),
                        ValueType::Null => MetadataValue::Null,
                        _ => {
                            return Err(Failure::Type(format!(
                                "The \"{name}\" argument must be of type string, number, boolean or null. {}",
                                field.describe()
                            )))
                        }
                    };
                    Ok((key, value))
                })
                .collect::<Result<_, _>>()?;
            Ok(Some(TurnMetadata::Fields(fields)))
        }
    }
}

pub fn prompt_params(value: Js<'_>) -> Result<PromptRequest, Failure> {
    prompt_request(value.object("params")?, false)
}

/// `ChatStore#prepareTurn`'s params: the builder's own, without what the
/// store reads from the chat's folder (`reload`, `logEntries`, `logPath`,
/// `continuitySummary`, `recalledEntries`: each a `TypeError` when given),
/// and the turn's
/// `window` (default [`TURN_WINDOW`]), `refreshEntryId`, `summaryMaxChars`,
/// `lastPromptMaxChars`.
pub fn turn_params(value: Js<'_>) -> Result<(PromptRequest, TurnFiles), Failure> {
    let params = value.object("params")?;
    let request = prompt_request(params, true)?;
    let window = match params.get("window")? {
        window if window.is_undefined()? => TURN_WINDOW,
        window => count(window, "params.window")?,
    };
    let last_prompt_max_chars = match params.get("lastPromptMaxChars")? {
        limit if limit.is_undefined()? => None,
        limit => Some(count(limit, "params.lastPromptMaxChars")?),
    };
    let files = TurnFiles {
        window,
        refresh_entry: params
            .get("refreshEntryId")?
            .optional_string("params.refreshEntryId")?,
        summary_max_chars: params
            .get("summaryMaxChars")?
            .optional_number("params.summaryMaxChars")?,
        last_prompt_max_chars,
        now_ms: named_now_ms(params.get("now")?, "params.now")?.map(|ms| ms.floor() as i64),
        zone: super::search::time_zone(params.get("timeZone")?, "params.timeZone")?,
    };
    Ok((request, files))
}

/// The builder's params, read in one order for every caller. `from_store`:
/// the chat store gives the log, the summary and the reload decision, so
/// those params must be absent.
fn prompt_request(params: Js<'_>, from_store: bool) -> Result<PromptRequest, Failure> {
    let given_by_store = |name: &'static str| -> Result<(), Failure> {
        if params.get(name)?.is_undefined()? {
            return Ok(());
        }
        Err(Failure::Type(format!(
            "The \"params.{name}\" property is not taken by prepareTurn: the store reads it from the chat's folder"
        )))
    };
    let user_message = params.get("userMessage")?.string("params.userMessage")?;
    let reload = if from_store {
        given_by_store("reload")?;
        false
    } else {
        params.get("reload")?.boolean("params.reload")?
    };
    let refresh = if from_store {
        given_by_store("refresh")?;
        false
    } else {
        flag(params.get("refresh")?, "params.refresh")?
    };
    let refresh_entries = params
        .get("refreshEntries")?
        .optional_number("params.refreshEntries")?;
    let continuous_entries = params
        .get("continuousEntries")?
        .optional_number("params.continuousEntries")?;
    let reload_entries = params
        .get("reloadEntries")?
        .optional_number("params.reloadEntries")?;
    let (log_entries, log_path) = if from_store {
        given_by_store("logEntries")?;
        given_by_store("logPath")?;
        (None, None)
    } else {
        let log_entries = log_entries(params.get("logEntries")?, "params.logEntries")?;
        let log_path = path_unless(&log_entries, params, "logPath")?;
        (log_entries, log_path)
    };
    let turn_metadata = turn_metadata(params.get("turnMetadata")?)?;
    let recall_entries = recall_entries(params.get("recallEntries")?)?;
    let recalled = if from_store {
        given_by_store("recalledEntries")?;
        Vec::new()
    } else {
        recalled_entries(params.get("recalledEntries")?)?
    };
    let continuity_summary = if from_store {
        given_by_store("continuitySummary")?;
        None
    } else {
        params
            .get("continuitySummary")?
            .optional_string("params.continuitySummary")?
    };
    Ok(PromptRequest {
        user_message,
        reload,
        refresh,
        continuous_entries,
        reload_entries,
        refresh_entries,
        log_entries,
        log_path,
        turn_metadata,
        continuity_summary,
        max_chars: char_budget(params.get("maxChars")?, "params.maxChars")?,
        max_entry_chars: char_budget(params.get("maxEntryChars")?, "params.maxEntryChars")?,
        current_session: params
            .get("currentSession")?
            .optional_string("params.currentSession")?,
        nonce: params.get("nonce")?.optional_string("params.nonce")?,
        legacy_layout: flag(params.get("legacyLayout")?, "params.legacyLayout")?,
        recall_entries,
        recalled,
        log_search_tool: flag(params.get("logSearchTool")?, "params.logSearchTool")?,
    })
}

/// `recallEntries`: `undefined` for the default (8), else an integer 0..25
/// (a `RangeError` otherwise: 26 is not quietly 25).
fn recall_entries(value: Js<'_>) -> Result<Option<usize>, Failure> {
    if value.is_undefined()? {
        return Ok(None);
    }
    let most = MAX_RECALL_ENTRIES as u64;
    let count = super::search::integer(value, "params.recallEntries", 0, 0, most)?;
    Ok(Some(usize::try_from(count).unwrap_or(MAX_RECALL_ENTRIES)))
}

/// `recalledEntries`: log entries, best first, each with its 1-based `line`
/// (a search hit or a window entry as the store gives them).
fn recalled_entries(value: Js<'_>) -> Result<Vec<RecallHit>, Failure> {
    const NAME: &str = "params.recalledEntries";
    let hits = value.optional_array_of(NAME, |item, name| {
        let entry = log_entry(item, name)?;
        let name = format!("{name}.line");
        let line = item.get("line")?;
        // A number first (absent is a `TypeError`, not a default line).
        line.number(&name)?;
        let line = super::search::integer(line, &name, 1, 1, super::search::MAX_SAFE_INTEGER)?;
        Ok(RecallHit { entry, line })
    })?;
    Ok(hits.unwrap_or_default())
}

/// What `buildPersistentChatInjectedPromptReport` returns.
#[napi(object, object_from_js = false)]
pub struct PersistentChatPromptReport {
    /// The injected prompt: exactly what `buildPersistentChatInjectedPrompt` returns.
    #[napi(ts_type = "string")]
    pub prompt: Utf16String,
    /// `'reload'` (bootstrap context injected), `'refresh'` (the same after
    /// a compaction, to a session that goes on) or `'continuous'`.
    #[napi(ts_type = "'continuous' | 'reload' | 'refresh'")]
    pub mode: String,
    /// Log entries in the prompt.
    pub entries_injected: u32,
    /// Entries chosen for the excerpt but left out to fit `maxChars`.
    pub entries_omitted: u32,
    /// Continuous turn with `currentSession`: how many of the newest
    /// `continuousEntries` log entries were left out because the backend
    /// already holds them (0 on a reload or without `currentSession`).
    pub entries_already_held: u32,
    /// The `id` of each injected entry (or a stable `auto:<role>:<hash>` key
    /// for an entry without one), oldest first.
    #[napi(ts_type = "string[]")]
    pub injected_entry_ids: Vec<Utf16String>,
    /// Log entries in the recall block (a fenced reload: `prepareTurn`'s
    /// search, or the builders' `recalledEntries`).
    pub entries_recalled: u32,
    /// The 1-based log line of each recalled entry, oldest first (their
    /// numbers in the recall block).
    #[napi(ts_type = "number[]")]
    pub recalled_lines: Vec<f64>,
    /// The continuity summary was shortened or left out to fit `maxChars`.
    pub summary_trimmed: bool,
    /// Log lines skipped while reading `logPath` (garbage, torn, oversized).
    pub skipped_log_lines: u32,
    /// `prompt.length`.
    pub chars: u32,
    /// The metadata and the live turn alone exceed `maxChars`; they are sent
    /// whole anyway (the live message is never cut).
    pub over_budget: bool,
    /// The nonce every structural line of the prompt carries (16 lowercase
    /// hex digits drawn from the OS, or the caller's `nonce`); absent with
    /// `legacyLayout`.
    pub nonce: Option<String>,
}

fn count_u32(count: usize) -> u32 {
    u32::try_from(count).unwrap_or(u32::MAX)
}

impl From<PromptReport> for PersistentChatPromptReport {
    fn from(report: PromptReport) -> Self {
        PersistentChatPromptReport {
            mode: report.mode.as_str().to_owned(),
            entries_injected: count_u32(report.entries_injected),
            entries_omitted: count_u32(report.entries_omitted),
            entries_already_held: count_u32(report.entries_already_held),
            injected_entry_ids: report
                .injected_entry_ids
                .into_iter()
                .map(Into::into)
                .collect(),
            entries_recalled: count_u32(report.recalled_lines.len()),
            recalled_lines: report
                .recalled_lines
                .into_iter()
                .map(|line| line as f64)
                .collect(),
            summary_trimmed: report.summary_trimmed,
            skipped_log_lines: count_u32(report.skipped_log_lines),
            chars: count_u32(report.chars),
            over_budget: report.over_budget,
            nonce: report.nonce,
            prompt: report.prompt.into(),
        }
    }
}
