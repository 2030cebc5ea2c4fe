//! `forget`: entries removed from a chat's log (by id, by time, or holding a
//! text) and from every file derived from it, so that no byte of what was
//! forgotten stays in the chat folder, and nothing brings it back.
//!
//! - The log is rewritten whole through the store's rewrite
//!   (`store::rewrite`): the kept lines through the in door (masked), into a
//!   private temp file of the folder, synced, renamed over the log, the
//!   folder synced. A reader sees the old log or the new one; a crash leaves
//!   the old log and a temp file the next open removes.
//! - Under the folder's lock, exclusive (`store::lock`): appends wait for
//!   the rewrite, so none is lost. Lines a writer that takes no lock (an
//!   older release of the plugin, a script) appends meanwhile, before or
//!   after the rename, are carried over.
//! - A text is matched literally, or (`ignore_case`) with case and accents
//!   folded as the search folds them; without it, the report lists the
//!   entries the folded match would also remove (`missed_by_case`).
//! - The derived files are removed: the continuity summary, the last
//!   prompt's copy and the search index are rebuilt from the log at the next
//!   turn or search. The memory script's state is not derived from the log
//!   alone, so it is kept: its strings that hold a removed entry's text, of
//!   any length (a text shorter than 16 units only as a whole word), or the
//!   rule's text, lose it (an array's item holding it is dropped, any other
//!   string has the text replaced by `[forgotten]`; folded matches lose the
//!   whole string). Temp files of the folder (any process's: no lock holder
//!   is writing one) are removed too.
//! - The removed entries' ids and keyed hashes go to the folder's list of
//!   forgotten entries (`store::tombstones`): a later `restore` or `import`
//!   skips them unless forced.
//! - Without `apply` nothing is written, created or locked: the report says
//!   what would be removed.

use std::path::PathBuf;

use super::chat::{open_folder, Chat};
use crate::error::CoreError;
use crate::mask::Masker;
use crate::persistent_chat::fs::{read_at_most, read_full_at};
use crate::persistent_chat::json::{self, Json};
use crate::persistent_chat::log::{parse_log_line, LogEntry, Role, Timestamp};
use crate::persistent_chat::state::MAX_STATE_FILE_BYTES;
use crate::search::fold_text;
use crate::store::entry_json::value_json;
use crate::store::layout::{INDEX_FILE, LAST_PROMPT_FILE, MEMORY_STATE_FILE, SUMMARY_FILE};
use crate::store::lines::for_each_line;
use crate::store::lock::{ChatLock, LockKind, WAIT};
use crate::store::replace::{is_temp_name, replace_file};
use crate::store::rewrite::{Keep, LogRewrite};
use crate::store::sys::{Access, Folder};
use crate::store::tombstones::Tombstones;
use crate::utf16;

/// Which entries to forget: an entry that matches any of the rules.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ForgetRule {
    /// Entries with one of these ids.
    pub ids: Vec<Vec<u16>>,
    /// Entries whose time is before this (epoch ms; exclusive). An entry
    /// without a readable time is kept.
    pub before: Option<f64>,
    /// Entries (and unreadable lines) holding this text: literally, or with
    /// `ignore_case` folded as the search folds (case, accents). Not empty.
    pub text: Option<Vec<u16>>,
    pub ignore_case: bool,
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
    /// The start of its text, masked (at most [`SHOWN_TEXT_UNITS`] units).
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
    /// Without `ignore_case`: entries the text matches only with case and
    /// accents folded, kept (first [`MAX_LISTED`]); `missed_lines` counts all.
    pub missed_by_case: Vec<ForgottenEntry>,
    pub missed_lines: u64,
    /// Derived files of the folder removed (names).
    pub derived_files: Vec<String>,
    /// The memory state's strings that held a forgotten text.
    pub memory_state_strings: u64,
    /// Temp files removed (names).
    pub temp_files: Vec<String>,
    /// Kept lines the rewrite masked (an earlier writer stored them
    /// unmasked).
    pub masked_lines: u64,
    /// Lines a writer without the chat's lock appended during the rewrite,
    /// carried into the new log.
    pub carried_lines: u64,
}

/// Removes what `rule` matches from `chat`'s log and derived files; a dry
/// run unless `apply`. What is kept is rewritten through the in door
/// (`masker`), and the report's texts are masked by it.
pub fn forget(
    chat: &Chat,
    rule: &ForgetRule,
    apply: bool,
    masker: &Masker,
) -> Result<Forgotten, CoreError> {
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
    let matcher = Matcher::new(rule);
    let mut removed = Removed::default();
    if apply {
        rewrite_log(
            &folder,
            &log_name,
            &matcher,
            masker,
            &mut report,
            &mut removed,
        )?;
    } else {
        read_log(
            &folder,
            &log_name,
            &matcher,
            masker,
            &mut report,
            &mut removed,
        )?;
    }
    let mut needles = Needles {
        exact: removed.texts,
        folded: Vec::new(),
    };
    if let Some(text) = &rule.text {
        match rule.ignore_case {
            true => needles
                .folded
                .push(fold_text(&String::from_utf16_lossy(text))),
            false => needles.exact.push(text.clone()),
        }
    }
    if apply && !removed.entries.is_empty() {
        Tombstones::read(&folder)?.add(&folder, &removed.entries)?;
    }
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

/// The rule, with its text's UTF-8 and folded forms.
struct Matcher<'a> {
    rule: &'a ForgetRule,
    text_bytes: Option<memchr::memmem::Finder<'static>>,
    folded: Option<String>,
}

/// How a line stands to the rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    Remove,
    Keep,
    /// Kept, but the text is in it with case or accents folded.
    KeepMissedByCase,
}

impl<'a> Matcher<'a> {
    fn new(rule: &'a ForgetRule) -> Self {
        let text_bytes = rule.text.as_ref().map(|text| {
            memchr::memmem::Finder::new(String::from_utf16_lossy(text).as_bytes()).into_owned()
        });
        let folded = rule
            .text
            .as_ref()
            .map(|text| fold_text(&String::from_utf16_lossy(text)));
        Matcher {
            rule,
            text_bytes,
            folded,
        }
    }

    /// Whether raw bytes hold the text (literally; folded with `ignore_case`).
    fn raw_holds(&self, bytes: &[u8]) -> bool {
        let literal = self
            .text_bytes
            .as_ref()
            .is_some_and(|finder| finder.find(bytes).is_some());
        literal || (self.rule.ignore_case && self.folded_holds(&String::from_utf8_lossy(bytes)))
    }

    fn folded_holds(&self, text: &str) -> bool {
        self.folded
            .as_ref()
            .is_some_and(|needle| fold_text(text).contains(needle.as_str()))
    }

    /// How line `entry` (or the raw `line`, when it is no entry) stands.
    fn verdict(&self, line: &[u8], entry: Option<&LogEntry>) -> Verdict {
        let rule = self.rule;
        if let Some(text) = &rule.text {
            let literal = self
                .text_bytes
                .as_ref()
                .is_some_and(|f| f.find(line).is_some())
                || entry.is_some_and(|e| utf16::contains(&e.text, text));
            if literal {
                return Verdict::Remove;
            }
        }
        if let Some(entry) = entry {
            if entry.id.as_ref().is_some_and(|id| rule.ids.contains(id)) {
                return Verdict::Remove;
            }
            if let (Some(before), Some(ms)) =
                (rule.before, entry.ts.as_ref().and_then(Timestamp::epoch_ms))
            {
                if ms < before {
                    return Verdict::Remove;
                }
            }
        }
        if rule.text.is_none() {
            return Verdict::Keep;
        }
        let folded = match entry {
            Some(entry) => self.folded_holds(&String::from_utf16_lossy(&entry.text)),
            None => self.folded_holds(&String::from_utf8_lossy(line)),
        };
        match (folded, rule.ignore_case) {
            (true, true) => Verdict::Remove,
            (true, false) => Verdict::KeepMissedByCase,
            (false, _) => Verdict::Keep,
        }
    }
}

/// What a forget removes: the entries (as the store holds them: masked,
/// for the list of forgotten entries) and their texts (for the memory
/// state).
#[derive(Default)]
struct Removed {
    entries: Vec<LogEntry>,
    texts: Vec<Vec<u16>>,
}

/// At most this many removed texts are looked for in the memory state, each
/// at most [`MAX_STATE_NEEDLE_UNITS`] (a memory state's strings are notes,
/// not pasted logs): what a forget holds in memory stays bounded (1,000 ×
/// 64 Ki units) whatever the log's entries weigh. The list of forgotten
/// entries holds every one.
const MAX_STATE_NEEDLE_UNITS: usize = 64 * 1024;
const MAX_STATE_NEEDLES: usize = 1_000;

/// Takes a line's verdict into the report (and, when removed, `removed`).
fn judge(
    matcher: &Matcher,
    masker: &Masker,
    line: &[u8],
    number: u64,
    report: &mut Forgotten,
    removed: &mut Removed,
) -> Keep {
    report.lines += 1;
    let entry = parse_log_line(line);
    let verdict = matcher.verdict(line, entry.as_ref());
    if verdict == Verdict::KeepMissedByCase {
        report.missed_lines += 1;
        if report.missed_by_case.len() < MAX_LISTED {
            report
                .missed_by_case
                .push(shown_entry(number, entry.clone(), masker));
        }
    }
    if verdict != Verdict::Remove {
        return Keep::Line;
    }
    report.removed_lines += 1;
    report.removed_bytes += line.len() as u64;
    if let Some(entry) = &entry {
        if entry.text.len() <= MAX_STATE_NEEDLE_UNITS && removed.texts.len() < MAX_STATE_NEEDLES {
            removed.texts.push(entry.text.clone());
        }
        removed.entries.push(LogEntry {
            text: masker.mask(&entry.text),
            ..entry.clone()
        });
    }
    if report.removed.len() < MAX_LISTED {
        report.removed.push(shown_entry(number, entry, masker));
    }
    Keep::Drop
}

/// The dry run: the log read, nothing written.
fn read_log(
    folder: &Folder,
    log_name: &str,
    matcher: &Matcher,
    masker: &Masker,
    report: &mut Forgotten,
    removed: &mut Removed,
) -> Result<(), CoreError> {
    let Some((log, status, _)) = folder.open_file(log_name, Access::Read)? else {
        return Ok(());
    };
    let path = folder.path.join(log_name);
    let mut number = 0u64;
    let end = for_each_line(&log, status.size, &path, |line| {
        number += 1;
        judge(matcher, masker, line, number, report, removed);
        Ok(())
    })?;
    if end.torn_bytes > 0 {
        let mut torn = vec![0u8; end.torn_bytes as usize];
        let read = read_full_at(&log, &mut torn, end.whole_bytes)
            .map_err(|err| CoreError::io(&err, "read", &path.to_string_lossy()))?;
        if matcher.raw_holds(&torn[..read]) {
            report.removed_lines += 1;
            report.removed_bytes += read as u64;
        }
    }
    Ok(())
}

/// The log's lines through the rule: the kept ones into the new log (the
/// store's rewrite), the removed ones into `report` and `removed`.
fn rewrite_log(
    folder: &Folder,
    log_name: &str,
    matcher: &Matcher,
    masker: &Masker,
    report: &mut Forgotten,
    removed: &mut Removed,
) -> Result<(), CoreError> {
    if folder.status_of(log_name)?.is_none() {
        return Ok(());
    }
    let mut number = 0u64;
    let mut rewrite = LogRewrite::begin(folder, log_name, masker)?;
    rewrite.read(&mut |line, _| {
        number += 1;
        Ok(judge(matcher, masker, line, number, report, removed))
    })?;
    let torn = rewrite.torn_tail()?;
    let torn_removed = !torn.is_empty() && matcher.raw_holds(&torn);
    if report.removed_lines == 0 && !torn_removed && rewrite.new.masked == 0 && rewrite.new.cut == 0
    {
        // Nothing to remove or mask: the log keeps its bytes (dropping the
        // rewrite removes its temp file; what a writer without the lock
        // appended meanwhile is in the log it appended to).
        return Ok(());
    }
    // What the log gains until the rename, and a writer without the lock
    // appends after it, goes through the same rule.
    let committed = rewrite.commit(
        &mut |line, _| {
            number += 1;
            Ok(judge(matcher, masker, line, number, report, removed))
        },
        &|torn: &[u8]| !matcher.raw_holds(torn),
    )?;
    if committed.torn_dropped > 0 {
        report.removed_lines += 1;
        report.removed_bytes += committed.torn_dropped;
    }
    report.masked_lines = committed.masked;
    report.carried_lines = committed.carried;
    Ok(())
}

fn shown_entry(line: u64, entry: Option<LogEntry>, masker: &Masker) -> ForgottenEntry {
    match entry {
        Some(entry) => {
            let masked = masker.mask(&entry.text);
            ForgottenEntry {
                line,
                role: Some(entry.role),
                ts: entry.ts,
                id: entry.id,
                text: utf16::grapheme_prefix(&masked, SHOWN_TEXT_UNITS).to_vec(),
            }
        }
        None => ForgottenEntry {
            line,
            role: None,
            ts: None,
            id: None,
            text: "(not a valid entry)".encode_utf16().collect(),
        },
    }
}

/// The texts a forget looks for in the folder's other files: removed
/// entries' texts and the rule's literal text (`exact`), the rule's folded
/// text with `ignore_case` (`folded`).
struct Needles {
    exact: Vec<Vec<u16>>,
    folded: Vec<String>,
}

impl Needles {
    fn is_empty(&self) -> bool {
        self.exact.is_empty() && self.folded.is_empty()
    }
}

/// A text shorter than this is looked for in the memory state as a whole
/// word only: "ok" must not scrub "tokens".
const MIN_SUBSTRING_UNITS: usize = 16;

/// Where `needle` stands in `text`: anywhere when it is long, as a whole
/// word (no letter or digit on either side) when short.
fn find_needle(text: &[u16], needle: &[u16], from: usize) -> Option<usize> {
    let mut at = from;
    while at <= text.len() {
        let found = at + utf16::find(&text[at..], needle)?;
        if needle.len() >= MIN_SUBSTRING_UNITS || whole_word(text, found, found + needle.len()) {
            return Some(found);
        }
        at = found + 1;
    }
    None
}

fn whole_word(text: &[u16], start: usize, end: usize) -> bool {
    let word = |unit: Option<&u16>| {
        unit.and_then(|&u| char::from_u32(u32::from(u)))
            .is_some_and(char::is_alphanumeric)
    };
    !word(start.checked_sub(1).and_then(|i| text.get(i))) && !word(text.get(end))
}

/// Whether file `name` of the folder holds one of `needles` (as UTF-8;
/// folded needles in the folded text).
fn file_holds(folder: &Folder, name: &str, needles: &Needles) -> Result<bool, CoreError> {
    if needles.is_empty() {
        return Ok(false);
    }
    let Some((file, status, _)) = folder.open_file(name, Access::Read)? else {
        return Ok(false);
    };
    let path = folder.path.join(name);
    let finders: Vec<_> = needles
        .exact
        .iter()
        .map(|needle| {
            memchr::memmem::Finder::new(String::from_utf16_lossy(needle).as_bytes()).into_owned()
        })
        .collect();
    // Read in chunks (the index can be half the log's size): each chunk with
    // the previous one's last bytes, so a text across two chunks is found.
    let longest = finders
        .iter()
        .map(|f| f.needle().len())
        .chain(needles.folded.iter().map(|n| n.len() * 4))
        .max()
        .unwrap_or(0);
    let overlap = longest.saturating_sub(1);
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
        if !needles.folded.is_empty() {
            let folded = fold_text(&String::from_utf8_lossy(&window));
            if needles.folded.iter().any(|n| folded.contains(n.as_str())) {
                return Ok(true);
            }
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
fn scrub_memory_state(folder: &Folder, needles: &Needles, apply: bool) -> Result<u64, CoreError> {
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

fn holds(text: &[u16], needles: &Needles) -> bool {
    needles
        .exact
        .iter()
        .any(|needle| find_needle(text, needle, 0).is_some())
        || (!needles.folded.is_empty() && {
            let folded = fold_text(&String::from_utf16_lossy(text));
            needles.folded.iter().any(|n| folded.contains(n.as_str()))
        })
}

/// `text` scrubbed: each exact needle replaced by `[forgotten]`; the whole
/// text when a folded one is in it (its place in the original is not
/// known).
fn scrubbed(text: &[u16], needles: &Needles) -> Vec<u16> {
    let folded = fold_text(&String::from_utf16_lossy(text));
    if needles.folded.iter().any(|n| folded.contains(n.as_str())) {
        return FORGOTTEN.encode_utf16().collect();
    }
    let mut out = text.to_vec();
    for needle in &needles.exact {
        out = replace_all(&out, needle);
    }
    out
}

/// Scrubs `value` in place; the count of strings (keys included) that held
/// a needle.
fn scrub(value: &mut Json, needles: &Needles) -> u64 {
    match value {
        Json::String(text) => {
            if !holds(text, needles) {
                return 0;
            }
            *text = scrubbed(text, needles);
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
                    *name = scrubbed(name, needles);
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
    let mut at = 0;
    while let Some(found) = find_needle(text, needle, at) {
        out.extend_from_slice(&text[at..found]);
        out.extend(FORGOTTEN.encode_utf16());
        at = found + needle.len();
    }
    out.extend_from_slice(&text[at..]);
    out
}

/// Reads the whole log (for tests).
#[cfg(test)]
fn read(path: &std::path::Path) -> String {
    use std::io::Read;
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

    fn masker() -> std::sync::Arc<Masker> {
        crate::mask::builtin_masker()
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
        let report = forget(&chat, &rule, false, &masker()).unwrap();
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
        let report = forget(&chat, &rule, true, &masker()).unwrap();
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
        let again = forget(&chat, &rule, true, &masker()).unwrap();
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
            let report = forget(&chat, &rule, true, &masker()).unwrap();
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
        assert!(forget(&chat, &rule, true, &masker())
            .unwrap()
            .derived_files
            .is_empty());
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
        let report = forget(&chat, &rule, true, &masker()).unwrap();
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
            &masker(),
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
            &masker(),
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
            forget(&chat, &ForgetRule::default(), true, &masker()),
            Err(CoreError::OutOfRange { .. })
        ));
        let empty = ForgetRule {
            text: Some(Vec::new()),
            ..ForgetRule::default()
        };
        assert!(forget(&chat, &empty, true, &masker()).is_err());
    }
}
