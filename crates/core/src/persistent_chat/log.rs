//! The perpetual log: a JSON Lines file the gateway appends one entry to per
//! message, read from its end.

use std::fs::File;
use std::io;
use std::path::Path;

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

    fn from_json(value: &Json) -> Option<Timestamp> {
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
        let role = Role::from_text(object.get("role")?.as_text()?)?;
        let text = first_text(object, &["text", "content"])?;
        let ts = ["ts", "timestamp"]
            .iter()
            .find_map(|key| object.get(key).and_then(Timestamp::from_json));
        Some(LogEntry {
            role,
            text,
            ts,
            session: first_text(object, &["session", "sessionId"]),
            status: first_text(object, &["status"]),
            id: object.get("id").and_then(id_text),
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

fn first_text(object: &Json, keys: &[&str]) -> Option<Vec<u16>> {
    keys.iter()
        .find_map(|key| object.get(key).and_then(Json::as_text))
        .map(<[u16]>::to_vec)
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
/// `\n` is an append in progress: skipped and counted. Every entry returned
/// was a whole line of the file: one that reads differently when checked at
/// the end (the file was truncated or rewritten in place meanwhile) makes the
/// read start again from the file's new end; after three tries such lines
/// are skipped and counted.
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
    // hand us a line glued from two versions of the file, often valid JSON.
    // Every line we return is read again at the end of the pass; when one
    // reads differently, start again from the file's new end, a few times.
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
/// (unless `last`: then the lines that changed are skipped and counted).
fn read_tail_once(
    file: &File,
    end: u64,
    limit: usize,
    options: TailOptions,
    last: bool,
) -> io::Result<Option<LogTail>> {
    read_tail_lines(file, end, limit, options)?.checked(file, last)
}

/// A pass's entries, newest first, with the bytes each was parsed from.
struct TailRead {
    tail: LogTail,
    sources: Vec<LineBytes>,
}

fn read_tail_lines(
    file: &File,
    end: u64,
    limit: usize,
    options: TailOptions,
) -> io::Result<TailRead> {
    let mut read = TailRead {
        tail: LogTail::default(),
        sources: Vec::new(),
    };
    let tail = &mut read.tail;
    let mut lines = BackwardLines::new(file, end, options)?;
    if lines.last_line_is_torn() {
        if let Some(line) = lines.prev_line()? {
            tail.count_skipped(&line);
        }
    }
    while tail.entries.len() < limit {
        match lines.prev_line()? {
            None => break,
            Some(BackLine::Whole(line)) if is_blank(&line.bytes) => {}
            Some(BackLine::Whole(line)) => match parse_log_line(&line.bytes) {
                Some(entry) => {
                    tail.entries.push(entry);
                    read.sources.push(line);
                }
                None => tail.skipped_lines += 1,
            },
            Some(line) => tail.count_skipped(&line),
        }
    }
    Ok(read)
}

impl TailRead {
    /// The entries oldest first once every one of them reads the same again;
    /// `None` if one does not (unless `last`: then it is skipped and counted).
    fn checked(self, file: &File, last: bool) -> io::Result<Option<LogTail>> {
        let TailRead { mut tail, sources } = self;
        let unchanged = lines_read_unchanged(file, &sources)?;
        let changed = unchanged.iter().filter(|same| !**same).count();
        if changed > 0 {
            if !last {
                return Ok(None);
            }
            let mut keep = unchanged.iter();
            tail.entries
                .retain(|_| keep.next().copied().unwrap_or(false));
            tail.skipped_lines += changed;
        }
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

/// For each line (newest first, as read), whether the file still holds it
/// whole: the same bytes between a `\n` (or the file's start) and a `\n`.
///
/// Lines come from several reads (blocks read backwards, and a read the
/// kernel may split); a file truncated and refilled between two of them
/// glues two versions into one line. One read of the finished span cannot
/// reproduce the same glue, so a line that reads the same here was written.
/// Adjacent lines are checked with one read.
fn lines_read_unchanged(file: &File, lines: &[LineBytes]) -> io::Result<Vec<bool>> {
    let mut unchanged = Vec::with_capacity(lines.len());
    let mut buffer = Vec::new();
    let mut run_end = 0;
    while run_end < lines.len() {
        // lines[run_start..run_end] are adjacent in the file, newest first.
        let run_start = run_end;
        run_end += 1;
        while run_end < lines.len() && lines[run_end].newline() + 1 == lines[run_end - 1].start {
            run_end += 1;
        }
        let oldest = &lines[run_end - 1];
        let from = oldest.start.saturating_sub(1);
        let to = lines[run_start].newline() + 1;
        let Ok(size) = usize::try_from(to - from) else {
            unchanged.extend(std::iter::repeat_n(false, run_end - run_start));
            continue;
        };
        buffer.clear();
        buffer.resize(size, 0);
        let read = read_full_at(file, &mut buffer, from)?;
        let held = &buffer[..read];
        for line in &lines[run_start..run_end] {
            let at = (line.start - from) as usize;
            let newline = at + line.bytes.len();
            let same = (line.start == 0 || held.get(at - 1) == Some(&b'\n'))
                && held.get(at..newline) == Some(&line.bytes[..])
                && held.get(newline) == Some(&b'\n');
            unchanged.push(same);
        }
    }
    Ok(unchanged)
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
        assert!(parse_log_line(&glued.bytes).is_some(), "{glued_text}");
        assert_eq!(lines_read_unchanged(&file, &[glued]).unwrap(), [false]);
        let tail = read_log_tail_with(&path, 10, options).unwrap();
        assert_eq!(texts(&tail), ["new 0", "new 1", "new 2", "new 3"]);
        assert_eq!(tail.skipped_lines, 0);
    }

    /// A pass whose lines no longer read the same is started again; on the
    /// last try the lines that changed are skipped and counted, the others kept.
    #[test]
    fn lines_that_changed_after_they_were_read_are_never_returned() {
        let dir = TempDir::new("log-changed");
        let content = numbered_lines("m", "user", 5);
        let path = dir.file("log.jsonl", content.as_bytes());
        let file = File::open(&path).unwrap();
        let end = content.len() as u64;
        let options = TailOptions::default();
        let edited = content.replacen("\"m 3\"", "\"M 3\"", 1);
        let read = read_tail_lines(&file, end, 10, options).unwrap();
        std::fs::write(&path, edited.as_bytes()).unwrap();
        assert!(read.checked(&file, false).unwrap().is_none());
        std::fs::write(&path, content.as_bytes()).unwrap();
        let read = read_tail_lines(&file, end, 10, options).unwrap();
        std::fs::write(&path, edited.as_bytes()).unwrap();
        let tail = read.checked(&file, true).unwrap().unwrap();
        assert_eq!(texts(&tail), ["m 0", "m 1", "m 2", "m 4"]);
        assert_eq!(tail.skipped_lines, 1);
        // Unchanged, the same pass is returned as read.
        let read = read_tail_lines(&file, end, 10, options).unwrap();
        let tail = read.checked(&file, false).unwrap().unwrap();
        assert_eq!(texts(&tail), ["m 0", "m 1", "m 2", "M 3", "m 4"]);
    }

    /// The check reads adjacent lines in one piece and looks at the `\n` on
    /// both sides: a line that is now the tail of a longer one, or cut short,
    /// was not written as read.
    #[test]
    fn the_check_sees_joined_shortened_and_separate_lines() {
        let dir = TempDir::new("log-check");
        let path = dir.file("log.jsonl", b"aa\nbb\n\ncc\n");
        let file = File::open(&path).unwrap();
        let line = |start: u64, text: &str| LineBytes {
            start,
            bytes: text.as_bytes().to_vec(),
        };
        // Newest first; "bb" and "cc" are not adjacent (a blank line between).
        let lines = [line(7, "cc"), line(3, "bb"), line(0, "aa")];
        assert_eq!(lines_read_unchanged(&file, &lines).unwrap(), [true; 3]);
        std::fs::write(&path, b"aaXbb\n\ncc\n").unwrap();
        assert_eq!(
            lines_read_unchanged(&file, &lines).unwrap(),
            [true, false, false]
        );
        std::fs::write(&path, b"aa\nbb\n\ncc").unwrap();
        assert_eq!(
            lines_read_unchanged(&file, &lines).unwrap(),
            [false, true, true]
        );
        std::fs::write(&path, b"").unwrap();
        assert_eq!(lines_read_unchanged(&file, &lines).unwrap(), [false; 3]);
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
