//! The exports' parameter objects, each declared once: napi-derive makes
//! its `index.d.ts` interface from the fields' Rust types, and
//! `#[derive(FromJs)]` its reader (a wrong type names its field). The
//! builders' own params (`InjectedPromptParams`, `ContinuitySummaryParams`,
//! `ChatStoreTurnFiles` and the memory state) are read by hand in
//! `persistent_chat.rs` (fields under aliases, a path left unread when its
//! data is given): those structs only document the shape and are never
//! built (hence `allow(dead_code)`). `ts_type` keeps the generated text short
//! where napi-rs would spell it out, or names a JS union no Rust type says.

use std::collections::HashMap;
use std::path::PathBuf;

use napi::bindgen_prelude::{Either, Either4, Null};
use napi_derive::napi;

use super::archive::{EntryIds, TimeBound};
use super::persistent_chat::PersistentChatLogEntry;
use super::persistent_chat::{EpochMs, LoggedEntry};
use super::shape::{FromJs, Limit, NotNull};
use super::text::Utf16String;
use openclaw_context_core::search::Zone;

/// A timer of the memory state.
#[allow(dead_code)]
#[napi(object, object_to_js = false)]
pub struct PersistentChatTimer {
    pub name: String,
    /// e.g. `pending`, `done`; a passed `due` shows as due or overdue.
    pub status: Option<String>,
    /// ISO-8601 string or epoch milliseconds.
    #[napi(ts_type = "string | number")]
    pub due: Option<Either<String, f64>>,
}

/// An item of the memory state given as an object: its text.
#[allow(dead_code)]
#[napi(object, object_to_js = false)]
pub struct PersistentChatStateItem {
    pub text: String,
}

/// A list of the memory state: strings, or objects with a `text`.
type StateItems = Vec<Either<String, PersistentChatStateItem>>;

/// The memory state (also the JSON the Python memory script writes).
/// Items are strings or objects with a `text` field.
#[allow(dead_code)]
#[napi(object, object_to_js = false)]
pub struct PersistentChatMemoryState {
    #[napi(ts_type = "Array<string | PersistentChatStateItem>")]
    pub decisions: Option<StateItems>,
    #[napi(ts_type = "Array<string | PersistentChatStateItem>")]
    pub guardrails: Option<StateItems>,
    #[napi(ts_type = "Array<string | PersistentChatStateItem>")]
    pub pending_threads: Option<StateItems>,
    #[napi(ts_type = "Array<PersistentChatTimer | string>")]
    pub timers: Option<Vec<Either<PersistentChatTimer, String>>>,
    #[napi(ts_type = "Array<string | PersistentChatStateItem>")]
    pub model_notes: Option<StateItems>,
    #[napi(ts_type = "Array<string | PersistentChatStateItem>")]
    pub notes: Option<StateItems>,
}

/// Parameters of `rebuildPersistentChatContinuitySummary`.
#[allow(dead_code)]
#[napi(object, object_to_js = false)]
pub struct ContinuitySummaryParams {
    /// Log entries, oldest first; wins over `logPath`.
    #[napi(ts_type = "PersistentChatLogEntry[]")]
    pub entries: Option<Vec<PersistentChatLogEntry>>,
    /// The perpetual log (JSON Lines); its last 200 entries are read. A file
    /// that does not exist yet reads as empty.
    pub log_path: Option<String>,
    /// The memory state; wins over `statePath`.
    pub state: Option<PersistentChatMemoryState>,
    /// The memory script's JSON file; a missing or empty file is an empty state.
    pub state_path: Option<String>,
    /// The backend session now in use: a failure from another session
    /// happened before a reload and is not shown as the latest status.
    pub current_session: Option<String>,
    /// ISO-8601 or epoch milliseconds; default the current time.
    #[napi(ts_type = "string | number")]
    pub now: Option<Either<String, f64>>,
    /// Default 6000 (also for `NaN`); `Infinity` or `<= 0`: no cap.
    pub max_chars: Option<f64>,
    /// `true`: a symlink or a hard-linked file at `logPath` or `statePath`
    /// is refused (`ENOTREGULAR`) rather than followed. Default `false`.
    pub refuse_links: Option<bool>,
}

/// Options of `readPersistentChatLogEntries`.
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct PersistentChatReadOptions {
    /// `true`: a symlink at `path` (it is opened `O_NOFOLLOW`) or a file with
    /// more than one hard link is refused (`ENOTREGULAR`) rather than read.
    /// Default `false`. (Windows: only the symlink.)
    pub refuse_links: Option<bool>,
    /// `true`: a missing file reads as an empty log (`[]`, a log not written
    /// yet) rather than throwing `ENOENT`, as the builders read `logPath`.
    /// Default `false`.
    pub empty_if_missing: Option<bool>,
    /// Each entry's text cut as the prompt builders' `maxEntryChars` cuts it
    /// (its first `maxEntryChars` units at a grapheme boundary, then
    /// `… [N more characters cut]`), in Rust as each line is read: the read's
    /// memory and the strings returned follow the cap, not the entries'
    /// sizes. A builder given such entries shows them as it shows whole ones
    /// with the same or a smaller cap. Default (also `NaN`, `Infinity`,
    /// `<= 0`): no cut.
    #[napi(ts_type = "number")]
    pub max_entry_chars: Option<Limit>,
}

/// A value of `turnMetadata` given as an object.
type MetadataField = Either4<String, f64, bool, Null>;

/// Parameters of `buildPersistentChatInjectedPrompt`.
#[allow(dead_code)]
#[napi(object, object_to_js = false)]
pub struct InjectedPromptParams {
    /// The live message: never cut, between the live-turn separator and
    /// (fenced) the closing line. A line of it that reads as one of the
    /// prompt's separators, headings or numbered entries (look-alike
    /// letters, invisible fillers and every Unicode line break included)
    /// gets `[quoted] ` in front, as in every other input; every other line
    /// is verbatim.
    pub user_message: String,
    /// `shouldInjectPersistentChatPrompt()`'s answer: a reload or a new backend session.
    pub reload: bool,
    /// The backend session the prompt goes to. On a continuous turn that
    /// backend already holds the log up to its own newest entry (its turns,
    /// its reload's excerpt, what earlier prompts injected), so only entries
    /// appended after that one are injected, at most `continuousEntries`:
    /// another channel's, another backend session's, an outside writer's, or
    /// ones without a `session`; an older entry of another session is held
    /// too. Without it, or when no entry has this `session`, the newest
    /// entries are injected. A reload ignores it: the new backend holds none
    /// of the log.
    pub current_session: Option<String>,
    /// Shown first: a string as is (lines reading as structure quoted), or a
    /// `- key: value` line for each of the object's own enumerable string
    /// keys, in `Object.keys` order; a key or value is put on one line (each
    /// line break a space), cut to 256 units (at a grapheme boundary, with
    /// `…`) and quoted when it reads as structure.
    #[napi(ts_type = "string | Record<string, string | number | boolean | null>")]
    pub turn_metadata: Option<Either<String, HashMap<String, MetadataField>>>,
    /// `continuity-summary.txt` (reload only); an old-format transcript block is stripped.
    pub continuity_summary: Option<String>,
    /// Log entries, oldest first; wins over `logPath`.
    #[napi(ts_type = "PersistentChatLogEntry[]")]
    pub log_entries: Option<Vec<PersistentChatLogEntry>>,
    /// The perpetual log (JSON Lines); only its end is read (twice the
    /// entries shown, plus one). A file that does not exist yet reads as empty.
    pub log_path: Option<String>,
    /// Entries on a continuous session: default 2 (also for `NaN`), clamped
    /// to 0..2.
    pub continuous_entries: Option<f64>,
    /// Entries on a reload: default 25 (also for `NaN`), at least 0.
    pub reload_entries: Option<f64>,
    /// A refresh: not a reload, but the backend session compacted its
    /// context since its last turn; the summary and the last
    /// `refreshEntries` entries under `--- REFRESH CONTEXT (…) ---` (no
    /// recall). Ignored on a reload.
    pub refresh: Option<bool>,
    /// Entries on a refresh: default 10 (also for `NaN`), at least 0.
    pub refresh_entries: Option<f64>,
    /// Cap on the prompt's length: the oldest entries go first, then the
    /// summary shrinks; metadata and the live turn stay whole. Default (also
    /// `NaN`, `Infinity` and `<= 0`): no cap.
    pub max_chars: Option<f64>,
    /// Cap on one entry's text in the excerpt: a longer text shows its first
    /// `maxEntryChars` units, cut at a grapheme boundary, then
    /// `… [N more characters cut]`. Default 8000 (also `NaN`); `Infinity` or
    /// `<= 0`: no cap.
    pub max_entry_chars: Option<f64>,
    /// The nonce every structural line carries, for tests and reproducible
    /// output: 16 to 64 lowercase hex digits. Default: 16 drawn from the OS
    /// for each prompt. Another string, or one an input holds, is a
    /// `RangeError` (`ERR_OUT_OF_RANGE`).
    pub nonce: Option<String>,
    /// `true`: the legacy layout (no first line, no nonce, an entry on one
    /// line, no closing line) for a caller that parses it; with `nonce` a
    /// `RangeError`. Default `false`.
    pub legacy_layout: Option<bool>,
    /// Candidates for the recall block of a fenced reload, best first, each
    /// a log entry with its 1-based `line` (as `ChatStore#search` or
    /// `#readWindow` give them). The builder searches no log itself:
    /// `ChatStore#prepareTurn` is what searches the chat's log for the live
    /// message. Those the excerpt shows (same `id`, or same role, text and
    /// timestamp) and a copy of the live message are passed over; the best
    /// `recallEntries` of the rest go in their own block,
    /// `## Recalled Older Log Entries …`, before the excerpt, oldest first,
    /// each numbered by its line and shown as an excerpt entry is (the same
    /// `maxEntryChars` cut and quoting), at most 16,000 units of text in
    /// all (an entry that would go over is passed over); when `maxChars`
    /// bites they go first, the worst hit first, before any excerpt entry.
    /// A continuous turn or `legacyLayout` ignores them. A `line` that is
    /// not an integer 1..2^53-1 is a `RangeError`.
    #[napi(ts_type = "Array<PersistentChatLogEntry & { line: number }>")]
    pub recalled_entries: Option<Vec<PersistentChatLogEntry>>,
    /// How many entries a fenced reload recalls at most: an integer 0..25;
    /// default 8; 0 turns recall off (the prompt is exactly as without it).
    /// Out of range a `RangeError`, not a number a `TypeError`. Through
    /// `ChatStore#prepareTurn` the store finds them: on a fenced reload it
    /// searches the chat's log for the live message (its first 2,000 units;
    /// the folder's search index, built or brought up to date as `search`
    /// does), each hit read again from the log, at most 8,000 units of it
    /// around its best match, masked as the window's entries are; 0 searches nothing, and a search that fails
    /// leaves the block out, never the turn.
    pub recall_entries: Option<u32>,
    /// The backend can call the plugin's `chat_log_search` tool: a fenced
    /// reload's bootstrap block then starts with one line saying older
    /// entries can be searched with it. Default false; a continuous turn
    /// and `legacyLayout` ignore it.
    pub log_search_tool: Option<bool>,
}

/// Options of `ChatStore.open`: either `folder` (and `summaryFile`), or
/// `stateDir` and `sessionKey`.
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct ChatStoreOpenOptions {
    /// The folder that holds the chat folders (the plugin's `stateDir`).
    pub state_dir: Option<PathBuf>,
    /// The session key (any string, lone surrogates included): the folder
    /// is its slug and 32 hex digits of SHA-256 over its UTF-16 units.
    pub session_key: Option<Utf16String>,
    /// A chat folder used where it is (an operator's `sessionStateDirs`).
    pub folder: Option<PathBuf>,
    /// The summary's file name in `folder`; default `continuity-summary.txt`.
    pub summary_file: Option<PathBuf>,
    /// `false`: open an existing chat only, changing nothing (`ENOENT`
    /// when it has no folder). Default `true`.
    #[napi(ts_type = "boolean")]
    pub create: Option<NotNull<bool>>,
    /// The operator's masking patterns (as `new SecretMasker({ patterns })`
    /// takes them) for everything this store writes; the built-in ones
    /// apply always. A pattern the masker refuses is not used.
    pub mask_patterns: Option<Vec<Utf16String>>,
}

/// Options of `ChatStore#appendEntry`.
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct ChatStoreAppendOptions {
    /// `false`: no `fdatasync` (tests, benchmarks). Default `true`.
    pub sync: Option<bool>,
}

/// Parameters of `ChatStore#rebuildSummary`.
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct ChatStoreSummaryParams {
    /// Log entries, oldest first; default the log's last 200.
    #[napi(ts_type = "PersistentChatLogEntry[]")]
    pub entries: Option<Vec<LoggedEntry>>,
    /// The backend session now in use.
    pub current_session: Option<Utf16String>,
    /// ISO-8601 or epoch milliseconds; default the current time.
    #[napi(ts_type = "string | number")]
    pub now: Option<EpochMs>,
    /// Default 6000 (also for `NaN`); `Infinity` or `<= 0`: no cap.
    #[napi(ts_type = "number")]
    pub max_chars: Option<Limit>,
}

/// `ChatStore.search`'s options (the store's file rules decide the rest).
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct ChatStoreSearchOptions {
    /// Hits wanted: an integer from 1 to 100 (default 10).
    #[napi(ts_type = "number")]
    pub limit: Option<Limit>,
    /// The excerpt's length in UTF-16 units, an integer >= 1 (default 600).
    #[napi(ts_type = "number")]
    pub excerpt_chars: Option<Limit>,
    /// The time the query's time words are read at ("yesterday", "last
    /// week"): epoch milliseconds or an ISO-8601 string; default the clock.
    #[napi(ts_type = "number | string")]
    pub now: Option<EpochMs>,
    /// The user's time zone for the time words: an IANA name
    /// (`'Europe/Berlin'`), `'UTC'`, an offset (`'+02:00'`), or minutes east
    /// of UTC; default UTC.
    #[napi(ts_type = "string | number")]
    pub time_zone: Option<Zone>,
}

/// Options of `ChatStore.inspectFolder` and `ChatStore#inspect`.
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct ChatStoreInspectOptions {
    /// The summary's file name, when not `continuity-summary.txt`.
    pub summary_file: Option<PathBuf>,
    /// Log entries read from the end; default 50; 0: the log is not read
    /// (no `log` in the result), only its status taken.
    pub entries: Option<f64>,
}

/// What `ChatStore#prepareTurn` takes beside the builder's params (its
/// `params` are `Omit<InjectedPromptParams, …> & ChatStoreTurnFiles`: the
/// builder's, declared once, without what the store reads from the chat's
/// folder).
#[allow(dead_code)]
#[napi(object, object_to_js = false)]
pub struct ChatStoreTurnFiles {
    /// Log entries read for the reload decision and the summary: default
    /// and at least `TURN_WINDOW` (50), and at least the entries the prompt
    /// may show (`reloadEntries`, `refreshEntries`).
    pub window: Option<f64>,
    /// The `id` of the user entry the caller appends next for this turn.
    /// Given, a refresh marked for `currentSession` (`markRefresh`,
    /// `noteUsage`) that no entry consumed yet makes the turn a refresh
    /// (`refresh` in the result): the summary and the last `refreshEntries`
    /// entries under the refresh separator; the mark records this id, and
    /// the entry appended with it consumes the mark. Absent: no refresh.
    pub refresh_entry_id: Option<String>,
    /// The summary's budget, as `ContinuitySummaryParams.maxChars`.
    pub summary_max_chars: Option<f64>,
    /// What `last-injected-preprompt.txt` keeps of the prompt (UTF-16 units;
    /// a note says how much is left out); default all.
    pub last_prompt_max_chars: Option<f64>,
    /// The turn's time: epoch milliseconds or an ISO-8601 string; default
    /// the clock. The summary's `now`, and the time the recall reads the
    /// live message's time words at ("what did we decide yesterday?").
    #[napi(ts_type = "number | string")]
    pub now: Option<Either<f64, String>>,
    /// The user's time zone for the recall's time words: an IANA name,
    /// `'UTC'`, an offset (`'+02:00'`), or minutes east of UTC; default UTC.
    #[napi(ts_type = "string | number")]
    pub time_zone: Option<Either<String, f64>>,
}

/// Options of `ChatStore.exportLog`: the chat (`log`, or `stateDir` and
/// `sessionKey`), the form, the time window and where it goes.
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct ChatStoreExportOptions {
    /// A log file (its folder is checked as a chat folder).
    pub log: Option<PathBuf>,
    /// The state dir of `sessionKey`'s chat folder.
    pub state_dir: Option<PathBuf>,
    pub session_key: Option<Utf16String>,
    /// `'jsonl'` (default: the log's lines, byte for byte where masking
    /// changes nothing) or `'md'` (for a person).
    #[napi(ts_type = "'jsonl' | 'md'")]
    pub format: Option<Utf16String>,
    /// Entries at or after this time: epoch milliseconds, or an ISO-8601
    /// date or date-time string (no zone: UTC). Anything else: `RangeError`.
    #[napi(ts_type = "string | number")]
    pub since: Option<TimeBound>,
    /// Entries before this time, as `since`; it must be after `since`
    /// (`RangeError`).
    #[napi(ts_type = "string | number")]
    pub until: Option<TimeBound>,
    /// A file to write (0600, a temp file renamed over it); default: the
    /// result's `data`.
    pub out: Option<PathBuf>,
    /// The operator's masking patterns (as `SecretMasker` takes them),
    /// besides the built-in ones, for each entry's text.
    pub mask_patterns: Option<Vec<Utf16String>>,
}

/// What `ChatStore#forget` removes: an entry that matches any of these.
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct ChatStoreForgetRule {
    /// Entries with this id (or one of these ids).
    #[napi(ts_type = "string | string[]")]
    pub id: Option<EntryIds>,
    /// Entries before this time (exclusive): epoch milliseconds, or an
    /// ISO-8601 date or date-time string (no zone: UTC). An entry without
    /// a readable time is kept.
    #[napi(ts_type = "string | number")]
    pub before: Option<TimeBound>,
    /// Entries (and lines that are not valid entries) holding this text,
    /// literally: case and all, unless `ignoreCase`.
    pub r#match: Option<Utf16String>,
    /// `true`: `match` with case and accents folded as the search folds
    /// them. Without it, the report lists what the folded match would also
    /// remove (`missedByCase`).
    pub ignore_case: Option<bool>,
    /// `true`: rewrite. Default: a dry run (nothing written, created or locked).
    pub apply: Option<bool>,
}

/// Options of `ChatStore.forgetIn`: the chat, then the rule.
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct ChatStoreForgetOptions {
    /// A log file (its folder is checked as a chat folder).
    pub log: Option<PathBuf>,
    /// The state dir of `sessionKey`'s chat folder.
    pub state_dir: Option<PathBuf>,
    pub session_key: Option<Utf16String>,
    /// As `ChatStoreForgetRule.id`.
    #[napi(ts_type = "string | string[]")]
    pub id: Option<EntryIds>,
    /// As `ChatStoreForgetRule.before`.
    #[napi(ts_type = "string | number")]
    pub before: Option<TimeBound>,
    /// As `ChatStoreForgetRule.match`.
    pub r#match: Option<Utf16String>,
    /// As `ChatStoreForgetRule.ignoreCase`.
    pub ignore_case: Option<bool>,
    /// As `ChatStoreForgetRule.apply`.
    pub apply: Option<bool>,
    /// The operator's masking patterns (as `SecretMasker` takes them),
    /// besides the built-in ones, for the kept lines the rewrite writes and
    /// the report's texts.
    pub mask_patterns: Option<Vec<Utf16String>>,
}

/// A JSON Lines transcript file of OpenClaw's, for `ChatStore.importLog`.
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct ChatStoreTranscriptFile {
    /// OpenClaw's session id the file holds.
    pub session_id: Utf16String,
    pub path: PathBuf,
}

/// One row of OpenClaw's `transcript_events`, for `ChatStore.importLog`.
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct ChatStoreTranscriptEvent {
    /// OpenClaw's session id (`session_id`).
    pub session_id: Utf16String,
    /// The event's JSON (`event_json`).
    pub json: Utf16String,
    /// When it was stored (epoch ms), for an event without a timestamp.
    pub stored_at: Option<f64>,
    /// Its position in the session (`seq`), for an event without an id.
    pub seq: Option<f64>,
}

/// What OpenClaw stored for a session, for `ChatStore.importLog`.
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct ChatStoreOpenclawTranscript {
    pub files: Option<Vec<ChatStoreTranscriptFile>>,
    pub events: Option<Vec<ChatStoreTranscriptEvent>>,
}

/// Options of `ChatStore.importLog`: the chat, then one source.
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct ChatStoreImportOptions {
    /// A log file (its folder is checked as a chat folder; created when missing).
    pub log: Option<PathBuf>,
    /// The state dir of `sessionKey`'s chat folder.
    pub state_dir: Option<PathBuf>,
    pub session_key: Option<Utf16String>,
    /// An export of this package (`exportLog`'s JSON Lines).
    pub from_export: Option<PathBuf>,
    /// OpenClaw's transcript for the session.
    pub from_openclaw: Option<ChatStoreOpenclawTranscript>,
    /// `true`: write. Default: a dry run (nothing written, created or locked).
    pub apply: Option<bool>,
    /// The operator's masking patterns (as `SecretMasker` takes them),
    /// besides the built-in ones, for every line imported.
    pub mask_patterns: Option<Vec<Utf16String>>,
    /// `true`: import the entries `forget` removed from the chat too.
    /// Default: they are left out (`forgotten` counts them).
    pub force: Option<bool>,
}

/// Options of `ChatStore.restore`.
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct ChatStoreRestoreOptions {
    /// The backup: a folder holding `manifest.json`, or a `.tar`.
    pub from: PathBuf,
    /// The state dir to restore the chats into (created 0700 when missing).
    pub state_dir: PathBuf,
    /// `true`: write. Default: a dry run (nothing written, created or locked).
    pub apply: Option<bool>,
    /// `true`: replace a chat whose log has lines the backup lacks (they
    /// are lost), and restore the entries `forget` removed since the
    /// backup. Default: such a chat is refused, and those entries left out.
    pub force: Option<bool>,
    /// The operator's masking patterns (as `SecretMasker` takes them),
    /// besides the built-in ones, for the log's lines.
    pub mask_patterns: Option<Vec<Utf16String>>,
}

/// Options of `ChatStore.backup`.
#[napi(object, object_to_js = false, object_from_js = false)]
#[derive(FromJs)]
pub struct ChatStoreBackupOptions {
    /// The state dir whose chat folders are copied.
    pub state_dir: PathBuf,
    /// One chat; default: every chat folder of `stateDir`.
    pub session_key: Option<Utf16String>,
    /// A folder to create, or a tar file when it ends in `.tar`; must not exist.
    pub out: PathBuf,
    /// `true`: write. Default: a dry run (read, hash and report only).
    pub apply: Option<bool>,
}
