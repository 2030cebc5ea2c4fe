//! `import`: a chat's log backfilled from an export of this package (its
//! lines, byte for byte) or from what OpenClaw stored for the session (its
//! transcript's user and assistant messages: JSON Lines files to 2026.6,
//! `transcript_events` rows from 2026.7, read by the caller).
//!
//! - Every candidate is keyed: its `id`, else its time, role and a hash of
//!   its text. One already in the log is not imported again, so a rerun
//!   imports nothing. An OpenClaw message that the gateway logged itself
//!   (the same role and text within five minutes) is not imported either.
//! - An export is checked whole before anything is written: a line that is
//!   not a valid entry, or a torn last line, refuses the file, naming the
//!   line.
//! - Every line enters through the store's in door (`store::writer`):
//!   masked with the built-in patterns, the `<private>` rule and the
//!   operator's patterns, and cut to the readers' line cap. An export line
//!   that this leaves as it was is imported byte for byte (an export of a
//!   masked log comes back exactly); the report counts the lines masking
//!   changed and the entries cut. A user turn of OpenClaw's that holds an
//!   injected prompt is imported as its live message alone (`injected`).
//! - Into a log that is empty or missing, the candidates are written in
//!   their order (an export then comes back byte for byte). Into one that
//!   has entries, they are merged in time order: the log's lines keep their
//!   order and each new entry goes before the first later one.
//! - The log is written under the folder's exclusive lock through a temp
//!   file, synced and renamed over it (a torn last line stays last, as it
//!   was), its own lines through the in door too; the search index is
//!   removed. Without `apply` nothing is written, created or locked.

use std::collections::{HashMap, HashSet};

use std::path::{Path, PathBuf};
use std::sync::Arc;

use sha2::{Digest, Sha256};

use super::chat::{absolute, Chat};
use super::injected::live_message;
use super::out::shown;
use crate::error::CoreError;
use crate::mask::Masker;
use crate::persistent_chat::fs::open_state_file;
use crate::persistent_chat::json::{self, Json};
use crate::persistent_chat::log::{parse_log_line, LogEntry, Role, Timestamp};
use crate::persistent_chat::time::format_iso_utc;
use crate::persistent_chat::Links;
use crate::store::layout::{earlier_folder_names, folder_name, INDEX_FILE, LOG_FILE};
use crate::store::lines::for_each_line;
use crate::store::lock::{ChatLock, LockKind, WAIT};
use crate::store::rewrite::{Keep, LogRewrite, NewLog};
use crate::store::sys::{self, Access, Folder, StateDir};
use crate::store::tombstones::Tombstones;
use crate::store::writer::{entry_line, existing_line, Written};
use crate::store::ChatStore;

/// One event of OpenClaw's transcript, as its store holds it.
#[derive(Debug, Clone, PartialEq)]
pub struct TranscriptEvent {
    /// OpenClaw's session id the event belongs to.
    pub session_id: Vec<u16>,
    /// The event's JSON (`{"type":"message","message":{"role",…},…}`).
    pub json: Vec<u8>,
    /// When it was stored (epoch ms), for an event without a timestamp.
    pub stored_at: Option<f64>,
    /// Its position in the session (for an event without an id).
    pub seq: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum ImportSource {
    /// An export of this package (JSON Lines).
    Export(PathBuf),
    /// OpenClaw's transcript: JSON Lines files (with their session ids),
    /// and events the caller read from its SQLite store.
    OpenClaw {
        files: Vec<(Vec<u16>, PathBuf)>,
        events: Vec<TranscriptEvent>,
    },
}

#[derive(Debug, Clone)]
pub struct ImportOptions {
    pub chat: Chat,
    pub source: ImportSource,
    pub apply: bool,
    /// What every imported line is masked with: the built-in patterns and
    /// the operator's (`mask::masker_for`).
    pub masker: Arc<Masker>,
    /// Import the entries `forget` removed from the chat too (they are left
    /// out otherwise, and counted).
    pub force: bool,
}

/// What an import read and added (or, without `apply`, would add).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Imported {
    pub log_path: PathBuf,
    pub applied: bool,
    /// Entries the source holds (user and assistant messages).
    pub read: u64,
    /// Entries added to the log.
    pub imported: u64,
    /// Entries the log holds already (by key, or logged by the gateway).
    pub already: u64,
    /// Transcript events that are not a user or assistant message with text.
    pub skipped_events: u64,
    /// User turns that held an injected prompt: their live message imported.
    pub live_messages: u64,
    /// Entries added before the log's last entry (merged, not appended).
    pub merged: u64,
    /// The first and last time among the entries added (ISO-8601).
    pub first_ts: Option<String>,
    pub last_ts: Option<String>,
    /// Lines of the source whose text masking changed.
    pub masked: u64,
    /// Entries cut to the readers' line cap.
    pub cut: u64,
    /// Entries `forget` removed from this chat, left out (see `force`).
    pub forgotten: u64,
}

/// An entry's identity, 16 bytes of SHA-256: over its `id` when it has
/// one, else over its time, role and text. A digest, not the fields, so a
/// million candidates of a large import cost 16 bytes each.
type Key = [u8; 16];

fn digest(parts: &[&[u8]]) -> [u8; 16] {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    let mut out = [0u8; 16];
    out.copy_from_slice(&hasher.finalize()[..16]);
    out
}

fn units_le(units: &[u16]) -> Vec<u8> {
    units.iter().flat_map(|unit| unit.to_le_bytes()).collect()
}

fn text_hash(text: &[u16]) -> [u8; 16] {
    digest(&[&units_le(text)])
}

fn key_of(entry: &LogEntry) -> Key {
    match &entry.id {
        Some(id) => digest(&[b"id", &units_le(id)]),
        None => {
            let ts = entry.ts.as_ref().map(|ts| units_le(&ts.display()));
            digest(&[
                b"content",
                ts.as_deref().unwrap_or(b"-"),
                entry.role.as_str().as_bytes(),
                &text_hash(&entry.text),
            ])
        }
    }
}

/// One entry to import: its key, its time, where its line is (no `\n`). A
/// million of them for a large export: 64 bytes each, its line's bytes read
/// again from the source when it is written, never held.
struct Candidate {
    key: Key,
    hash: [u8; 16],
    /// Epoch ms; NaN when it has no readable time.
    ms: f64,
    /// The export's byte offset of the line, or (an OpenClaw message) the
    /// index of its line in [`Source::owned`].
    at: u64,
    len: u32,
    role: Role,
    from_openclaw: bool,
}

impl Candidate {
    fn of(entry: &LogEntry, at: u64, len: usize, from_openclaw: bool) -> Self {
        Candidate {
            key: key_of(entry),
            hash: text_hash(&entry.text),
            ms: entry
                .ts
                .as_ref()
                .and_then(Timestamp::epoch_ms)
                .unwrap_or(f64::NAN),
            at,
            len: u32::try_from(len).unwrap_or(u32::MAX),
            role: entry.role,
            from_openclaw,
        }
    }

    fn ms(&self) -> Option<f64> {
        (!self.ms.is_nan()).then_some(self.ms)
    }
}

/// Where the candidates' lines are: the export file, or the lines made of
/// OpenClaw's messages.
#[derive(Default)]
struct Source {
    file: Option<(std::fs::File, PathBuf)>,
    owned: Vec<Vec<u8>>,
}

impl Source {
    /// A candidate's line, as it goes through the in door.
    fn bytes(&self, candidate: &Candidate) -> Result<std::borrow::Cow<'_, [u8]>, CoreError> {
        if candidate.from_openclaw {
            let line = usize::try_from(candidate.at)
                .ok()
                .and_then(|at| self.owned.get(at));
            return Ok(std::borrow::Cow::Borrowed(
                line.map_or(&[][..], Vec::as_slice),
            ));
        }
        let Some((file, path)) = &self.file else {
            return Ok(std::borrow::Cow::Borrowed(&[]));
        };
        let mut line = vec![0u8; candidate.len as usize];
        let read = crate::persistent_chat::fs::read_full_at(file, &mut line, candidate.at)
            .map_err(|err| CoreError::io(&err, "read", &shown(path)))?;
        if read < line.len() {
            return Err(crate::store::lines::shrank(path));
        }
        Ok(std::borrow::Cow::Owned(line))
    }
}

/// An OpenClaw message the gateway logged itself is within this of it.
const SAME_TURN_MS: f64 = 5.0 * 60.0 * 1000.0;

/// Imports `options.source` into `options.chat`'s log.
pub fn import(options: &ImportOptions) -> Result<Imported, CoreError> {
    let mut report = Imported {
        applied: options.apply,
        ..Imported::default()
    };
    let masker = &*options.masker;
    // What forget removed from this chat stays out unless forced (the
    // chat's folder looked up only: nothing is created before the source is
    // read whole and found good).
    let forgotten = match (open_target(&options.chat, false)?, options.force) {
        ((Some(folder), _), false) => Tombstones::read(&folder)?,
        _ => Tombstones::default(),
    };
    // The source is read before the chat is locked: a large one must not
    // hold the gateway's appends.
    let (candidates, source) = match &options.source {
        ImportSource::Export(path) => {
            export_candidates(&absolute(path), masker, &forgotten, &mut report)?
        }
        ImportSource::OpenClaw { files, events } => {
            openclaw_candidates(files, events, masker, &forgotten, &mut report)?
        }
    };
    report.read = candidates.len() as u64 + report.forgotten;
    let (folder, log_name) = open_target(&options.chat, options.apply)?;
    report.log_path = match &folder {
        Some(folder) => folder.path.join(&log_name),
        None => target_path(&options.chat),
    };
    let _lock = match (&folder, options.apply) {
        (Some(folder), true) => Some(ChatLock::take(folder, LockKind::Exclusive, WAIT)?),
        _ => None,
    };
    let Some(folder) = folder else {
        // Dry run into a chat that does not exist yet: everything is new.
        let fresh = dedupe(candidates, &Existing::default(), &mut report);
        count_added(&fresh, &mut report, None);
        return Ok(report);
    };
    let existing = Existing::read(&folder, &log_name, masker)?;
    let mut fresh = dedupe(candidates, &existing, &mut report);
    if !existing.keys.is_empty() {
        // Stable: entries of one time keep the source's order; no time goes last.
        fresh.sort_by(|a, b| match (a.ms(), b.ms()) {
            (Some(x), Some(y)) => x.total_cmp(&y),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        });
    }
    count_added(&fresh, &mut report, existing.last_ms);
    drop(existing);
    if fresh.is_empty() || !options.apply {
        return Ok(report);
    }
    write_merged(&folder, &log_name, &fresh, &source, masker)?;
    if folder.status_of(INDEX_FILE)?.is_some() {
        folder
            .remove(INDEX_FILE)
            .map_err(|err| CoreError::io(&err, "unlink", &shown(&folder.path.join(INDEX_FILE))))?;
    }
    folder.sync()?;
    Ok(report)
}

fn count_added(fresh: &[Candidate], report: &mut Imported, last_ms: Option<f64>) {
    report.imported = fresh.len() as u64;
    report.merged = fresh
        .iter()
        .filter(|c| matches!((c.ms(), last_ms), (Some(ms), Some(last)) if ms < last))
        .count() as u64;
    let first = fresh.iter().filter_map(Candidate::ms).reduce(f64::min);
    let last = fresh.iter().filter_map(Candidate::ms).reduce(f64::max);
    report.first_ts = first.and_then(format_iso_utc);
    report.last_ts = last.and_then(format_iso_utc);
}

/// What the log holds: its entries' keys, and (role, text hash) → times.
#[derive(Default)]
struct Existing {
    keys: HashSet<Key>,
    texts: HashMap<(Role, [u8; 16]), Vec<f64>>,
    last_ms: Option<f64>,
}

impl Existing {
    /// The log's entries as the in door leaves them (a log an earlier writer
    /// stored unmasked is keyed as it will be once rewritten, so a masked
    /// export of it is not imported twice).
    fn read(folder: &Folder, log_name: &str, masker: &Masker) -> Result<Existing, CoreError> {
        let mut existing = Existing::default();
        let Some((log, status, _)) = folder.open_file(log_name, Access::Read)? else {
            return Ok(existing);
        };
        let path = folder.path.join(log_name);
        for_each_line(&log, status.size, &path, |line| {
            let written = existing_line(line.strip_suffix(b"\n").unwrap_or(line), masker);
            if let Some(entry) = parse_log_line(&written.line) {
                let ms = entry.ts.as_ref().and_then(Timestamp::epoch_ms);
                if let Some(ms) = ms {
                    existing.last_ms = Some(existing.last_ms.map_or(ms, |last| last.max(ms)));
                    existing
                        .texts
                        .entry((entry.role, text_hash(&entry.text)))
                        .or_default()
                        .push(ms);
                }
                existing.keys.insert(key_of(&entry));
            }
            Ok(())
        })?;
        Ok(existing)
    }

    fn logged_by_gateway(&self, candidate: &Candidate) -> bool {
        let (Some(ms), true) = (candidate.ms(), candidate.from_openclaw) else {
            return false;
        };
        self.texts
            .get(&(candidate.role, candidate.hash))
            .is_some_and(|times| times.iter().any(|t| (t - ms).abs() <= SAME_TURN_MS))
    }
}

/// The candidates the log does not hold, each key once (in place: a large
/// import holds its candidates once).
fn dedupe(
    mut candidates: Vec<Candidate>,
    existing: &Existing,
    report: &mut Imported,
) -> Vec<Candidate> {
    let mut seen: HashSet<Key> = HashSet::new();
    candidates.retain(|candidate| {
        let fresh = !existing.keys.contains(&candidate.key)
            && !existing.logged_by_gateway(candidate)
            && seen.insert(candidate.key);
        if !fresh {
            report.already += 1;
        }
        fresh
    });
    candidates
}

/// The chat's folder (created with `apply`) and the log's name in it;
/// `None` in a dry run when the folder does not exist.
fn open_target(chat: &Chat, apply: bool) -> Result<(Option<Folder>, String), CoreError> {
    match chat {
        Chat::Log(path) => {
            let path = absolute(path);
            let (Some(parent), Some(name)) = (
                path.parent(),
                path.file_name().and_then(std::ffi::OsStr::to_str),
            ) else {
                return Err(CoreError::Refused {
                    path: shown(&path),
                    what: "not a file name (a root, `..` or not Unicode)".into(),
                });
            };
            match sys::open_folder(parent, apply) {
                Ok((folder, _)) => Ok((Some(folder), name.to_owned())),
                Err(CoreError::Io { code: "ENOENT", .. }) if !apply => Ok((None, name.to_owned())),
                Err(err) => Err(err),
            }
        }
        Chat::Key { state_dir, key } => {
            let state_dir = absolute(state_dir);
            if apply {
                let store = ChatStore::open_for_key(&state_dir, key)?;
                let (folder, _) = sys::open_folder(store.folder(), false)?;
                return Ok((Some(folder), LOG_FILE.to_owned()));
            }
            let state = match StateDir::open(&state_dir, false) {
                Ok(state) => state,
                Err(CoreError::Io { code: "ENOENT", .. }) => {
                    return Ok((None, LOG_FILE.to_owned()))
                }
                Err(err) => return Err(err),
            };
            let name = folder_name(key);
            let names = std::iter::once(name).chain(earlier_folder_names(key));
            for candidate in names {
                if state.status_of(&candidate)?.is_some() {
                    return Ok((
                        Some(state.folder(&candidate, false)?.0),
                        LOG_FILE.to_owned(),
                    ));
                }
            }
            Ok((None, LOG_FILE.to_owned()))
        }
    }
}

fn target_path(chat: &Chat) -> PathBuf {
    match chat {
        Chat::Log(path) => absolute(path),
        Chat::Key { state_dir, key } => absolute(state_dir).join(folder_name(key)).join(LOG_FILE),
    }
}

/// An export's lines, each a valid entry, or the file refused naming the
/// first line that is not; each through the in door, keyed as the log will
/// hold it. Only where each line is, is kept (its bytes are read again when
/// it is written); those `forgotten` names are left out.
fn export_candidates(
    path: &Path,
    masker: &Masker,
    forgotten: &Tombstones,
    report: &mut Imported,
) -> Result<(Vec<Candidate>, Source), CoreError> {
    let (file, metadata) = open_state_file(path, Links::Refuse)?;
    crate::progress::expect(metadata.len());
    let mut candidates = Vec::new();
    let mut number = 0u64;
    let mut offset = 0u64;
    let end = for_each_line(&file, metadata.len(), path, |line| {
        number += 1;
        crate::progress::advance(line.len() as u64);
        let at = offset;
        offset += line.len() as u64;
        let Some(entry) = parse_log_line(line) else {
            return Err(CoreError::Refused {
                path: shown(path),
                what: format!("line {number} is not a valid log entry; nothing was imported"),
            });
        };
        let bare = line.strip_suffix(b"\n").unwrap_or(line);
        let written = existing_line(bare, masker);
        // Keyed as the log will hold it: a rerun finds it there.
        let stored = match &written.line {
            std::borrow::Cow::Owned(line) => parse_log_line(line).unwrap_or(entry),
            std::borrow::Cow::Borrowed(_) => entry,
        };
        if forgotten.holds(&stored) {
            report.forgotten += 1;
            return Ok(());
        }
        count_written(&written, report);
        candidates.push(Candidate::of(&stored, at, bare.len(), false));
        Ok(())
    })?;
    if end.torn_bytes > 0 {
        return Err(CoreError::Refused {
            path: shown(path),
            what: format!(
                "line {} is torn (no line break at the end); nothing was imported",
                number + 1
            ),
        });
    }
    Ok((
        candidates,
        Source {
            file: Some((file, path.to_owned())),
            owned: Vec::new(),
        },
    ))
}

fn count_written(written: &Written, report: &mut Imported) {
    report.masked += u64::from(written.masked);
    report.cut += u64::from(written.cut);
}

/// OpenClaw's messages, from its JSON Lines files and the caller's events.
fn openclaw_candidates(
    files: &[(Vec<u16>, PathBuf)],
    events: &[TranscriptEvent],
    masker: &Masker,
    forgotten: &Tombstones,
    report: &mut Imported,
) -> Result<(Vec<Candidate>, Source), CoreError> {
    let mut candidates = Vec::new();
    let mut source = Source::default();
    let mut take = |event: &TranscriptEvent, report: &mut Imported| match message_entry(event) {
        Some((entry, live)) => {
            let written = entry_line(&entry, masker);
            let line = written.line.into_owned();
            let entry = parse_log_line(&line).unwrap_or(entry);
            if forgotten.holds(&entry) {
                report.forgotten += 1;
                return;
            }
            if live {
                report.live_messages += 1;
            }
            report.masked += u64::from(written.masked);
            report.cut += u64::from(written.cut);
            let at = source.owned.len() as u64;
            candidates.push(Candidate::of(&entry, at, line.len(), true));
            source.owned.push(line);
        }
        None => report.skipped_events += 1,
    };
    for (session_id, path) in files {
        let path = absolute(path);
        let (file, metadata) = open_state_file(&path, Links::Refuse)?;
        let mut seq = 0f64;
        for_each_line(&file, metadata.len(), &path, |line| {
            seq += 1.0;
            let event = TranscriptEvent {
                session_id: session_id.clone(),
                json: line.to_vec(),
                stored_at: None,
                seq: Some(seq),
            };
            take(&event, report);
            Ok(())
        })?;
    }
    for event in events {
        take(event, report);
    }
    Ok((candidates, source))
}

/// One transcript event's JSON as `import` reads it: its entry (`None` for
/// anything but a user or assistant message with text) and whether its
/// text was an injected prompt. For the fuzz target.
pub fn transcript_entry(json: &[u8]) -> Option<(LogEntry, bool)> {
    message_entry(&TranscriptEvent {
        session_id: "s".encode_utf16().collect(),
        json: json.to_vec(),
        stored_at: None,
        seq: Some(1.0),
    })
}

/// A message event's entry (`None` for any other event, a role other than
/// user or assistant, or no text), and whether its text was an injected
/// prompt.
fn message_entry(event: &TranscriptEvent) -> Option<(LogEntry, bool)> {
    let line = event.json.strip_suffix(b"\n").unwrap_or(&event.json);
    let value = json::parse(line).ok()?;
    if value
        .get("type")
        .and_then(Json::as_text)
        .is_some_and(|t| t != "message".encode_utf16().collect::<Vec<_>>())
    {
        return None;
    }
    let message = value.get("message")?;
    let role = message
        .get("role")
        .and_then(Json::as_text)
        .and_then(Role::from_text)?;
    if !matches!(role, Role::User | Role::Assistant) {
        return None;
    }
    let mut text = match message.get("content")? {
        Json::String(text) => text.clone(),
        Json::Array(parts) => {
            let mut joined: Vec<u16> = Vec::new();
            for part in parts {
                let is_text = part
                    .get("type")
                    .and_then(Json::as_text)
                    .is_some_and(|t| t == "text".encode_utf16().collect::<Vec<_>>());
                if let (true, Some(piece)) = (is_text, part.get("text").and_then(Json::as_text)) {
                    if !joined.is_empty() {
                        joined.push(0x0a);
                    }
                    joined.extend_from_slice(piece);
                }
            }
            joined
        }
        _ => return None,
    };
    let mut live = false;
    if role == Role::User {
        if let Some(message) = live_message(&text) {
            text = message;
            live = true;
        }
    }
    if crate::utf16::trim(&text).is_empty() {
        return None;
    }
    let ms = value
        .get("timestamp")
        .and_then(Timestamp::from_json)
        .or_else(|| message.get("timestamp").and_then(Timestamp::from_json))
        .and_then(|ts| ts.epoch_ms())
        .or(event.stored_at);
    let ts = ms
        .and_then(format_iso_utc)
        .map(|iso| Timestamp::Text(iso.encode_utf16().collect()));
    let event_id = value
        .get("id")
        .and_then(Json::as_text)
        .map(<[u16]>::to_vec)
        .or_else(|| event.seq.map(crate::persistent_chat::log::js_number_text));
    let id = event_id.map(|event_id| {
        let mut id: Vec<u16> = "openclaw:".encode_utf16().collect();
        id.extend_from_slice(&event.session_id);
        id.push(u16::from(b':'));
        id.extend_from_slice(&event_id);
        id
    });
    Some((
        LogEntry {
            role,
            text,
            ts,
            session: None,
            status: None,
            id,
        },
        live,
    ))
}

/// The log rewritten with `fresh` merged in, its own lines through the in
/// door too (the store's rewrite: what a writer without the lock appends
/// meanwhile is kept, after what is merged). Each candidate's line is read
/// from `source` as it is written.
fn write_merged(
    folder: &Folder,
    log_name: &str,
    fresh: &[Candidate],
    source: &Source,
    masker: &Masker,
) -> Result<(), CoreError> {
    let mut next = 0;
    let mut merge = |line: &[u8], new: &mut NewLog| {
        if let Some(ms) =
            parse_log_line(line).and_then(|entry| entry.ts.as_ref().and_then(Timestamp::epoch_ms))
        {
            while next < fresh.len() && fresh[next].ms().is_some_and(|new| new < ms) {
                new.line(&source.bytes(&fresh[next])?)?;
                next += 1;
            }
        }
        Ok(Keep::Line)
    };
    let mut rewrite = LogRewrite::begin(folder, log_name, masker)?;
    rewrite.read(&mut merge)?;
    // The rest is later than every line read: it goes last, but for a torn
    // last line, which stays last.
    for candidate in &fresh[next..] {
        rewrite.new.line(&source.bytes(candidate)?)?;
    }
    rewrite.commit(&mut |_, _| Ok(Keep::Line), &|_| true)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TempDir;

    fn u(text: &str) -> Vec<u16> {
        text.encode_utf16().collect()
    }

    fn private_folder(dir: &TempDir) -> PathBuf {
        let folder = dir.0.join("chat");
        std::fs::create_dir(&folder).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o700)).unwrap();
        }
        folder
    }

    const EXPORT: &str = concat!(
        "{\"ts\":\"2026-01-01T00:00:00.000Z\",\"role\":\"user\",\"text\":\"one\",\"id\":\"a\"}\n",
        "{\"ts\":\"2026-01-03T00:00:00.000Z\",\"role\":\"assistant\",\"text\":\"three\",\"id\":\"c\"}\n",
    );

    fn import_export(log: &Path, export: &Path, apply: bool) -> Result<Imported, CoreError> {
        import(&ImportOptions {
            chat: Chat::Log(log.to_owned()),
            source: ImportSource::Export(export.to_owned()),
            apply,
            masker: crate::mask::builtin_masker(),
            force: false,
        })
    }

    #[test]
    fn an_export_comes_back_byte_for_byte_and_a_rerun_adds_nothing() {
        let dir = TempDir::new("import");
        let folder = private_folder(&dir);
        let export = dir.file("export.jsonl", EXPORT.as_bytes());
        let log = folder.join(LOG_FILE);
        let dry = import_export(&log, &export, false).unwrap();
        assert_eq!((dry.read, dry.imported), (2, 2));
        assert!(!log.exists());
        let done = import_export(&log, &export, true).unwrap();
        assert_eq!(done.imported, 2);
        assert_eq!(std::fs::read_to_string(&log).unwrap(), EXPORT);
        let again = import_export(&log, &export, true).unwrap();
        assert_eq!((again.imported, again.already), (0, 2));
        assert_eq!(std::fs::read_to_string(&log).unwrap(), EXPORT);
    }

    #[test]
    fn new_entries_are_merged_in_time_order_and_a_torn_end_stays_last() {
        let dir = TempDir::new("import");
        let folder = private_folder(&dir);
        let log = folder.join(LOG_FILE);
        std::fs::write(
            &log,
            "{\"ts\":\"2026-01-02T00:00:00.000Z\",\"role\":\"user\",\"text\":\"two\",\"id\":\"b\"}\n{\"role\":\"us",
        )
        .unwrap();
        let export = dir.file("export.jsonl", EXPORT.as_bytes());
        let done = import_export(&log, &export, true).unwrap();
        assert_eq!((done.imported, done.merged), (2, 1));
        let text = std::fs::read_to_string(&log).unwrap();
        let ids: Vec<_> = text
            .lines()
            .filter_map(|l| parse_log_line(l.as_bytes()))
            .map(|e| String::from_utf16_lossy(&e.id.unwrap()))
            .collect();
        assert_eq!(ids, ["a", "b", "c"]);
        assert!(text.ends_with("\n{\"role\":\"us"));
    }

    #[test]
    fn a_hostile_or_torn_export_is_refused_whole_naming_the_line() {
        let dir = TempDir::new("import");
        let folder = private_folder(&dir);
        let log = folder.join(LOG_FILE);
        for (body, line) in [
            (format!("{EXPORT}not json\n"), "line 3 is not"),
            (
                format!("{EXPORT}{{\"role\":\"root\",\"text\":\"x\"}}\n"),
                "line 3 is not",
            ),
            (format!("{EXPORT}{{\"role\":\"user\""), "line 3 is torn"),
        ] {
            let export = dir.file("bad.jsonl", body.as_bytes());
            let err = import_export(&log, &export, true).unwrap_err().to_string();
            assert!(err.contains(line), "{err}");
            assert!(!log.exists());
        }
    }

    #[test]
    fn an_export_enters_through_the_in_door_masked_and_capped() {
        let dir = TempDir::new("import");
        let folder = private_folder(&dir);
        let log = folder.join(LOG_FILE);
        let huge = "x".repeat(16 << 20);
        let body = format!(
            "{}{}{EXPORT}",
            "{\"ts\":\"2026-01-02T00:00:00.000Z\",\"role\":\"user\",\"text\":\"pin <private>4921</private> and ghp_abcdefghijklmnopqrstuvwxyz0123456789\",\"id\":\"p\"}\n",
            format_args!("{{\"ts\":\"2026-01-02T00:00:01.000Z\",\"role\":\"user\",\"text\":\"{huge}\",\"id\":\"h\"}}\n"),
        );
        let export = dir.file("export.jsonl", body.as_bytes());
        let done = import_export(&log, &export, true).unwrap();
        assert_eq!((done.imported, done.masked, done.cut), (4, 1, 1));
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(!text.contains("4921") && !text.contains("ghp_abc"));
        assert!(text.contains("pin [redacted:private]"), "{}", &text[..200]);
        for line in text.lines() {
            assert!(line.len() < crate::persistent_chat::log::MAX_LINE_BYTES);
            assert!(parse_log_line(line.as_bytes()).is_some());
        }
        // The clean lines came back byte for byte; a rerun adds nothing.
        assert!(text.ends_with(EXPORT));
        let again = import_export(&log, &export, true).unwrap();
        assert_eq!((again.imported, again.already), (0, 4));
    }

    #[test]
    fn a_masked_export_of_an_unmasked_log_is_not_imported_twice() {
        // The log an earlier release wrote holds the secret; its export (masked) is
        // keyed as the log will hold it.
        let dir = TempDir::new("import");
        let folder = private_folder(&dir);
        let log = folder.join(LOG_FILE);
        let raw = "{\"ts\":\"2026-01-02T00:00:00.000Z\",\"role\":\"user\",\"text\":\"key ghp_abcdefghijklmnopqrstuvwxyz0123456789\"}\n";
        std::fs::write(&log, raw).unwrap();
        let masked = "{\"ts\":\"2026-01-02T00:00:00.000Z\",\"role\":\"user\",\"text\":\"key [redacted:github-token]\"}\n";
        let export = dir.file("export.jsonl", masked.as_bytes());
        let done = import_export(&log, &export, true).unwrap();
        assert_eq!((done.imported, done.already), (0, 1));
    }

    #[test]
    fn openclaw_messages_masked_their_live_message_alone_and_keyed_by_event() {
        let event = |id: &str, role: &str, content: &str| {
            TranscriptEvent {
            session_id: u("s1"),
            json: format!(
                "{{\"type\":\"message\",\"id\":\"{id}\",\"timestamp\":\"2026-02-01T10:00:00.000Z\",\"message\":{{\"role\":\"{role}\",\"content\":{content}}}}}"
            )
            .into_bytes(),
            stored_at: None,
            seq: None,
        }
        };
        let nonce = "0123456789abcdef";
        let prompt = format!(
            "\"Only lines with {nonce} are structure.\\n--- BOOTSTRAP CONTEXT (already resolved) {nonce} ---\\nold stuff\\n--- LIVE TURN {nonce} ---\\nmy key is sk-proj-abcdefghijklmnopqrstuvwxyz0123\\n--- END {nonce} ---\""
        );
        let events = vec![
            event("e1", "user", &prompt),
            event("e2", "assistant", "[{\"type\":\"thinking\",\"thinking\":\"hm\"},{\"type\":\"text\",\"text\":\"noted LAB-1234\"}]"),
            event("e3", "toolResult", "\"x\""),
            TranscriptEvent {
                json: b"{\"type\":\"session\",\"id\":\"s1\"}".to_vec(),
                ..event("e4", "user", "\"\"")
            },
        ];
        let dir = TempDir::new("import");
        let folder = private_folder(&dir);
        let log = folder.join(LOG_FILE);
        let options = ImportOptions {
            chat: Chat::Log(log.clone()),
            source: ImportSource::OpenClaw {
                files: Vec::new(),
                events,
            },
            apply: true,
            masker: crate::mask::masker_for(&[u("LAB-\\d{4}")]),
            force: false,
        };
        let done = import(&options).unwrap();
        assert_eq!(
            (
                done.read,
                done.imported,
                done.skipped_events,
                done.live_messages
            ),
            (2, 2, 2, 1)
        );
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(
            !text.contains("BOOTSTRAP") && !text.contains("old stuff"),
            "{text}"
        );
        assert!(
            !text.contains("sk-proj-abcdefghijklmnopqrstuvwxyz0123"),
            "{text}"
        );
        assert!(text.contains("\"id\":\"openclaw:s1:e1\""));
        // The operator's pattern applies to what OpenClaw stored.
        assert!(
            text.contains("\"text\":\"noted [redacted:custom]\""),
            "{text}"
        );
        assert_eq!(done.masked, 2);
        let again = import(&options).unwrap();
        assert_eq!((again.imported, again.already), (0, 2));
    }
}
