//! The perpetual log: a JSON Lines file the gateway appends one entry to per
//! message, read from its end.

use std::fs::File;
use std::hash::BuildHasher;
use std::io;
use std::path::Path;

use foldhash::quality::RandomState;

use super::fields;
use super::fs::{open_regular_file, read_full_at};
use super::json::{self, Json};
use super::text::js_number_to_string;
use super::time::{epoch_ms_from_number, format_iso_utc, parse_timestamp_ms};
use crate::error::CoreError;
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

#[derive(Debug, Clone, Default, PartialEq)]
pub struct LogTail {
    /// Oldest first.
    pub entries: Vec<LogEntry>,
    /// Lines examined and not used: invalid, torn or oversized. Blank lines
    /// are not counted (they are not entries, and not damage either).
    pub skipped_lines: usize,
    /// Lines longer than the line cap, skipped without being buffered.
    pub oversized_lines: usize,
}

/// A longer line is skipped unread: it bounds memory on a corrupt log.
pub const MAX_LINE_BYTES: usize = 8 << 20;
const FIRST_BLOCK_BYTES: usize = 64 << 10;
const MAX_BLOCK_BYTES: usize = 4 << 20;

#[derive(Debug, Clone, Copy)]
pub(crate) struct TailOptions {
    pub max_line_bytes: usize,
    pub first_block: usize,
    pub max_block: usize,
}

impl Default for TailOptions {
    fn default() -> Self {
        TailOptions {
            max_line_bytes: MAX_LINE_BYTES,
            first_block: FIRST_BLOCK_BYTES,
            max_block: MAX_BLOCK_BYTES,
        }
    }
}

/// The last `limit` valid entries of the log at `path`, oldest first.
///
/// Reads backwards from the length the file had when opened, so the cost
/// follows `limit` and the entries' sizes, never the log's size, and a
/// concurrent append cannot hand us half a line. A last line without its
/// `\n` is an append in progress: skipped and counted. Every line examined
/// is checked again at the end of the pass: if the file no longer holds it
/// (truncated or rewritten in place meanwhile), the read starts again from
/// the file's new end, so an entry returned was a whole line of the file and
/// none between them was missed. After three tries, entries whose own lines
/// changed are skipped and counted.
pub fn read_log_tail(path: &Path, limit: usize) -> Result<LogTail, CoreError> {
    read_log_tail_with(path, limit, TailOptions::default())
}

/// [`read_log_tail`], with a missing file read as an empty log (first run).
pub fn read_log_tail_or_empty(path: &Path, limit: usize) -> Result<LogTail, CoreError> {
    match read_log_tail(path, limit) {
        Err(CoreError::Io { code: "ENOENT", .. }) => Ok(LogTail::default()),
        other => other,
    }
}

pub(crate) fn read_log_tail_with(
    path: &Path,
    limit: usize,
    options: TailOptions,
) -> Result<LogTail, CoreError> {
    let (file, metadata) = open_regular_file(path)?;
    if limit == 0 {
        return Ok(LogTail::default());
    }
    let read_error = |err: io::Error| CoreError::io(&err, "read", &path.to_string_lossy());
    // A file rewritten in place while we read it (truncated and refilled) can
    // hand us a line glued from two versions of the file, often valid JSON,
    // or entries zeroed into one invalid line. The lines of a pass are read
    // again at its end; when one reads differently, start again from the
    // file's new end, a few times.
    let mut end = metadata.len();
    let mut attempt = 1;
    loop {
        let last = attempt >= MAX_READ_ATTEMPTS;
        if let Some(tail) = read_tail_once(&file, end, limit, options, last).map_err(read_error)? {
            return Ok(tail);
        }
        end = file.metadata().map_err(read_error)?.len();
        attempt += 1;
    }
}

/// How often a read starts again when the file changes under it.
const MAX_READ_ATTEMPTS: usize = 3;

/// One pass from `end` backwards; `None` when the file changed under it
/// (unless `last`: then the entries whose lines changed are skipped and counted).
fn read_tail_once(
    file: &File,
    end: u64,
    limit: usize,
    options: TailOptions,
    last: bool,
) -> io::Result<Option<LogTail>> {
    let hashes = RandomState::default();
    let lines = BackwardLines::new(file, end, options)?;
    read_tail_lines(lines, limit, &hashes)?.checked(file, options, &hashes, last)
}

/// A pass's entries (newest first) and what is needed to check, once the
/// pass is over, that the file still holds every line it examined.
struct TailRead {
    tail: LogTail,
    /// Where each entry's line starts and its hash, newest first.
    entry_lines: Vec<LineHash>,
    /// Runs of adjacent whole lines examined (entries, blank and invalid
    /// lines alike; an oversized line ends a run), newest first.
    spans: Vec<Span>,
}

#[derive(Clone, Copy, PartialEq)]
struct LineHash {
    start: u64,
    hash: u64,
}

/// File bytes `[start, end)`: whole lines, the last one's `\n` included.
struct Span {
    start: u64,
    end: u64,
    /// The wrapping sum of its lines' hashes: lines come newest first, and a
    /// sum does not depend on the order it is taken in.
    hash: u64,
}

/// A line's hash, with where it starts: the same bytes split differently
/// into lines hash differently.
fn line_hash(hashes: &RandomState, start: u64, bytes: &[u8]) -> u64 {
    hashes.hash_one((start, bytes))
}

fn read_tail_lines(
    mut lines: BackwardLines,
    limit: usize,
    hashes: &RandomState,
) -> io::Result<TailRead> {
    let mut read = TailRead {
        tail: LogTail::default(),
        entry_lines: Vec::new(),
        spans: Vec::new(),
    };
    let tail = &mut read.tail;
    if lines.last_line_is_torn() {
        if let Some(line) = lines.prev_line()? {
            tail.count_skipped(&line);
        }
    }
    while tail.entries.len() < limit {
        let Some(line) = lines.prev_line()? else {
            break;
        };
        let BackLine::Whole(line) = line else {
            tail.count_skipped(&line);
            continue;
        };
        let hash = line_hash(hashes, line.start, &line.bytes);
        match read.spans.last_mut() {
            Some(span) if span.start == line.newline() + 1 => {
                span.start = line.start;
                span.hash = span.hash.wrapping_add(hash);
            }
            _ => read.spans.push(Span {
                start: line.start,
                end: line.newline() + 1,
                hash,
            }),
        }
        if is_blank(&line.bytes) {
            continue;
        }
        match parse_log_line(&line.bytes) {
            Some(entry) => {
                tail.entries.push(entry);
                read.entry_lines.push(LineHash {
                    start: line.start,
                    hash,
                });
            }
            None => tail.skipped_lines += 1,
        }
    }
    Ok(read)
}

impl TailRead {
    /// The entries oldest first if the file still holds every line the pass
    /// examined; `None` if not (unless `last`: then the entries whose own
    /// lines changed are skipped and counted, and the others kept).
    ///
    /// Lines come from several reads (blocks read backwards, and a read the
    /// kernel may split); a file truncated and refilled between two of them
    /// glues two versions into one line, and a page zeroed by a truncation
    /// can turn lines into one invalid line. Read again once the pass is
    /// over, such lines read differently.
    fn checked(
        self,
        file: &File,
        options: TailOptions,
        hashes: &RandomState,
        last: bool,
    ) -> io::Result<Option<LogTail>> {
        let TailRead {
            mut tail,
            entry_lines,
            spans,
        } = self;
        let mut entries_same = vec![false; entry_lines.len()];
        let mut spans_same = true;
        let mut next_entry = 0;
        for span in &spans {
            let mut sum = 0u64;
            let mut reached_start = false;
            // One read for the span and the `\n` before it, where it fits a block.
            let span_block = usize::try_from(span.end - span.start + 1).unwrap_or(usize::MAX);
            let block = TailOptions {
                first_block: span_block.min(options.max_block),
                ..options
            };
            let mut lines = BackwardLines::new(file, span.end, block)?;
            if !lines.last_line_is_torn() {
                while let Some(BackLine::Whole(line)) = lines.prev_line()? {
                    if line.start < span.start {
                        break;
                    }
                    let hash = line_hash(hashes, line.start, &line.bytes);
                    sum = sum.wrapping_add(hash);
                    while entry_lines
                        .get(next_entry)
                        .is_some_and(|entry| entry.start >= line.start)
                    {
                        entries_same[next_entry] = entry_lines[next_entry]
                            == LineHash {
                                start: line.start,
                                hash,
                            };
                        next_entry += 1;
                    }
                    if line.start == span.start {
                        reached_start = true;
                        break;
                    }
                }
            }
            spans_same &= reached_start && sum == span.hash;
        }
        if spans_same && entries_same.iter().all(|same| *same) {
            tail.entries.reverse();
            return Ok(Some(tail));
        }
        if !last {
            return Ok(None);
        }
        let mut keep = entries_same.iter();
        tail.entries
            .retain(|_| keep.next().copied().unwrap_or(false));
        tail.skipped_lines += entries_same.iter().filter(|same| !**same).count();
        tail.entries.reverse();
        Ok(Some(tail))
    }
}

impl LogTail {
    fn count_skipped(&mut self, line: &BackLine) {
        match line {
            BackLine::Whole(line) if is_blank(&line.bytes) => {}
            BackLine::Whole(_) => self.skipped_lines += 1,
            BackLine::Oversized => {
                self.skipped_lines += 1;
                self.oversized_lines += 1;
            }
        }
    }
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(u8::is_ascii_whitespace)
}

/// A line as read, and where it starts in the file.
struct LineBytes {
    start: u64,
    /// Without its `\n`.
    bytes: Vec<u8>,
}

impl LineBytes {
    /// Offset of the `\n` that ends it.
    fn newline(&self) -> u64 {
        self.start + self.bytes.len() as u64
    }
}

enum BackLine {
    Whole(LineBytes),
    /// Longer than the cap; its bytes were not kept.
    Oversized,
}

/// Lines of a file from the end backwards, read in growing blocks.
struct BackwardLines<'f> {
    file: &'f File,
    /// File bytes `[start, start + window.len())` not handed out yet. Only the
    /// tail of the window can be a partial line (its head lies before `start`).
    window: Vec<u8>,
    start: u64,
    block: usize,
    options: TailOptions,
    torn: bool,
    exhausted: bool,
}

impl<'f> BackwardLines<'f> {
    fn new(file: &'f File, end: u64, options: TailOptions) -> io::Result<Self> {
        let mut lines = BackwardLines {
            file,
            window: Vec::new(),
            start: end,
            block: options.first_block.max(1),
            options,
            torn: false,
            exhausted: end == 0,
        };
        if !lines.exhausted && !lines.read_block()? {
            lines.exhausted = true;
        }
        match lines.window.last() {
            Some(b'\n') => {
                lines.window.pop();
            }
            Some(_) => lines.torn = true,
            None => {}
        }
        Ok(lines)
    }

    fn last_line_is_torn(&self) -> bool {
        self.torn
    }

    fn prev_line(&mut self) -> io::Result<Option<BackLine>> {
        loop {
            if self.exhausted {
                return Ok(None);
            }
            if let Some(newline) = self.window.iter().rposition(|&b| b == b'\n') {
                let start = self.start + newline as u64 + 1;
                let bytes = self.window.split_off(newline + 1);
                self.window.truncate(newline);
                return Ok(Some(self.classify(start, bytes)));
            }
            if self.start == 0 {
                self.exhausted = true;
                let bytes = std::mem::take(&mut self.window);
                return Ok(Some(self.classify(0, bytes)));
            }
            if self.window.len() > self.options.max_line_bytes {
                return self.skip_rest_of_oversized_line().map(Some);
            }
            if !self.read_block()? {
                self.exhausted = true;
            }
        }
    }

    fn classify(&self, start: u64, bytes: Vec<u8>) -> BackLine {
        if bytes.len() > self.options.max_line_bytes {
            BackLine::Oversized
        } else {
            BackLine::Whole(LineBytes { start, bytes })
        }
    }

    /// Drops the partial line and reads on backwards, without keeping its
    /// bytes, to the `\n` before it.
    fn skip_rest_of_oversized_line(&mut self) -> io::Result<BackLine> {
        self.window = Vec::new();
        loop {
            if self.start == 0 {
                self.exhausted = true;
                return Ok(BackLine::Oversized);
            }
            if !self.read_block()? {
                self.exhausted = true;
                return Ok(BackLine::Oversized);
            }
            if let Some(newline) = self.window.iter().rposition(|&b| b == b'\n') {
                self.window.truncate(newline);
                return Ok(BackLine::Oversized);
            }
            self.window.clear();
        }
    }

    /// Prepends the block before `start` to the window; `false` when the file
    /// has shrunk below `start` (nothing more can be read whole).
    fn read_block(&mut self) -> io::Result<bool> {
        let size = (self.block as u64).min(self.start) as usize;
        let offset = self.start - size as u64;
        let mut buf = vec![0; size + self.window.len()];
        if read_full_at(self.file, &mut buf[..size], offset)? < size {
            return Ok(false);
        }
        buf[size..].copy_from_slice(&self.window);
        self.window = buf;
        self.start = offset;
        self.block = (self.block * 2).min(self.options.max_block.max(1));
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::super::fs::test_support::{make_fifo, TempDir};
    use super::*;
    use crate::utf16::encode as u;
    use std::io::Write;

    fn line(n: usize) -> String {
        format!("{{\"role\":\"user\",\"text\":\"message {n}\",\"id\":\"m{n}\"}}\n")
    }

    fn texts(tail: &LogTail) -> Vec<String> {
        tail.entries
            .iter()
            .map(|e| String::from_utf16(&e.text).unwrap())
            .collect()
    }

    fn numbered_lines(word: &str, role: &str, count: usize) -> String {
        (0..count)
            .map(|n| {
                format!("{{\"role\":\"{role}\",\"text\":\"{word} {n}\",\"id\":\"{word}{n}\"}}\n")
            })
            .collect()
    }

    /// A line in two blocks whose file is rewritten in place between the two
    /// block reads comes out glued from both versions, as valid JSON; the
    /// check at the end of the pass finds it, and the read starts again.
    #[test]
    fn a_file_rewritten_between_block_reads_never_glues_two_versions() {
        let dir = TempDir::new("log-rewrite");
        let old = numbered_lines("old", "user", 4);
        let new = numbered_lines("new", "tool", 4);
        assert_eq!(new.len(), old.len());
        let path = dir.file("log.jsonl", old.as_bytes());
        let file = File::open(&path).unwrap();
        let options = TailOptions {
            first_block: 24,
            max_block: 24,
            ..TailOptions::default()
        };
        // The first block holds part of the last line only.
        let mut lines = BackwardLines::new(&file, old.len() as u64, options).unwrap();
        std::fs::write(&path, new.as_bytes()).unwrap();
        let Some(BackLine::Whole(glued)) = lines.prev_line().unwrap() else {
            panic!("expected a line");
        };
        let glued_text = String::from_utf8(glued.bytes.clone()).unwrap();
        assert!(!old.lines().chain(new.lines()).any(|l| l == glued_text));
        let glued_entry = parse_log_line(&glued.bytes).expect("valid JSON");
        // The same pass, checked at its end, is refused.
        let hashes = RandomState::default();
        std::fs::write(&path, old.as_bytes()).unwrap();
        let lines = BackwardLines::new(&file, old.len() as u64, options).unwrap();
        std::fs::write(&path, new.as_bytes()).unwrap();
        let read = read_tail_lines(lines, 10, &hashes).unwrap();
        assert_eq!(read.tail.entries.first(), Some(&glued_entry));
        assert!(read
            .checked(&file, options, &hashes, false)
            .unwrap()
            .is_none());
        let tail = read_log_tail_with(&path, 10, options).unwrap();
        assert_eq!(texts(&tail), ["new 0", "new 1", "new 2", "new 3"]);
        assert_eq!(tail.skipped_lines, 0);
    }

    fn oldest_first(read: &TailRead) -> LogTail {
        let mut tail = read.tail.clone();
        tail.entries.reverse();
        tail
    }

    fn pass(file: &File, end: u64, hashes: &RandomState) -> TailRead {
        let lines = BackwardLines::new(file, end, TailOptions::default()).unwrap();
        read_tail_lines(lines, 10, hashes).unwrap()
    }

    /// A pass whose lines no longer read the same is started again; on the
    /// last try the entries whose lines changed are skipped and counted, the
    /// others kept.
    #[test]
    fn lines_that_changed_after_they_were_read_are_never_returned() {
        let dir = TempDir::new("log-changed");
        let content = numbered_lines("m", "user", 5);
        let path = dir.file("log.jsonl", content.as_bytes());
        let file = File::open(&path).unwrap();
        let end = content.len() as u64;
        let options = TailOptions::default();
        let hashes = RandomState::default();
        let edited = content.replacen("\"m 3\"", "\"M 3\"", 1);
        let read = pass(&file, end, &hashes);
        std::fs::write(&path, edited.as_bytes()).unwrap();
        assert!(read
            .checked(&file, options, &hashes, false)
            .unwrap()
            .is_none());
        std::fs::write(&path, content.as_bytes()).unwrap();
        let read = pass(&file, end, &hashes);
        std::fs::write(&path, edited.as_bytes()).unwrap();
        let tail = read
            .checked(&file, options, &hashes, true)
            .unwrap()
            .unwrap();
        assert_eq!(texts(&tail), ["m 0", "m 1", "m 2", "m 4"]);
        assert_eq!(tail.skipped_lines, 1);
        // Unchanged, the same pass is returned as read.
        let read = pass(&file, end, &hashes);
        let tail = read
            .checked(&file, options, &hashes, false)
            .unwrap()
            .unwrap();
        assert_eq!(texts(&tail), ["m 0", "m 1", "m 2", "M 3", "m 4"]);
    }

    /// A truncation zeroes the rest of the page it cuts; a read at that moment
    /// sees entries turned into one invalid line of NULs. The check covers
    /// invalid and blank lines too, so the pass starts again instead of
    /// returning entries with a gap.
    #[test]
    fn lines_seen_as_invalid_for_a_moment_do_not_leave_a_gap() {
        let dir = TempDir::new("log-zeroed");
        let content = numbered_lines("m", "user", 4);
        let mut zeroed = content.clone().into_bytes();
        let from = content.find("{\"role\":\"user\",\"text\":\"m 1\"").unwrap();
        let to = content.find("{\"role\":\"user\",\"text\":\"m 3\"").unwrap() - 1;
        zeroed[from..to].fill(0);
        let path = dir.file("log.jsonl", &zeroed);
        let file = File::open(&path).unwrap();
        let options = TailOptions::default();
        let hashes = RandomState::default();
        let read = pass(&file, content.len() as u64, &hashes);
        assert_eq!(texts(&oldest_first(&read)), ["m 0", "m 3"]);
        std::fs::write(&path, content.as_bytes()).unwrap();
        assert!(read
            .checked(&file, options, &hashes, false)
            .unwrap()
            .is_none());
        let tail = read_log_tail_with(&path, 10, options).unwrap();
        assert_eq!(texts(&tail), ["m 0", "m 1", "m 2", "m 3"]);
        assert_eq!(tail.skipped_lines, 0);
    }

    /// Lines joined, cut short or moved read differently; runs of lines on
    /// either side of a blank line are both checked.
    #[test]
    fn the_check_sees_joined_shortened_and_moved_lines() {
        let dir = TempDir::new("log-check");
        let content =
            "{\"role\":\"user\",\"text\":\"a\"}\n\n{\"role\":\"user\",\"text\":\"b\"}\nxx\n";
        let path = dir.file("log.jsonl", content.as_bytes());
        let file = File::open(&path).unwrap();
        let options = TailOptions::default();
        let hashes = RandomState::default();
        let end = content.len() as u64;
        assert!(pass(&file, end, &hashes)
            .checked(&file, options, &hashes, false)
            .unwrap()
            .is_some());
        for changed in [
            content.replacen("\n\n", "\nX", 1),
            content.replacen("xx\n", "xx", 1),
            content.replacen("xx", "yy", 1),
            format!(" {}", &content[1..]),
            String::new(),
        ] {
            let read = pass(&file, end, &hashes);
            std::fs::write(&path, changed.as_bytes()).unwrap();
            assert!(
                read.checked(&file, options, &hashes, false)
                    .unwrap()
                    .is_none(),
                "{changed:?}"
            );
            std::fs::write(&path, content.as_bytes()).unwrap();
        }
    }

    #[test]
    fn parses_every_field_and_alias() {
        let full = br#"{"ts":"2026-05-15T10:00:00Z","role":"assistant","text":"hi","session":"ses_1","status":"ok","id":"e1","extra":{"x":[1]}}"#;
        let parsed = parse_log_line(full).unwrap();
        assert_eq!(
            parsed,
            LogEntry {
                role: Role::Assistant,
                text: u("hi"),
                ts: Some(Timestamp::Text(u("2026-05-15T10:00:00Z"))),
                session: Some(u("ses_1")),
                status: Some(u("ok")),
                id: Some(u("e1")),
            }
        );
        let aliased = parse_log_line(
            br#"{"timestamp":1778839200000,"role":"tool","content":"out","sessionId":"s","id":7}"#,
        )
        .unwrap();
        assert_eq!(aliased.text, u("out"));
        assert_eq!(aliased.ts, Some(Timestamp::Number(1_778_839_200_000.0)));
        assert_eq!(aliased.session, Some(u("s")));
        assert_eq!(aliased.id, Some(u("7")));
        assert_eq!(aliased.role.as_str(), "tool");
    }

    #[test]
    fn text_wins_over_content_and_wrong_typed_optionals_are_absent() {
        let parsed = parse_log_line(
            br#"{"role":"user","text":"a","content":"b","ts":true,"session":5,"status":null}"#,
        )
        .unwrap();
        assert_eq!(parsed, bare_entry(Role::User, "a"));
        let parsed = parse_log_line(br#"{"role":"user","text":null,"content":"b"}"#).unwrap();
        assert_eq!(parsed.text, u("b"));
    }

    #[test]
    fn rejects_lines_that_are_not_entries() {
        for bad in [
            &br#"{"role":"user"}"#[..],
            br#"{"text":"x"}"#,
            br#"{"role":"robot","text":"x"}"#,
            br#"{"role":"User","text":"x"}"#,
            br#"{"role":"user","text":42}"#,
            br#"{"role":"user","text":["x"]}"#,
            br#"["role","user"]"#,
            br#"{"role":"user","text":"x""#,
            b"{\"role\":\"user\",\"text\":\"\xff\"}",
            b"",
        ] {
            assert_eq!(
                parse_log_line(bad),
                None,
                "{}",
                String::from_utf8_lossy(bad)
            );
        }
    }

    #[test]
    fn lone_surrogates_round_trip_exactly() {
        // What JSON.stringify("a\uD800b\uDC00") writes.
        let parsed =
            parse_log_line(br#"{"role":"user","text":"a\ud800b\udc00\ud83d\ude00"}"#).unwrap();
        assert_eq!(
            parsed.text,
            vec![0x61, 0xD800, 0x62, 0xDC00, 0xD83D, 0xDE00]
        );
    }

    #[test]
    fn crlf_and_bom_are_tolerated_and_inner_cr_kept() {
        let parsed =
            parse_log_line(b"\xEF\xBB\xBF{\"role\":\"user\",\"text\":\"a\\r\\nb\"}\r\n").unwrap();
        assert_eq!(parsed.text, u("a\r\nb"));
    }

    #[test]
    fn timestamps_display_as_written_or_as_iso() {
        assert_eq!(Timestamp::Text(u("yesterday")).display(), u("yesterday"));
        assert_eq!(
            Timestamp::Number(1_778_839_200.0).display(),
            u("2026-05-15T10:00:00.000Z")
        );
        assert_eq!(Timestamp::Number(1e300).display(), u("1e+300"));
        assert_eq!(
            Timestamp::Text(u("2026-05-15T10:00:00Z")).epoch_ms(),
            Some(1_778_839_200_000.0)
        );
    }

    #[test]
    fn reads_the_last_entries_oldest_first() {
        let dir = TempDir::new("log");
        let content: String = (0..100).map(line).collect();
        let path = dir.file("log.jsonl", content.as_bytes());
        let tail = read_log_tail(&path, 3).unwrap();
        assert_eq!(texts(&tail), ["message 97", "message 98", "message 99"]);
        assert_eq!(tail.skipped_lines, 0);
        assert_eq!(read_log_tail(&path, 1000).unwrap().entries.len(), 100);
        assert!(read_log_tail(&path, 0).unwrap().entries.is_empty());
    }

    #[test]
    fn tiny_blocks_give_the_same_result_as_big_ones() {
        let dir = TempDir::new("log");
        let mut content = String::new();
        for n in 0..50 {
            content.push_str(&line(n));
            if n.is_multiple_of(7) {
                content.push_str("garbage\r\n\n");
            }
        }
        let path = dir.file("log.jsonl", content.as_bytes());
        let expected = read_log_tail(&path, 20).unwrap();
        for first_block in [1, 2, 3, 5, 17, 64] {
            let options = TailOptions {
                first_block,
                max_block: first_block * 4,
                ..TailOptions::default()
            };
            assert_eq!(
                read_log_tail_with(&path, 20, options).unwrap(),
                expected,
                "{first_block}"
            );
        }
        assert_eq!(texts(&expected).first().unwrap(), "message 30");
        // Garbage after messages 35, 42 and 49 was examined; blank lines are not counted.
        assert_eq!(expected.skipped_lines, 3);
    }

    #[test]
    fn skips_and_counts_garbage_and_a_torn_last_line() {
        let dir = TempDir::new("log");
        let content = format!(
            "{}not json\n{{\"role\":\"user\"}}\n{}{{\"role\":\"user\",\"text\":\"half",
            line(1),
            line(2)
        );
        let path = dir.file("log.jsonl", content.as_bytes());
        let tail = read_log_tail(&path, 10).unwrap();
        assert_eq!(texts(&tail), ["message 1", "message 2"]);
        assert_eq!(tail.skipped_lines, 3);
        // A complete-looking last line without its newline is still torn.
        let path = dir.file(
            "log2.jsonl",
            format!("{}{}", line(1), line(2).trim_end()).as_bytes(),
        );
        let tail = read_log_tail(&path, 10).unwrap();
        assert_eq!(texts(&tail), ["message 1"]);
        assert_eq!(tail.skipped_lines, 1);
    }

    #[test]
    fn counts_only_lines_examined() {
        let dir = TempDir::new("log");
        let content = format!("garbage\n{}{}", line(1), line(2));
        let path = dir.file("log.jsonl", content.as_bytes());
        let tail = read_log_tail(&path, 2).unwrap();
        assert_eq!(tail.skipped_lines, 0);
        assert_eq!(read_log_tail(&path, 3).unwrap().skipped_lines, 1);
    }

    #[test]
    fn crlf_files_read_like_lf_files() {
        let dir = TempDir::new("log");
        let content: String = (0..5).map(|n| line(n).replace('\n', "\r\n")).collect();
        let path = dir.file("log.jsonl", content.as_bytes());
        let tail = read_log_tail(&path, 5).unwrap();
        assert_eq!(tail.entries.len(), 5);
        assert_eq!(tail.skipped_lines, 0);
    }

    #[test]
    fn oversized_lines_are_skipped_and_counted() {
        let dir = TempDir::new("log");
        let huge = format!("{{\"role\":\"user\",\"text\":\"{}\"}}\n", "x".repeat(5000));
        let content = format!("{}{huge}{}{huge}{}", line(1), line(2), line(3));
        let path = dir.file("log.jsonl", content.as_bytes());
        let options = TailOptions {
            max_line_bytes: 1000,
            first_block: 64,
            max_block: 256,
        };
        let tail = read_log_tail_with(&path, 10, options).unwrap();
        assert_eq!(texts(&tail), ["message 1", "message 2", "message 3"]);
        assert_eq!((tail.skipped_lines, tail.oversized_lines), (2, 2));
        // An oversized first line and an oversized torn last line.
        let content = format!("{huge}{}{}", line(1), &huge[..huge.len() - 1]);
        let path = dir.file("log2.jsonl", content.as_bytes());
        let tail = read_log_tail_with(&path, 10, options).unwrap();
        assert_eq!(texts(&tail), ["message 1"]);
        assert_eq!((tail.skipped_lines, tail.oversized_lines), (2, 2));
    }

    #[test]
    fn reads_only_what_the_file_held_when_opened() {
        let dir = TempDir::new("log");
        let path = dir.file("log.jsonl", line(1).as_bytes());
        let (file, metadata) = open_regular_file(&path).unwrap();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"role\":\"user\",\"te")
            .unwrap();
        let mut lines = BackwardLines::new(&file, metadata.len(), TailOptions::default()).unwrap();
        assert!(!lines.last_line_is_torn());
        assert!(
            matches!(lines.prev_line().unwrap(), Some(BackLine::Whole(l)) if l.bytes == line(1).trim_end().as_bytes())
        );
        assert!(lines.prev_line().unwrap().is_none());
    }

    #[test]
    fn a_file_that_shrinks_while_read_gives_what_was_whole() {
        let dir = TempDir::new("log");
        let content: String = (0..40).map(line).collect();
        let path = dir.file("log.jsonl", content.as_bytes());
        let (file, metadata) = open_regular_file(&path).unwrap();
        let options = TailOptions {
            first_block: 100,
            max_block: 100,
            ..TailOptions::default()
        };
        let mut lines = BackwardLines::new(&file, metadata.len(), options).unwrap();
        let first = lines.prev_line().unwrap();
        assert!(matches!(first, Some(BackLine::Whole(_))));
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(10)
            .unwrap();
        let mut whole = 1;
        while let Some(line) = lines.prev_line().unwrap() {
            assert!(matches!(line, BackLine::Whole(ref l) if parse_log_line(&l.bytes).is_some()));
            whole += 1;
        }
        assert!(whole < 40);
    }

    #[test]
    fn empty_and_blank_files() {
        let dir = TempDir::new("log");
        for content in ["", "\n", "\n\n  \n", "  "] {
            let path = dir.file("log.jsonl", content.as_bytes());
            let tail = read_log_tail(&path, 5).unwrap();
            assert_eq!(tail, LogTail::default(), "{content:?}");
        }
    }

    #[test]
    fn lone_surrogate_entries_survive_the_file_reader() {
        let dir = TempDir::new("log");
        let path = dir.file("log.jsonl", b"{\"role\":\"user\",\"text\":\"\\udfff\"}\n");
        assert_eq!(
            read_log_tail(&path, 1).unwrap().entries[0].text,
            vec![0xDFFF]
        );
    }

    #[test]
    fn missing_files_throw_enoent_or_read_as_empty() {
        let dir = TempDir::new("log");
        let missing = dir.0.join("none.jsonl");
        assert_eq!(read_log_tail(&missing, 5).unwrap_err().code(), "ENOENT");
        assert_eq!(
            read_log_tail_or_empty(&missing, 5).unwrap(),
            LogTail::default()
        );
    }

    #[cfg(unix)]
    #[test]
    fn fifos_and_directories_are_refused_at_once() {
        let dir = TempDir::new("log");
        let fifo = dir.0.join("fifo.jsonl");
        make_fifo(&fifo);
        assert_eq!(read_log_tail(&fifo, 5).unwrap_err().code(), "ENOTREGULAR");
        assert_eq!(
            read_log_tail_or_empty(&fifo, 5).unwrap_err().code(),
            "ENOTREGULAR"
        );
        assert_eq!(read_log_tail(&dir.0, 0).unwrap_err().code(), "ENOTREGULAR");
    }

    #[test]
    fn large_logs_cost_what_the_tail_costs() {
        // 200k lines (~10 MB): reading 5 entries must touch only the end.
        let dir = TempDir::new("log");
        let path = dir.0.join("big.jsonl");
        let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        for n in 0..200_000 {
            file.write_all(line(n).as_bytes()).unwrap();
        }
        drop(file);
        let started = std::time::Instant::now();
        let tail = read_log_tail(&path, 5).unwrap();
        assert_eq!(texts(&tail).last().unwrap(), "message 199999");
        assert!(started.elapsed() < std::time::Duration::from_millis(200));
    }
}
