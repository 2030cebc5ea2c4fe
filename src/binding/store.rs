//! JS values <-> the chat store: the readers of `ChatStore`'s params (strict,
//! naming a bad field) and the objects its methods return.

use std::path::PathBuf;

use napi_derive::napi;
use openclaw_context_core::persistent_chat::log::LogEntry;
use openclaw_context_core::store::inspect::{Inspection, LogFacts};
use openclaw_context_core::store::layout::LOG_FILE;
use openclaw_context_core::store::Appended;

use super::params::ChatStoreOpenOptions;
use super::persistent_chat::{EpochMs, LoggedEntry};
use super::shape::{arg, units, Limit, NotNull};
use super::text::Utf16String;
use super::Failure;

/// Where `ChatStore.open` finds a chat's folder.
pub enum Location {
    /// A session key's folder under a state dir.
    Key {
        state_dir: PathBuf,
        key: Vec<u16>,
        create: bool,
    },
    /// A folder given as is, and the summary's name in it.
    Folder {
        folder: PathBuf,
        summary_file: Option<String>,
        create: bool,
    },
}

/// The operator's masking patterns, each as UTF-16 units.
pub type MaskPatterns = Vec<Vec<u16>>;

/// `ChatStoreOpenOptions`: either `folder` (and `summaryFile`), or
/// `stateDir` and `sessionKey`.
pub fn open_options(
    options: ChatStoreOpenOptions,
) -> Result<(Location, Option<MaskPatterns>), Failure> {
    let mask_patterns = options.mask_patterns.map(units);
    let create = NotNull::value(options.create).unwrap_or(true);
    let location = match (options.folder, options.state_dir, options.session_key) {
        (Some(folder), None, None) => Location::Folder {
            folder,
            summary_file: options
                .summary_file
                .map(|name| name.to_string_lossy().into_owned()),
            create,
        },
        (None, Some(state_dir), Some(key)) if options.summary_file.is_none() => {
            if key.is_empty() {
                return Err(Failure::Range(
                    "The value of \"options.sessionKey\" is out of range. It must be a non-empty string.".into(),
                ));
            }
            Location::Key {
                state_dir,
                key: key.to_vec(),
                create,
            }
        }
        _ => return Err(Failure::Type(
            "The \"options\" argument must have either \"folder\" (and \"summaryFile\") or \"stateDir\" and \"sessionKey\"".into(),
        )),
    };
    Ok((location, mask_patterns))
}

/// `appendEntry(entry, options)`: the entry, and whether to sync.
pub fn append_args(
    entry: arg::PersistentChatLogEntry,
    options: Option<arg::ChatStoreAppendOptions>,
) -> Result<(LogEntry, bool), Failure> {
    let entry = entry.read("entry")?.0;
    let options = options.map(|options| options.read("options")).transpose()?;
    let durable = options.and_then(|options| options.sync).unwrap_or(true);
    Ok((entry, durable))
}

/// `rebuildSummary(params)`'s fields.
pub struct SummaryArgs {
    pub entries: Option<Vec<LogEntry>>,
    pub current_session: Option<Vec<u16>>,
    pub now_ms: Option<f64>,
    pub max_chars: Option<f64>,
}

pub fn summary_args(params: Option<arg::ChatStoreSummaryParams>) -> Result<SummaryArgs, Failure> {
    let params = params.map(|params| params.read("params")).transpose()?;
    let Some(params) = params else {
        return Ok(SummaryArgs {
            entries: None,
            current_session: None,
            now_ms: None,
            max_chars: None,
        });
    };
    Ok(SummaryArgs {
        entries: params.entries.map(|entries| {
            entries
                .into_iter()
                .map(|LoggedEntry(entry)| entry)
                .collect()
        }),
        current_session: params.current_session.map(|session| session.to_vec()),
        now_ms: params.now.map(|EpochMs(ms)| ms),
        max_chars: Limit::value(params.max_chars),
    })
}

/// What `appendEntry` did.
#[napi(object, object_from_js = false)]
pub struct ChatStoreAppendResult {
    /// Bytes written (the line, its `\n`, and a leading `\n` when repaired).
    pub bytes: f64,
    /// The log did not end with `\n` (a torn line): one was written first.
    pub repaired_torn_line: bool,
    /// The log was created by this append.
    pub created: bool,
}

impl From<Appended> for ChatStoreAppendResult {
    fn from(done: Appended) -> Self {
        ChatStoreAppendResult {
            bytes: done.bytes as f64,
            repaired_torn_line: done.repaired_torn_line,
            created: done.created,
        }
    }
}

/// The log window of a turn (`readTurnWindow`).
#[napi(object, object_from_js = false)]
pub struct ChatStoreTurnWindow {
    /// The last entries of the log, oldest first.
    #[napi(ts_type = "PersistentChatLogEntry[]")]
    pub entries: Vec<super::persistent_chat::PersistentChatLogEntry>,
    /// Whether the turn is a reload: no `currentSession`, or none of the
    /// entries belongs to it (the backend holds none of the log).
    pub reload: bool,
    /// Lines skipped while reading (garbage, torn, oversized).
    pub skipped_lines: u32,
}

/// One path of a chat folder, as `inspect` found it (not following a symlink).
#[napi(object, object_from_js = false)]
pub struct ChatStoreItem {
    pub path: String,
    /// `'file'`, `'folder'`, `'symlink'`, `'fifo'`, `'socket'`, `'device'`,
    /// `'other'`; absent when it does not exist.
    pub kind: Option<String>,
    /// The permission bits (e.g. `0o600`); absent on Windows and WASI.
    pub mode: Option<u32>,
    /// The owner's uid; absent on Windows and WASI.
    pub uid: Option<u32>,
    pub links: Option<f64>,
    pub size: Option<f64>,
}

/// The log's end, as `inspect` read it.
#[napi(object, object_from_js = false)]
pub struct ChatStoreLogFacts {
    /// The log's path.
    pub path: String,
    pub bytes: f64,
    /// Valid entries among the last ones read (at most the window).
    pub entries: u32,
    /// Lines skipped among them (invalid, torn, oversized).
    pub skipped_lines: u32,
    /// The log does not end with a line break (the next append starts a new line).
    pub torn_last_line: bool,
    /// The newest backend session an entry names.
    #[napi(ts_type = "string")]
    pub last_session: Option<Utf16String>,
}

/// A problem `inspect` found.
#[napi(object, object_from_js = false)]
pub struct ChatStoreProblem {
    pub path: String,
    /// `'owner'` (someone else's), `'writable'` (by group or others),
    /// `'not-sticky'` (a shared state dir), `'type'` (not a regular file or
    /// folder, or hard-linked): the store refuses these; `'readable'` (by
    /// others: used, not private), `'unreadable'` (the log's read failed).
    #[napi(ts_type = "'owner' | 'writable' | 'not-sticky' | 'type' | 'readable' | 'unreadable'")]
    pub kind: String,
    /// What is wrong, in the refusal's words.
    pub message: String,
}

/// What `inspect` found in a chat folder.
#[napi(object, object_from_js = false)]
pub struct ChatStoreInspection {
    pub folder: String,
    /// The uid the rules expect (this process's effective uid); absent on Windows and WASI.
    pub expected_uid: Option<u32>,
    /// The state dir, the folder, then each of its files that exists.
    pub items: Vec<ChatStoreItem>,
    /// Absent when there is no log yet (or it is not a regular file).
    pub log: Option<ChatStoreLogFacts>,
    pub problems: Vec<ChatStoreProblem>,
}

fn kind_name(kind: openclaw_context_core::store::rules::Kind) -> &'static str {
    use openclaw_context_core::store::rules::Kind;
    match kind {
        Kind::File => "file",
        Kind::Folder => "folder",
        Kind::Symlink => "symlink",
        Kind::Fifo => "fifo",
        Kind::Socket => "socket",
        Kind::CharDevice | Kind::BlockDevice => "device",
        Kind::Other => "other",
    }
}

impl ChatStoreLogFacts {
    fn new(facts: LogFacts, path: String) -> Self {
        ChatStoreLogFacts {
            path,
            bytes: facts.bytes as f64,
            entries: u32::try_from(facts.entries).unwrap_or(u32::MAX),
            skipped_lines: u32::try_from(facts.skipped_lines).unwrap_or(u32::MAX),
            torn_last_line: facts.torn_last_line,
            last_session: facts.last_session.map(Into::into),
        }
    }
}

impl From<Inspection> for ChatStoreInspection {
    fn from(report: Inspection) -> Self {
        ChatStoreInspection {
            folder: report.folder.to_string_lossy().into_owned(),
            expected_uid: report.expected_uid,
            items: report
                .items
                .into_iter()
                .map(|item| ChatStoreItem {
                    path: item.path.to_string_lossy().into_owned(),
                    kind: item.status.map(|s| kind_name(s.kind).to_owned()),
                    mode: item.status.and_then(|s| s.mode),
                    uid: item.status.and_then(|s| s.uid),
                    links: item.status.map(|s| s.links as f64),
                    size: item.status.map(|s| s.size as f64),
                })
                .collect(),
            log: report.log.map(|facts| {
                let path = report.folder.join(LOG_FILE).to_string_lossy().into_owned();
                ChatStoreLogFacts::new(facts, path)
            }),
            problems: report
                .problems
                .into_iter()
                .map(|problem| ChatStoreProblem {
                    path: problem.path.to_string_lossy().into_owned(),
                    kind: problem.kind.as_str().to_owned(),
                    message: problem.what,
                })
                .collect(),
        }
    }
}
