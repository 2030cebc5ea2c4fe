//! `forget`: entries removed from a chat's log (by id, by time, or holding a
//! literal text) and from every file derived from it, so that no byte of
//! what was forgotten stays in the chat folder.
//!
//! - The log is rewritten whole: its kept lines into a private temp file of
//!   the folder (0600, `O_EXCL`), synced, renamed over the log, the folder
//!   synced. A reader sees the old log or the new one; a crash leaves the
//!   old log and a temp file the next open removes.
//! - Under the folder's lock, exclusive (`store::lock`): appends wait for
//!   the rewrite, so none is lost. Lines a writer that takes no lock (an
//!   older release of the plugin) appended meanwhile are carried over.
//! - The derived files are removed: the continuity summary, the last
//!   prompt's copy and the search index are rebuilt from the log at the next
//!   turn or search. The memory script's state is not derived from the log
//!   alone, so it is kept: its strings that hold a forgotten text lose it
//!   (an array's item holding it is dropped, any other string has the text
//!   replaced by `[forgotten]`). Temp files of the folder (any process's:
//!   no lock holder is writing one) are removed too.
//! - Without `apply` nothing is written, created or locked: the report says
//!   what would be removed.

use std::io::{BufWriter, Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

use super::chat::{open_folder, Chat};
use super::lines::for_each_line;
use crate::error::CoreError;
use crate::persistent_chat::fs::{read_at_most, read_full_at};
use crate::persistent_chat::json::{self, Json};
use crate::persistent_chat::log::{parse_log_line, LogEntry, Role, Timestamp};
use crate::persistent_chat::state::MAX_STATE_FILE_BYTES;
use crate::store::entry_json::value_json;
use crate::store::layout::{INDEX_FILE, LAST_PROMPT_FILE, MEMORY_STATE_FILE, SUMMARY_FILE};
use crate::store::lock::{ChatLock, LockKind, WAIT};
use crate::store::replace::{is_temp_name, replace_file, temp_name};
use crate::store::sys::{Access, Folder};
use crate::utf16;

/// Which entries to forget: an entry that matches any of the rules.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ForgetRule {
    /// Entries with one of these ids.
    pub ids: Vec<Vec<u16>>,
    /// Entries whose time is before this (epoch ms; exclusive). An entry
    /// without a readable time is kept.
    pub before: Option<f64>,
    /// Entries (and unreadable lines) holding this text, literally (case
    /// and all). Not empty.
    pub text: Option<Vec<u16>>,
}

impl ForgetRule {
    fn is_empty(&self) -> bool {
        self.ids.is_empty() && self.before.is_none() && self.text.is_none()
    }
}

/// One removed entry, as the report shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct ForgottenEntry {
    /// Its 1-based line number in the log before the rewrite.
    pub line: u64,
    /// `None` for a line that is not a valid entry.
    pub role: Option<Role>,
    pub ts: Option<Timestamp>,
    pub id: Option<Vec<u16>>,
    /// The start of its text (at most [`SHOWN_TEXT_UNITS`] units).
    pub text: Vec<u16>,
}

/// Removed entries listed in the report at most (all are counted).
pub const MAX_LISTED: usize = 10_000;
/// Units of each removed entry's text the report shows.
pub const SHOWN_TEXT_UNITS: usize = 200;

/// What a forget removed (or, without `apply`, would remove).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Forgotten {
    pub log_path: PathBuf,
    pub applied: bool,
    /// Complete lines of the log read.
    pub lines: u64,
    /// The removed entries, first [`MAX_LISTED`].
    pub removed: Vec<ForgottenEntry>,
    /// Lines removed (a torn last line holding the text counts as one).
    pub removed_lines: u64,
    pub removed_bytes: u64,
    /// Derived files of the folder removed (names).
    pub derived_files: Vec<String>,
    /// The memory state's strings that held a forgotten text.
    pub memory_state_strings: u64,
    /// Temp files removed (names).
    pub temp_files: Vec<String>,
}

/// Removes what `rule` matches from `chat`'s log and derived files; a dry
/// run unless `apply`.
pub fn forget(chat: &Chat, rule: &ForgetRule, apply: bool) -> Result<Forgotten, CoreError> {
    if rule.is_empty() || rule.text.as_ref().is_some_and(Vec::is_empty) {
        return Err(CoreError::OutOfRange {
            message: "The value of \"options\" is out of range. It must be an id, a time or a non-empty text to forget. Received nothing".into(),
        });
    }
    let (folder, log_name) = open_folder(chat)?;
    let _lock = if apply {
        Some(ChatLock::take(&folder, LockKind::Exclusive, WAIT)?)
    } else {
        None
    };
    let mut report = Forgotten {
        log_path: folder.path.join(&log_name),
        applied: apply,
        ..Forgotten::default()
    };
    let mut needles: Vec<Vec<u16>> = rule.text.iter().cloned().collect();
    rewrite_log(&folder, &log_name, rule, apply, &mut report, &mut needles)?;
    report.memory_state_strings = scrub_memory_state(&folder, &needles, apply)?;
    let changed = report.removed_lines > 0 || report.memory_state_strings > 0;
    let index_beside = format!("{log_name}.search-index");
    let mut derived = vec![SUMMARY_FILE, LAST_PROMPT_FILE, INDEX_FILE];
    if index_beside != INDEX_FILE {
        derived.push(&index_beside);
    }
    for name in derived {
        if folder.status_of(name)?.is_none() {
            continue;
        }
        if !changed && !file_holds(&folder, name, &needles)? {
            continue;
        }
        if apply {
            folder.remove(name).map_err(|err| {
                CoreError::io(&err, "unlink", &folder.path.join(name).to_string_lossy())
            })?;
        }
        report.derived_files.push(name.to_owned());
    }
    for name in folder.names().unwrap_or_default() {
        if !is_temp_name(&name) {
            continue;
        }
        if apply && folder.remove(&name).is_err() {
            continue;
        }
        report.temp_files.push(name);
    }
    if apply && (changed || !report.derived_files.is_empty()) {
        folder.sync()?;
    }
    Ok(report)
}

/// The rule, with its text's UTF-8 form for the raw lines.
struct Matcher<'a> {
    rule: &'a ForgetRule,
    text_bytes: Option<memchr::memmem::Finder<'static>>,
}

impl<'a> Matcher<'a> {
    fn new(rule: &'a ForgetRule) -> Self {
        let text_bytes = rule.text.as_ref().map(|text| {
            memchr::memmem::Finder::new(String::from_utf16_lossy(text).as_bytes()).into_owned()
        });
        Matcher { rule, text_bytes }
    }

    /// Whether raw bytes hold the text.
    fn raw_holds(&self, bytes: &[u8]) -> bool {
        self.text_bytes
            .as_ref()
            .is_some_and(|finder| finder.find(bytes).is_some())
    }
}

/// Whether line `entry` (or the raw `line`, when it is no entry) matches.
fn matches(matcher: &Matcher, line: &[u8], entry: Option<&LogEntry>) -> bool {
    let rule = matcher.rule;
    if let Some(text) = &rule.text {
        if matcher.raw_holds(line) || entry.is_some_and(|e| utf16::contains(&e.text, text)) {
            return true;
        }
    }
    let Some(entry) = entry else {
        return false;
    };
    if entry.id.as_ref().is_some_and(|id| rule.ids.contains(id)) {
        return true;
    }
    match (rule.before, entry.ts.as_ref().and_then(Timestamp::epoch_ms)) {
        (Some(before), Some(ms)) => ms < before,
        _ => false,
    }
}

/// Texts of removed entries that the memory state is searched for: whole
/// texts of at least this many units (a short one, "ok", would scrub
/// unrelated strings) and at most [`MAX_STATE_NEEDLE_UNITS`] (a memory
/// state's strings are notes, not pasted logs), at most
/// [`MAX_STATE_NEEDLES`] of them: what a forget holds in memory stays
/// bounded (1,000 × 64 Ki units) whatever the log's entries weigh.
const MIN_STATE_NEEDLE_UNITS: usize = 16;
const MAX_STATE_NEEDLE_UNITS: usize = 64 * 1024;
const MAX_STATE_NEEDLES: usize = 1_000;

/// The log's lines through `rule`: the kept ones into a temp file renamed
/// over the log (with `apply`), the removed ones into `report`.
fn rewrite_log(
    folder: &Folder,
    log_name: &str,
    rule: &ForgetRule,
    apply: bool,
    report: &mut Forgotten,
    needles: &mut Vec<Vec<u16>>,
) -> Result<(), CoreError> {
    let log_path = folder.path.join(log_name);
    let shown = log_path.to_string_lossy().into_owned();
    let Some((mut log, status, _)) = folder.open_file(log_name, Access::Read)? else {
        return Ok(());
    };
    let matcher = Matcher::new(rule);
    let mut temp = None;
    if apply {
        let name = temp_name(log_name);
        let file = folder.create_new(&name)?;
        temp = Some(Kept {
            shown: folder.path.join(&name).to_string_lossy().into_owned(),
            name,
            out: BufWriter::with_capacity(1 << 16, file),
        });
    }
    let result = (|| {
        let mut line_number = 0u64;
        let mut from = 0u64;
        let mut size = status.size;
        loop {
            log.seek(SeekFrom::Start(from))
                .map_err(|err| CoreError::io(&err, "read", &shown))?;
            let end = for_each_line(&log, size - from, &log_path, |line| {
                line_number += 1;
                report.lines += 1;
                let entry = parse_log_line(line);
                if !matches(&matcher, line, entry.as_ref()) {
                    if let Some(kept) = temp.as_mut() {
                        kept.write(line)?;
                    }
                    return Ok(());
                }
                report.removed_lines += 1;
                report.removed_bytes += line.len() as u64;
                if let Some(entry) = &entry {
                    if (MIN_STATE_NEEDLE_UNITS..=MAX_STATE_NEEDLE_UNITS).contains(&entry.text.len())
                        && needles.len() < MAX_STATE_NEEDLES
                    {
                        needles.push(entry.text.clone());
                    }
                }
                if report.removed.len() < MAX_LISTED {
                    report.removed.push(shown_entry(line_number, entry));
                }
                Ok(())
            })?;
            from += end.whole_bytes;
            // Lines appended by a writer that takes no lock, while this one
            // read: read them too, until the log stops growing.
            let now = log
                .metadata()
                .map_err(|err| CoreError::io(&err, "fstat", &shown))?
                .len();
            if !apply || now <= size {
                // The torn last line, kept as it is unless it holds the text.
                let torn = end.torn_bytes;
                if torn > 0 {
                    let mut bytes = Vec::new();
                    log.seek(SeekFrom::Start(from))
                        .and_then(|_| (&log).take(torn).read_to_end(&mut bytes))
                        .map_err(|err| CoreError::io(&err, "read", &shown))?;
                    if matcher.raw_holds(&bytes) {
                        report.removed_lines += 1;
                        report.removed_bytes += torn;
                    } else if let Some(kept) = temp.as_mut() {
                        kept.write(&bytes)?;
                    }
                }
                return Ok(());
            }
            size = now;
        }
    })();
    let Some(Kept { name, shown, out }) = temp else {
        return result;
    };
    let finished = result.and_then(|()| {
        if report.removed_lines == 0 {
            return Ok(false);
        }
        let file = out
            .into_inner()
            .map_err(|err| CoreError::io(err.error(), "write", &shown))?;
        file.sync_all()
            .map_err(|err| CoreError::io(&err, "fsync", &shown))?;
        drop(file);
        // Windows cannot rename over a file that has an open handle.
        drop(log);
        folder.rename(&name, log_name)?;
        folder.sync()?;
        Ok(true)
    });
    match finished {
        Ok(true) => Ok(()),
        Ok(false) => {
            let _ = folder.remove(&name);
            Ok(())
        }
        Err(err) => {
            let _ = folder.remove(&name);
            Err(err)
        }
    }
}

/// The temp file a rewrite writes the kept lines into (`shown`: its path,
/// for errors).
struct Kept {
    name: String,
    shown: String,
    out: BufWriter<std::fs::File>,
}

impl Kept {
    fn write(&mut self, bytes: &[u8]) -> Result<(), CoreError> {
        self.out
            .write_all(bytes)
            .map_err(|err| CoreError::io(&err, "write", &self.shown))
    }
}

fn shown_entry(line: u64, entry: Option<LogEntry>) -> ForgottenEntry {
    match entry {
        Some(entry) => ForgottenEntry {
            line,
            role: Some(entry.role),
            ts: entry.ts,
            id: entry.id,
            text: utf16::grapheme_prefix(&entry.text, SHOWN_TEXT_UNITS).to_vec(),
        },
        None => ForgottenEntry {
            line,
            role: None,
            ts: None,
            id: None,
            text: "(not a valid entry)".encode_utf16().collect(),
        },
    }
}

/// Whether file `name` of the folder holds one of `needles` (as UTF-8).
fn file_holds(folder: &Folder, name: &str, needles: &[Vec<u16>]) -> Result<bool, CoreError> {
    if needles.is_empty() {
        return Ok(false);
    }
    let Some((file, status, _)) = folder.open_file(name, Access::Read)? else {
        return Ok(false);
    };
    let path = folder.path.join(name);
    let finders: Vec<_> = needles
        .iter()
        .map(|needle| {
            memchr::memmem::Finder::new(String::from_utf16_lossy(needle).as_bytes()).into_owned()
        })
        .collect();
    // Read in chunks (the index can be half the log's size): each chunk with
    // the previous one's last bytes, so a text across two chunks is found.
    let overlap = finders
        .iter()
        .map(|f| f.needle().len())
        .max()
        .unwrap_or(0)
        .saturating_sub(1);
    let mut window: Vec<u8> = Vec::with_capacity(SCAN_CHUNK + overlap);
    let mut offset = 0u64;
    loop {
        let kept = window.len();
        let want = status.size.saturating_sub(offset).min(SCAN_CHUNK as u64) as usize;
        window.resize(kept + want, 0);
        let read = read_full_at(&file, &mut window[kept..], offset)
            .map_err(|err| CoreError::io(&err, "read", &path.to_string_lossy()))?;
        window.truncate(kept + read);
        offset += read as u64;
        if finders.iter().any(|finder| finder.find(&window).is_some()) {
            return Ok(true);
        }
        if read == 0 {
            return Ok(false);
        }
        let cut = window.len().saturating_sub(overlap);
        window.drain(..cut);
    }
}

/// Bytes of a derived file scanned at a time for a forgotten text.
const SCAN_CHUNK: usize = 1 << 20;

/// The memory state with `needles` scrubbed out; the count of strings
/// that held one. Rewritten atomically with `apply`. A state that is not
/// valid JSON and holds a needle is removed whole (it cannot be edited).
fn scrub_memory_state(
    folder: &Folder,
    needles: &[Vec<u16>],
    apply: bool,
) -> Result<u64, CoreError> {
    if needles.is_empty() {
        return Ok(0);
    }
    let Some((file, status, _)) = folder.open_file(MEMORY_STATE_FILE, Access::Read)? else {
        return Ok(0);
    };
    let path = folder.path.join(MEMORY_STATE_FILE);
    let shown = path.to_string_lossy().into_owned();
    // Too large for a state, or not JSON: it cannot be edited.
    let bytes = read_at_most(file, status.size, MAX_STATE_FILE_BYTES, &shown)?;
    let Some(Ok(mut state)) = bytes.as_deref().map(json::parse) else {
        if !file_holds(folder, MEMORY_STATE_FILE, needles)? {
            return Ok(0);
        }
        if apply {
            folder
                .remove(MEMORY_STATE_FILE)
                .map_err(|err| CoreError::io(&err, "unlink", &shown))?;
        }
        return Ok(1);
    };
    let count = scrub(&mut state, needles);
    if count > 0 && apply {
        let mut out = Vec::new();
        value_json(&mut out, &state);
        out.push(b'\n');
        replace_file(folder, MEMORY_STATE_FILE, &out)?;
    }
    Ok(count)
}

const FORGOTTEN: &str = "[forgotten]";

fn holds(text: &[u16], needles: &[Vec<u16>]) -> bool {
    needles.iter().any(|needle| utf16::contains(text, needle))
}

/// Scrubs `value` in place; the count of strings (keys included) that held
/// a needle.
fn scrub(value: &mut Json, needles: &[Vec<u16>]) -> u64 {
    match value {
        Json::String(text) => {
            if !holds(text, needles) {
                return 0;
            }
            let mut out = text.clone();
            for needle in needles {
                out = replace_all(&out, needle);
            }
            *text = out;
            1
        }
        Json::Array(items) => {
            let mut count = 0;
            items.retain_mut(|item| {
                let found = scrub(&mut item.clone(), needles);
                count += found;
                found == 0
            });
            count
        }
        Json::Object(members) => {
            let mut count = 0;
            for (name, item) in members.iter_mut() {
                if holds(name, needles) {
                    count += 1;
                    let mut scrubbed = name.clone();
                    for needle in needles {
                        scrubbed = replace_all(&scrubbed, needle);
                    }
                    *name = scrubbed;
                }
                count += scrub(item, needles);
            }
            count
        }
        Json::Null | Json::Bool(_) | Json::Number(_) => 0,
    }
}

fn replace_all(text: &[u16], needle: &[u16]) -> Vec<u16> {
    let mut out = Vec::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = utf16::find(rest, needle) {
        out.extend_from_slice(&rest[..at]);
        out.extend(FORGOTTEN.encode_utf16());
        rest = &rest[at + needle.len()..];
    }
    out.extend_from_slice(rest);
    out
}

/// Reads the whole log (for tests).
#[cfg(test)]
fn read(path: &std::path::Path) -> String {
    let mut text = String::new();
    std::fs::File::open(path)
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TempDir;

    fn u(text: &str) -> Vec<u16> {
        text.encode_utf16().collect()
    }

    fn chat_with(dir: &TempDir, log: &str) -> (Chat, PathBuf) {
        let folder = dir.0.join("chat");
        std::fs::create_dir(&folder).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&folder, std::fs::Permissions::from_mode(0o700)).unwrap();
        }
        let path = folder.join("perpetual-log.jsonl");
        std::fs::write(&path, log).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
        }
        (Chat::Log(path.clone()), folder)
    }

    const LOG: &str = concat!(
        "{\"ts\":\"2026-01-01T00:00:00.000Z\",\"role\":\"user\",\"text\":\"my card PIN is 4921\",\"id\":\"a\"}\n",
        "{\"ts\":\"2026-02-01T00:00:00.000Z\",\"role\":\"assistant\",\"text\":\"noted\",\"id\":\"b\"}\n",
        "not json with 4921\n",
        "{\"ts\":\"2026-03-01T00:00:00.000Z\",\"role\":\"user\",\"text\":\"hello\",\"id\":\"c\"}\n",
    );

    #[test]
    fn a_dry_run_says_what_it_would_remove_and_changes_nothing() {
        let dir = TempDir::new("forget");
        let (chat, folder) = chat_with(&dir, LOG);
        std::fs::write(folder.join(SUMMARY_FILE), "summary").unwrap();
        let rule = ForgetRule {
            text: Some(u("4921")),
            ..ForgetRule::default()
        };
        let report = forget(&chat, &rule, false).unwrap();
        assert_eq!(report.removed_lines, 2);
        assert_eq!(report.removed[0].line, 1);
        assert_eq!(report.removed[1].role, None);
        assert_eq!(report.derived_files, vec![SUMMARY_FILE.to_owned()]);
        assert_eq!(read(&folder.join("perpetual-log.jsonl")), LOG);
        assert!(folder.join(SUMMARY_FILE).exists());
        assert!(!folder.join("chat.lock").exists());
    }

    #[test]
    fn the_text_leaves_every_file_of_the_folder() {
        let dir = TempDir::new("forget");
        let (chat, folder) = chat_with(&dir, LOG);
        std::fs::write(folder.join(SUMMARY_FILE), "PIN 4921").unwrap();
        std::fs::write(folder.join(LAST_PROMPT_FILE), "x").unwrap();
        std::fs::write(
            folder.join(MEMORY_STATE_FILE),
            "{\"decisions\":[\"keep\",\"PIN 4921 noted\"],\"note\":\"the 4921 one\",\"n\":1}",
        )
        .unwrap();
        std::fs::write(
            folder.join(".x.openclaw-context-native-1-0123abcd.tmp"),
            "4921",
        )
        .unwrap();
        let rule = ForgetRule {
            text: Some(u("4921")),
            ..ForgetRule::default()
        };
        let report = forget(&chat, &rule, true).unwrap();
        assert_eq!(report.removed_lines, 2);
        assert_eq!(report.memory_state_strings, 2);
        for entry in std::fs::read_dir(&folder).unwrap() {
            let entry = entry.unwrap();
            let bytes = std::fs::read(entry.path()).unwrap();
            assert!(
                memchr::memmem::find(&bytes, b"4921").is_none(),
                "{:?}",
                entry.file_name()
            );
        }
        assert_eq!(
            read(&folder.join(MEMORY_STATE_FILE)),
            "{\"decisions\":[\"keep\"],\"note\":\"the [forgotten] one\",\"n\":1}\n"
        );
        let log = read(&folder.join("perpetual-log.jsonl"));
        assert_eq!(log.lines().count(), 2);
        assert!(!folder.join(SUMMARY_FILE).exists());
        // Again: nothing left to remove.
        let again = forget(&chat, &rule, true).unwrap();
        assert_eq!((again.removed_lines, again.derived_files.len()), (0, 0));
        assert_eq!(read(&folder.join("perpetual-log.jsonl")), log);
    }

    #[test]
    fn a_text_only_a_derived_file_holds_is_found_across_its_read_chunks() {
        // The log no longer holds it; the last prompt's copy does, across the
        // boundary of two read chunks, and beyond the first.
        let dir = TempDir::new("forget");
        let (chat, folder) = chat_with(&dir, "{\"role\":\"user\",\"text\":\"hello\"}\n");
        for at in [SCAN_CHUNK - 2, SCAN_CHUNK * 2 + 5] {
            let mut copy = vec![b'x'; SCAN_CHUNK * 3];
            copy[at..at + 6].copy_from_slice(b"PIN 49");
            copy[at + 6..at + 8].copy_from_slice(b"21");
            std::fs::write(folder.join(LAST_PROMPT_FILE), &copy).unwrap();
            let rule = ForgetRule {
                text: Some(u("PIN 4921")),
                ..ForgetRule::default()
            };
            let report = forget(&chat, &rule, true).unwrap();
            assert_eq!(report.removed_lines, 0);
            assert_eq!(
                report.derived_files,
                vec![LAST_PROMPT_FILE.to_owned()],
                "at {at}"
            );
            assert!(!folder.join(LAST_PROMPT_FILE).exists());
        }
        // A copy without it stays.
        std::fs::write(folder.join(LAST_PROMPT_FILE), vec![b'x'; SCAN_CHUNK + 9]).unwrap();
        let rule = ForgetRule {
            text: Some(u("PIN 4921")),
            ..ForgetRule::default()
        };
        assert!(forget(&chat, &rule, true).unwrap().derived_files.is_empty());
        assert!(folder.join(LAST_PROMPT_FILE).exists());
    }

    #[test]
    fn by_id_and_by_time_before_which_is_exclusive() {
        let dir = TempDir::new("forget");
        let (chat, folder) = chat_with(&dir, LOG);
        let rule = ForgetRule {
            ids: vec![u("c")],
            before: Some(1_769_904_000_000.0), // 2026-02-01T00:00:00Z
            ..ForgetRule::default()
        };
        let report = forget(&chat, &rule, true).unwrap();
        let lines: Vec<u64> = report.removed.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![1, 4]);
        assert_eq!(
            read(&folder.join("perpetual-log.jsonl")),
            concat!(
                "{\"ts\":\"2026-02-01T00:00:00.000Z\",\"role\":\"assistant\",\"text\":\"noted\",\"id\":\"b\"}\n",
                "not json with 4921\n",
            )
        );
    }

    #[test]
    fn a_torn_last_line_is_kept_unless_it_holds_the_text() {
        let dir = TempDir::new("forget");
        let (chat, folder) =
            chat_with(&dir, &format!("{LOG}{{\"role\":\"user\",\"text\":\"PIN 49"));
        let report = forget(
            &chat,
            &ForgetRule {
                ids: vec![u("a")],
                ..ForgetRule::default()
            },
            true,
        )
        .unwrap();
        assert_eq!(report.removed_lines, 1);
        assert!(read(&folder.join("perpetual-log.jsonl")).ends_with("\"PIN 49"));
        let report = forget(
            &chat,
            &ForgetRule {
                text: Some(u("PIN 49")),
                ..ForgetRule::default()
            },
            true,
        )
        .unwrap();
        assert_eq!(report.removed_lines, 1);
        assert!(read(&folder.join("perpetual-log.jsonl")).ends_with("hello\",\"id\":\"c\"}\n"));
    }

    #[test]
    fn nothing_to_forget_is_refused() {
        let dir = TempDir::new("forget");
        let (chat, _) = chat_with(&dir, LOG);
        assert!(matches!(
            forget(&chat, &ForgetRule::default(), true),
            Err(CoreError::OutOfRange { .. })
        ));
        let empty = ForgetRule {
            text: Some(Vec::new()),
            ..ForgetRule::default()
        };
        assert!(forget(&chat, &empty, true).is_err());
    }
}
