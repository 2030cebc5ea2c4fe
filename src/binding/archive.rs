//! JS values <-> the core's archive: the readers of `ChatStore.exportLog`'s
//! and `ChatStore.backup`'s options and the objects they and
//! `ChatStore.verify` return.

use std::fmt::Display;
use std::path::PathBuf;
use std::sync::Arc;

use napi::bindgen_prelude::Buffer;
use napi::ValueType;
use napi_derive::napi;
use openclaw_context_core::archive::{
    parse_bound, Backup, BackupForm, BackupOptions, Chat, ExportFormat, ExportOptions, Exported,
    ForgetRule, Forgotten, ForgottenEntry, ImportOptions, ImportSource, Imported, Restore,
    RestoreOptions, TranscriptEvent, Verification,
};

use openclaw_context_core::mask::{masker_for, Masker};

use super::params::{
    ChatStoreBackupOptions, ChatStoreExportOptions, ChatStoreForgetOptions, ChatStoreForgetRule,
    ChatStoreImportOptions, ChatStoreRestoreOptions,
};
use super::shape::{units, FromJs};
use super::text::Utf16String;
use super::{Failure, Js};

/// `maskPatterns` of an options shape: the operator's patterns (as
/// `SecretMasker` takes them) besides the built-in ones, compiled once per
/// list and shared.
fn masker_of(patterns: Option<Vec<Utf16String>>) -> Arc<Masker> {
    masker_for(&units(patterns.unwrap_or_default()))
}

/// `exportLog`'s options, read: the chat, the filters, the output file.
pub struct ExportArgs {
    pub chat: Chat,
    pub options: ExportOptions,
    pub masker: Arc<Masker>,
    pub out: Option<PathBuf>,
}

/// `{ log }` or `{ stateDir, sessionKey }` of `call`'s options.
fn chat(
    log: Option<PathBuf>,
    state_dir: Option<PathBuf>,
    key: Option<Utf16String>,
    call: &str,
) -> Result<Chat, Failure> {
    match (log, state_dir, key) {
        (Some(log), None, None) => Ok(Chat::Log(log)),
        (None, Some(state_dir), Some(key)) if !key.is_empty() => Ok(Chat::Key {
            state_dir,
            key: key.to_vec(),
        }),
        (None, Some(_), Some(_)) => Err(Failure::Range(
            "The value of \"options.sessionKey\" is out of range. It must be a non-empty string."
                .into(),
        )),
        _ => Err(Failure::Type(format!(
            "The \"options\" argument of {call} must have either \"log\" or \"stateDir\" and \"sessionKey\""
        ))),
    }
}

/// A time bound: epoch milliseconds (a number, or digits), or an ISO-8601
/// date or date-time string.
pub struct TimeBound(f64);

impl FromJs for TimeBound {
    fn from_js(value: Js<'_>, name: &dyn Display) -> Result<Self, Failure> {
        let out_of_range = |shown: String| {
            Failure::Range(format!(
                "The value of \"{name}\" is out of range. It must be an ISO-8601 date or date-time, or epoch milliseconds. Received {shown}"
            ))
        };
        match value.kind()? {
            ValueType::Number => {
                let ms = value.number(name)?;
                if ms.is_finite() {
                    Ok(TimeBound(ms))
                } else {
                    Err(out_of_range(ms.to_string()))
                }
            }
            ValueType::String => {
                let text = String::from_utf16_lossy(&value.string(name)?);
                parse_bound(&text)
                    .map(TimeBound)
                    .ok_or_else(|| out_of_range(format!("{text:?}")))
            }
            _ => Err(Failure::Type(format!(
                "The \"{name}\" argument must be of type string or number. {}",
                value.describe()
            ))),
        }
    }
}

fn ms(bound: Option<TimeBound>) -> Option<f64> {
    bound.map(|TimeBound(ms)| ms)
}

/// Entry ids: a string, or an array of strings; none of them empty.
pub struct EntryIds(Vec<Vec<u16>>);

impl FromJs for EntryIds {
    fn from_js(value: Js<'_>, name: &dyn Display) -> Result<Self, Failure> {
        let ids = if value.kind()? == ValueType::String {
            vec![value.string(name)?]
        } else {
            units(Vec::<Utf16String>::from_js(value, name)?)
        };
        if ids.iter().any(Vec::is_empty) {
            return Err(Failure::Range(format!(
                "The value of \"{name}\" is out of range. It must be a non-empty string."
            )));
        }
        Ok(EntryIds(ids))
    }
}

pub fn export_args(options: ChatStoreExportOptions) -> Result<ExportArgs, Failure> {
    let chat = chat(
        options.log,
        options.state_dir,
        options.session_key,
        "exportLog",
    )?;
    let format = options
        .format
        .map(|format| String::from_utf16_lossy(&format));
    let format = match format.as_deref() {
        None | Some("jsonl") => ExportFormat::Jsonl,
        Some("md") => ExportFormat::Markdown,
        Some(format) => {
            return Err(Failure::Range(format!(
                "The value of \"options.format\" is out of range. It must be 'jsonl' or 'md'. Received {format:?}"
            )))
        }
    };
    let (since, until) = (ms(options.since), ms(options.until));
    if let (Some(since), Some(until)) = (since, until) {
        if until <= since {
            return Err(Failure::Range(format!(
                "The value of \"options.until\" is out of range. It must be after \"options.since\" ({since}). Received {until}"
            )));
        }
    }
    Ok(ExportArgs {
        chat,
        options: ExportOptions {
            format,
            since,
            until,
        },
        masker: masker_of(options.mask_patterns),
        out: options.out,
    })
}

/// A forget rule's fields, checked: at least one of `id`, `before`,
/// `match`, and no empty `match`.
fn forget_rule(
    ids: Option<EntryIds>,
    before: Option<TimeBound>,
    text: Option<Utf16String>,
    ignore_case: Option<bool>,
) -> Result<ForgetRule, Failure> {
    let ids = ids.map(|EntryIds(ids)| ids).unwrap_or_default();
    let before = ms(before);
    let text = text.map(|text| text.to_vec());
    if text.as_ref().is_some_and(Vec::is_empty) {
        return Err(Failure::Range(
            "The value of \"options.match\" is out of range. It must be a non-empty string.".into(),
        ));
    }
    if ids.is_empty() && before.is_none() && text.is_none() {
        return Err(Failure::Type(
            "The \"options\" argument of forget must have \"id\", \"before\" or \"match\"".into(),
        ));
    }
    Ok(ForgetRule {
        ids,
        before,
        text,
        ignore_case: ignore_case.unwrap_or(false),
    })
}

/// `ChatStore#forget`'s rule, and whether to apply it.
pub fn forget_args(options: ChatStoreForgetRule) -> Result<(ForgetRule, bool), Failure> {
    let rule = forget_rule(
        options.id,
        options.before,
        options.r#match,
        options.ignore_case,
    )?;
    Ok((rule, options.apply.unwrap_or(false)))
}

/// `ChatStore.forgetIn`'s options, read.
pub struct ForgetInArgs {
    pub chat: Chat,
    pub rule: ForgetRule,
    pub apply: bool,
    pub masker: Arc<Masker>,
}

pub fn forget_in_args(options: ChatStoreForgetOptions) -> Result<ForgetInArgs, Failure> {
    let chat = chat(
        options.log,
        options.state_dir,
        options.session_key,
        "forget",
    )?;
    Ok(ForgetInArgs {
        chat,
        rule: forget_rule(
            options.id,
            options.before,
            options.r#match,
            options.ignore_case,
        )?,
        apply: options.apply.unwrap_or(false),
        masker: masker_of(options.mask_patterns),
    })
}

/// One entry `forget` removed.
#[napi(object, object_from_js = false)]
pub struct ChatStoreForgottenEntry {
    /// Its 1-based line number in the log before the rewrite.
    pub line: f64,
    /// Absent for a line that is not a valid entry.
    pub role: Option<String>,
    /// As logged (a number as an ISO-8601 instant).
    pub ts: Option<String>,
    pub id: Option<String>,
    /// The start of its text (at most 200 UTF-16 units).
    pub text: String,
}

/// What `forget` removed, or (without `apply`) would remove.
#[napi(object, object_from_js = false)]
pub struct ChatStoreForget {
    pub log_path: String,
    pub applied: bool,
    /// Complete lines of the log read.
    pub lines: f64,
    /// Lines removed (all of them; `removed` lists the first 10,000).
    pub removed_lines: f64,
    pub removed_bytes: f64,
    pub removed: Vec<ChatStoreForgottenEntry>,
    /// Derived files of the folder removed (summary, last prompt, index).
    pub derived_files: Vec<String>,
    /// Strings of memory-state.json that held a forgotten text.
    pub memory_state_strings: f64,
    /// Temp files of the folder removed.
    pub temp_files: Vec<String>,
    /// Without `ignoreCase`: the entries `match` holds only with case and
    /// accents folded, kept (the first 10,000; `missedLines` counts all).
    pub missed_by_case: Vec<ChatStoreForgottenEntry>,
    pub missed_lines: f64,
    /// Kept lines the rewrite masked (an earlier writer stored them
    /// unmasked).
    pub masked_lines: f64,
    /// Lines a writer without the chat's lock appended during the rewrite,
    /// carried into the new log.
    pub carried_lines: f64,
}

impl From<Forgotten> for ChatStoreForget {
    fn from(report: Forgotten) -> Self {
        let text = |units: &[u16]| String::from_utf16_lossy(units);
        let shown = |entries: &[ForgottenEntry]| {
            entries
                .iter()
                .map(|entry| ChatStoreForgottenEntry {
                    line: entry.line as f64,
                    role: entry.role.map(|role| role.as_str().to_owned()),
                    ts: entry.ts.as_ref().map(|ts| text(&ts.display())),
                    id: entry.id.as_deref().map(text),
                    text: text(&entry.text),
                })
                .collect()
        };
        ChatStoreForget {
            log_path: report.log_path.to_string_lossy().into_owned(),
            applied: report.applied,
            lines: report.lines as f64,
            removed_lines: report.removed_lines as f64,
            removed_bytes: report.removed_bytes as f64,
            removed: shown(&report.removed),
            derived_files: report.derived_files,
            memory_state_strings: report.memory_state_strings as f64,
            temp_files: report.temp_files,
            missed_by_case: shown(&report.missed_by_case),
            missed_lines: report.missed_lines as f64,
            masked_lines: report.masked_lines as f64,
            carried_lines: report.carried_lines as f64,
        }
    }
}

pub fn backup_args(options: ChatStoreBackupOptions) -> Result<BackupOptions, Failure> {
    if options
        .session_key
        .as_ref()
        .is_some_and(|key| key.is_empty())
    {
        return Err(Failure::Range(
            "The value of \"options.sessionKey\" is out of range. It must be a non-empty string."
                .into(),
        ));
    }
    Ok(BackupOptions {
        state_dir: options.state_dir,
        session_key: options.session_key.map(|key| key.to_vec()),
        out: options.out,
        apply: options.apply.unwrap_or(false),
    })
}

/// What `exportLog` read and wrote.
#[napi(object, object_from_js = false)]
pub struct ChatStoreExport {
    /// The log read.
    pub log_path: String,
    /// The file written (`options.out`); absent when `data` holds the export.
    pub out: Option<String>,
    /// The export's bytes when no `out` was given.
    pub data: Option<Buffer>,
    /// Complete lines read (the log up to its last line break when opened).
    pub lines: f64,
    /// Lines (jsonl) or entries (md) written.
    pub exported: f64,
    /// Entries outside `since`/`until`.
    pub filtered_out: f64,
    /// Lines left out because they are not a valid entry, or have no
    /// readable time while a time filter is on.
    pub not_entries: f64,
    /// Entries whose text masking changed (written masked).
    pub masked: f64,
    /// Bytes of a torn last line, left out.
    pub torn_bytes: f64,
    /// Bytes written.
    pub bytes: f64,
}

impl ChatStoreExport {
    pub fn new(report: Exported, out: Option<PathBuf>, data: Option<Vec<u8>>) -> Self {
        ChatStoreExport {
            log_path: report.log_path.to_string_lossy().into_owned(),
            out: out.map(|p| p.to_string_lossy().into_owned()),
            data: data.map(Buffer::from),
            lines: report.lines as f64,
            exported: report.exported as f64,
            filtered_out: report.filtered_out as f64,
            masked: report.masked as f64,
            not_entries: report.not_entries as f64,
            torn_bytes: report.torn_bytes as f64,
            bytes: report.bytes as f64,
        }
    }
}

/// One file of a backup, as its manifest records it.
#[napi(object, object_from_js = false)]
pub struct ChatStoreBackupFile {
    pub name: String,
    /// Bytes copied (the log: up to its last line break when opened).
    pub size: f64,
    /// SHA-256 of the bytes copied, lower-case hex.
    pub sha256: String,
    /// The log's complete lines copied.
    pub lines: Option<f64>,
    /// The log's valid entries copied.
    pub entries: Option<f64>,
    /// Bytes after the log's last line break when it was opened (a torn
    /// line, or one being written): left out.
    pub left_out_bytes: f64,
}

/// One chat of a backup.
#[napi(object, object_from_js = false)]
pub struct ChatStoreBackupChat {
    /// The chat folder's name under the state dir.
    pub folder: String,
    pub files: Vec<ChatStoreBackupFile>,
}

/// A path the store's rules refused (left out of the backup).
#[napi(object, object_from_js = false)]
pub struct ChatStoreBackupRefusal {
    pub path: String,
    /// The refusal (`ENOTREGULAR: …`).
    pub message: String,
}

/// What `backup` copied, or would copy.
#[napi(object, object_from_js = false)]
pub struct ChatStoreBackup {
    pub out: String,
    #[napi(ts_type = "'folder' | 'tar'")]
    pub form: String,
    /// `out` was written (`apply`); otherwise a dry run: read and hashed only.
    pub written: bool,
    pub chats: Vec<ChatStoreBackupChat>,
    /// Chat folders or files the store's rules refused: not copied.
    pub refused: Vec<ChatStoreBackupRefusal>,
    /// Other names found and not copied (not a chat file: the search index,
    /// temp files; hidden names; names that are not Unicode).
    pub not_copied: Vec<String>,
}

impl From<Backup> for ChatStoreBackup {
    fn from(report: Backup) -> Self {
        ChatStoreBackup {
            out: report.out.to_string_lossy().into_owned(),
            form: match report.form {
                BackupForm::Folder => "folder",
                BackupForm::Tar => "tar",
            }
            .to_owned(),
            written: report.written,
            chats: report
                .chats
                .into_iter()
                .map(|chat| ChatStoreBackupChat {
                    folder: chat.folder,
                    files: chat
                        .files
                        .into_iter()
                        .map(|file| ChatStoreBackupFile {
                            name: file.name,
                            size: file.size as f64,
                            sha256: file.sha256,
                            lines: file.lines.map(|n| n as f64),
                            entries: file.entries.map(|n| n as f64),
                            left_out_bytes: file.left_out_bytes as f64,
                        })
                        .collect(),
                })
                .collect(),
            refused: report
                .refused
                .into_iter()
                .map(|r| ChatStoreBackupRefusal {
                    path: r.path.to_string_lossy().into_owned(),
                    message: r.what,
                })
                .collect(),
            not_copied: report
                .not_copied
                .into_iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect(),
        }
    }
}

/// A problem `verify` found.
#[napi(object, object_from_js = false)]
pub struct ChatStoreVerifyProblem {
    /// The file or folder (in a tar: `TAR:folder/name`).
    pub path: String,
    /// A backup: `'manifest'`, `'missing-chat'`, `'missing-file'`,
    /// `'extra'`, `'size'`, `'checksum'`, `'entries'`, `'torn'`, `'type'`,
    /// `'unreadable'`; a state dir: `inspect`'s kinds, `'torn'`,
    /// `'invalid-lines'`, `'unreadable'`.
    pub kind: String,
    pub message: String,
}

/// What `verify` checked and found.
#[napi(object, object_from_js = false)]
pub struct ChatStoreVerification {
    pub path: String,
    #[napi(ts_type = "'backup-folder' | 'backup-tar' | 'state-dir'")]
    pub kind: String,
    /// Chat folders checked.
    pub chats: f64,
    /// Files checked.
    pub files: f64,
    /// Empty when clean.
    pub problems: Vec<ChatStoreVerifyProblem>,
}

impl From<Verification> for ChatStoreVerification {
    fn from(report: Verification) -> Self {
        ChatStoreVerification {
            path: report.path.to_string_lossy().into_owned(),
            kind: report.kind.as_str().to_owned(),
            chats: report.chats as f64,
            files: report.files as f64,
            problems: report
                .problems
                .into_iter()
                .map(|p| ChatStoreVerifyProblem {
                    path: p.path,
                    kind: p.kind.to_owned(),
                    message: p.what,
                })
                .collect(),
        }
    }
}

pub fn restore_args(options: ChatStoreRestoreOptions) -> Result<RestoreOptions, Failure> {
    Ok(RestoreOptions {
        from: options.from,
        state_dir: options.state_dir,
        apply: options.apply.unwrap_or(false),
        force: options.force.unwrap_or(false),
        masker: masker_of(options.mask_patterns),
    })
}

/// One chat of a restore.
#[napi(object, object_from_js = false)]
pub struct ChatStoreRestoredChat {
    /// The chat folder's name under the state dir.
    pub folder: String,
    /// `create` (no such folder), `replace`, `unchanged` (its log is the
    /// backup's already) or `refused` (its log has lines the backup lacks).
    #[napi(ts_type = "'create' | 'replace' | 'unchanged' | 'refused'")]
    pub action: String,
    /// The backup's files for it.
    pub files: Vec<String>,
    /// Valid entries of the backup's log.
    pub entries: f64,
    /// Lines of the live log the backup lacks (lost when `force` replaces it).
    pub live_only_lines: f64,
    /// Lines of the backup's log that masking changed: restored masked (an
    /// earlier writer had stored them unmasked).
    pub masked_lines: f64,
    /// Entries of the backup's log that `forget` removed from the chat
    /// since: left out (unless `force`).
    pub forgotten: f64,
}

/// What `ChatStore.restore` did, or (without `apply`) would do.
#[napi(object, object_from_js = false)]
pub struct ChatStoreRestore {
    pub from: String,
    pub state_dir: String,
    pub applied: bool,
    pub chats: Vec<ChatStoreRestoredChat>,
    /// The backup's problems, as `verify` names them: when any, nothing is
    /// restored (`chats` is empty).
    pub problems: Vec<ChatStoreVerifyProblem>,
}

impl From<Restore> for ChatStoreRestore {
    fn from(report: Restore) -> Self {
        ChatStoreRestore {
            from: report.from.to_string_lossy().into_owned(),
            state_dir: report.state_dir.to_string_lossy().into_owned(),
            applied: report.applied,
            chats: report
                .chats
                .into_iter()
                .map(|chat| ChatStoreRestoredChat {
                    folder: chat.folder,
                    action: chat.action.as_str().to_owned(),
                    files: chat.files,
                    entries: chat.entries as f64,
                    live_only_lines: chat.live_only_lines as f64,
                    masked_lines: chat.masked_lines as f64,
                    forgotten: chat.forgotten as f64,
                })
                .collect(),
            problems: report
                .problems
                .into_iter()
                .map(|p| ChatStoreVerifyProblem {
                    path: p.path,
                    kind: p.kind.to_owned(),
                    message: p.what,
                })
                .collect(),
        }
    }
}

/// `importLog`'s options: the chat, then `fromExport` (a file) or
/// `fromOpenclaw` (`{ files: [{ sessionId, path }], events: [{ sessionId,
/// json, storedAt?, seq? }] }`), and `apply`.
pub fn import_args(options: ChatStoreImportOptions) -> Result<ImportOptions, Failure> {
    let chat = chat(
        options.log,
        options.state_dir,
        options.session_key,
        "importLog",
    )?;
    let source = match (options.from_export, options.from_openclaw) {
        (Some(path), None) => ImportSource::Export(path),
        (None, Some(openclaw)) => ImportSource::OpenClaw {
            files: openclaw
                .files
                .unwrap_or_default()
                .into_iter()
                .map(|file| (file.session_id.to_vec(), file.path))
                .collect(),
            events: openclaw
                .events
                .unwrap_or_default()
                .into_iter()
                .map(|event| TranscriptEvent {
                    session_id: event.session_id.to_vec(),
                    json: String::from_utf16_lossy(&event.json).into_bytes(),
                    stored_at: event.stored_at,
                    seq: event.seq,
                })
                .collect(),
        },
        _ => {
            return Err(Failure::Type(
                "The \"options\" argument of importLog must have either \"fromExport\" or \"fromOpenclaw\"".into(),
            ))
        }
    };
    Ok(ImportOptions {
        chat,
        source,
        apply: options.apply.unwrap_or(false),
        masker: masker_of(options.mask_patterns),
        force: options.force.unwrap_or(false),
    })
}

/// What `ChatStore.importLog` read and added, or (without `apply`) would add.
#[napi(object, object_from_js = false)]
pub struct ChatStoreImport {
    pub log_path: String,
    pub applied: bool,
    /// Entries the source holds (user and assistant messages).
    pub read: f64,
    /// Entries added to the log.
    pub imported: f64,
    /// Entries the log holds already (by key; or logged by the gateway).
    pub already: f64,
    /// Transcript events that are not a user or assistant message with text.
    pub skipped_events: f64,
    /// User turns that held an injected prompt: their live message imported.
    pub live_messages: f64,
    /// Entries added before the log's last entry (merged in time order).
    pub merged: f64,
    /// The first and last time among the entries added.
    pub first_ts: Option<String>,
    pub last_ts: Option<String>,
    /// Entries of the source whose text masking changed (imported masked).
    pub masked: f64,
    /// Entries cut to the log's 8 MiB line cap (their text ends with `… [N
    /// more characters cut]`).
    pub cut: f64,
    /// Entries `forget` removed from the chat, left out (unless `force`).
    pub forgotten: f64,
}

impl From<Imported> for ChatStoreImport {
    fn from(report: Imported) -> Self {
        ChatStoreImport {
            log_path: report.log_path.to_string_lossy().into_owned(),
            applied: report.applied,
            read: report.read as f64,
            imported: report.imported as f64,
            already: report.already as f64,
            skipped_events: report.skipped_events as f64,
            live_messages: report.live_messages as f64,
            merged: report.merged as f64,
            first_ts: report.first_ts,
            last_ts: report.last_ts,
            masked: report.masked as f64,
            cut: report.cut as f64,
            forgotten: report.forgotten as f64,
        }
    }
}
