//! The checked tail read: the last entries of a log that a writer may be
//! appending to, truncating or rewriting while it is read.
//!
//! A pass reads lines backwards from the length the file had when opened
//! (`backward`): its cost follows the entries read, never the log's size,
//! and an append made meanwhile is not seen. Lines that are not entries
//! (garbage, torn, oversized or blank) get one budget for the whole pass,
//! [`MAX_GAP_BYTES`]: once spent, the pass stops, so a log of garbage (a
//! sparse file of zeros, a binary), or entries each behind a gap, costs the
//! entries returned and that much, not the file. A last line without its `\n`
//! is an append in progress: skipped and counted. What a pass cannot see by
//! itself is a rewrite in place; [`TailRead::checked`] is where that is
//! caught, and its comment tells how.

use std::borrow::Cow;
use std::fs::File;
use std::hash::BuildHasher;
use std::io;
use std::path::Path;

use foldhash::quality::RandomState;

use super::super::fs::{open_state_file, Links};
use super::super::text::shown_text;
use super::backward::{BackLine, BackwardLines};
use super::entry::{parse_log_line, LogEntry};
use super::options::{LogReadOptions, TailOptions};
use crate::error::CoreError;
use crate::mask::Masker;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct LogTail {
    /// Oldest first.
    pub entries: Vec<LogEntry>,
    /// Where each entry's line starts in the file, as `entries` (empty for
    /// entries given rather than read): a turn's recall skips those lines.
    pub starts: Vec<u64>,
    /// Lines examined and not used: invalid, torn or oversized. Blank lines
    /// are not counted (they are not entries, and not damage either).
    pub skipped_lines: usize,
    /// Lines longer than the line cap, skipped without being buffered.
    pub oversized_lines: usize,
    /// The read spent its budget of
    /// [`MAX_GAP_BYTES`](super::options::MAX_GAP_BYTES) for lines that are
    /// not entries before the start of the file: what lies before was not read.
    pub stopped_at_gap: bool,
}

/// The last `limit` valid entries of the log at `path`, oldest first. The
/// cost follows `limit` and the entries' sizes, not the log's size; an entry
/// returned was a whole line of the file, and none between them was missed,
/// even when a writer appends, truncates or rewrites the file meanwhile.
pub fn read_log_tail(path: &Path, limit: usize) -> Result<LogTail, CoreError> {
    read_log_tail_with(path, limit, TailOptions::default())
}

/// [`read_log_tail`], refusing a symlink or a hard-linked file at `path`
/// when `links` is [`Links::Refuse`].
pub fn read_log_tail_with_links(
    path: &Path,
    limit: usize,
    links: Links,
) -> Result<LogTail, CoreError> {
    read_log_tail_with(
        path,
        limit,
        TailOptions {
            links,
            ..TailOptions::default()
        },
    )
}

/// [`read_log_tail`], with a missing file read as an empty log (first run).
pub fn read_log_tail_or_empty(path: &Path, limit: usize) -> Result<LogTail, CoreError> {
    read_log_tail_or_empty_with_links(path, limit, Links::Follow)
}

/// [`read_log_tail_with_links`], with a missing file read as an empty log.
pub fn read_log_tail_or_empty_with_links(
    path: &Path,
    limit: usize,
    links: Links,
) -> Result<LogTail, CoreError> {
    match read_log_tail_with_links(path, limit, links) {
        Err(CoreError::Io { code: "ENOENT", .. }) => Ok(LogTail::default()),
        other => other,
    }
}

/// [`read_log_tail`] as `options` ask: links refused or followed, a missing
/// file read as empty or not, each entry's text cut to a cap or kept whole.
pub fn read_log_tail_with_options(
    path: &Path,
    limit: usize,
    options: LogReadOptions,
) -> Result<LogTail, CoreError> {
    let read = read_log_tail_with(
        path,
        limit,
        TailOptions {
            links: options.links,
            max_entry_chars: options.max_entry_chars,
            ..TailOptions::default()
        },
    );
    match read {
        Err(CoreError::Io { code: "ENOENT", .. }) if options.empty_if_missing => {
            Ok(LogTail::default())
        }
        other => other,
    }
}

pub(crate) fn read_log_tail_with(
    path: &Path,
    limit: usize,
    options: TailOptions,
) -> Result<LogTail, CoreError> {
    let (file, metadata) = open_state_file(path, options.links)?;
    read_open_log_tail(&file, metadata.len(), path, limit, options, None)
}

/// The tail read of a log already opened and checked by its caller (the
/// chat store opens it under its own rules); `len` is its size when
/// opened, `path` only names it in errors. With a `masker` (the chat
/// store's), each entry's text is masked whole before it is cut to
/// `options.max_entry_chars`: a cut first could split a secret so that no
/// pattern knows it.
pub(crate) fn read_open_log_tail(
    file: &File,
    len: u64,
    path: &Path,
    limit: usize,
    options: TailOptions,
    masker: Option<&Masker>,
) -> Result<LogTail, CoreError> {
    if limit == 0 {
        return Ok(LogTail::default());
    }
    let read_error = |err: io::Error| CoreError::io(&err, "read", &path.to_string_lossy());
    // A pass the file changed under starts again from its new end.
    let mut end = len;
    let mut attempt = 1;
    loop {
        let last = attempt >= MAX_READ_ATTEMPTS;
        if let Some(tail) =
            read_tail_once(file, end, limit, options, masker, last).map_err(read_error)?
        {
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
    masker: Option<&Masker>,
    last: bool,
) -> io::Result<Option<LogTail>> {
    let hashes = RandomState::default();
    let lines = BackwardLines::new(file, end, options)?;
    read_tail_lines(lines, end, limit, options, masker, &hashes)?
        .checked(file, options, &hashes, last)
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
    /// File bytes the pass read.
    bytes_read: u64,
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

/// The entries of one pass, newest first, from `end` backwards: at most
/// `limit`, with one budget of `max_gap_bytes` for the bytes of lines that
/// are not entries, for the whole pass. The floor below which nothing is
/// read stays the unspent budget below the newest entry (or `end`): an
/// entry is found when the bytes that are not entries above it, and its
/// own, are within the budget (a longest line behind up to a line's worth
/// of them in all, the budget being twice the line cap), and a pass reads
/// at most the entries it returns and the budget. Each entry's text is cut
/// to `max_entry_chars` as soon as its line is parsed: what the pass holds
/// follows the cap.
fn read_tail_lines(
    mut lines: BackwardLines,
    end: u64,
    limit: usize,
    options: TailOptions,
    masker: Option<&Masker>,
    hashes: &RandomState,
) -> io::Result<TailRead> {
    let max_gap = options.max_gap_bytes as u64;
    lines.set_floor(end.saturating_sub(max_gap));
    let mut read = TailRead {
        tail: LogTail::default(),
        entry_lines: Vec::new(),
        spans: Vec::new(),
        bytes_read: 0,
    };
    let tail = &mut read.tail;
    // Bytes of the entries' lines (their `\n` included) handed out so far:
    // every other byte between a line and `end` was spent from the budget.
    let mut entry_bytes = 0u64;
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
            Some(mut entry) => {
                if let Some(masker) = masker {
                    entry.text = masker.mask(&entry.text);
                }
                if let Cow::Owned(cut) = shown_text(&entry.text, options.max_entry_chars) {
                    entry.text = cut;
                }
                tail.entries.push(entry);
                read.entry_lines.push(LineHash {
                    start: line.start,
                    hash,
                });
                entry_bytes += line.bytes.len() as u64 + 1;
                let spent = (end - line.start).saturating_sub(entry_bytes);
                lines.set_floor(line.start.saturating_sub(max_gap.saturating_sub(spent)));
            }
            None => tail.skipped_lines += 1,
        }
    }
    tail.stopped_at_gap = lines.stopped_at_floor();
    read.bytes_read = lines.bytes_read();
    Ok(read)
}

impl TailRead {
    /// The entries oldest first if the file still holds every line the pass
    /// examined; `None` if not (unless `last`: then the entries whose own
    /// lines changed are skipped and counted, and the others kept).
    ///
    /// Why: a pass's lines come from several reads (blocks read backwards,
    /// and a read the kernel may split page by page). A file rewritten in
    /// place (truncated, then refilled, as a pruning script's
    /// `open(path, "w")` does) between two of them glues two versions into
    /// one line, often valid JSON; a page zeroed by the truncation turns
    /// entries into one invalid line, a gap. Read again once the pass is
    /// over, such lines read differently. So every run of adjacent lines the
    /// pass examined (entries, blank and invalid lines alike) is read again
    /// here and compared by hash with what the pass saw, and so is each
    /// entry's own line. When anything differs, [`read_log_tail`] starts a
    /// new pass from the file's new end, up to [`MAX_READ_ATTEMPTS`] passes.
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
            ..
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
        let all_same = entries_same.iter().all(|same| *same);
        let unchanged = spans_same && all_same;
        if !unchanged && !last {
            return Ok(None);
        }
        if !all_same {
            let mut keep = entries_same.iter();
            tail.entries
                .retain(|_| keep.next().copied().unwrap_or(false));
            tail.skipped_lines += entries_same.iter().filter(|same| !**same).count();
        }
        tail.starts = entry_lines
            .iter()
            .zip(&entries_same)
            .filter(|(_, same)| **same)
            .map(|(line, _)| line.start)
            .collect();
        tail.entries.reverse();
        tail.starts.reverse();
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

#[cfg(test)]
mod tests {
    use super::super::options::{MAX_BLOCK_BYTES, MAX_GAP_BYTES};
    use super::*;
    use crate::test_support::{line, texts, TempDir};

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
        let read = read_tail_lines(lines, old.len() as u64, 10, options, None, &hashes).unwrap();
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
        read_tail_lines(lines, end, 10, TailOptions::default(), None, hashes).unwrap()
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
    fn oversized_lines_are_skipped_and_counted() {
        let dir = TempDir::new("log");
        let huge = format!("{{\"role\":\"user\",\"text\":\"{}\"}}\n", "x".repeat(5000));
        let content = format!("{}{huge}{}{huge}{}", line(1), line(2), line(3));
        let path = dir.file("log.jsonl", content.as_bytes());
        let options = TailOptions {
            max_line_bytes: 1000,
            first_block: 64,
            max_block: 256,
            max_gap_bytes: 1 << 20,
            ..TailOptions::default()
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

    /// Past the gap below the newest entry (or the end) nothing is read: a
    /// log of garbage of any size costs the gap, and the entries after it
    /// are still found.
    #[test]
    fn the_read_stops_a_gap_below_the_newest_entry() {
        let dir = TempDir::new("log-gap");
        let options = TailOptions {
            max_line_bytes: 1000,
            first_block: 64,
            max_block: 256,
            max_gap_bytes: 2000,
            ..TailOptions::default()
        };
        let garbage = "x".repeat(300) + "\n";
        // Old entries, 3000 bytes of garbage lines, new entries.
        let content = format!("{}{}{}{}", line(1), garbage.repeat(10), line(2), line(3));
        let path = dir.file("log.jsonl", content.as_bytes());
        let tail = read_log_tail_with(&path, 10, options).unwrap();
        assert_eq!(texts(&tail), ["message 2", "message 3"]);
        assert!(tail.stopped_at_gap);
        // Under the gap, garbage is skipped and counted, and older entries read.
        let content = format!("{}{}{}", line(1), garbage.repeat(5), line(2));
        let path = dir.file("log2.jsonl", content.as_bytes());
        let tail = read_log_tail_with(&path, 10, options).unwrap();
        assert_eq!(texts(&tail), ["message 1", "message 2"]);
        assert_eq!((tail.skipped_lines, tail.stopped_at_gap), (5, false));
        // A valid line as long as the line cap, behind a line's worth of
        // garbage, is found: the gap is twice the cap.
        let long = format!("{{\"role\":\"user\",\"text\":\"{}\"}}\n", "y".repeat(960));
        assert!(long.len() <= 1000);
        let content = format!("{long}{}{}", "z".repeat(990), "\n");
        let path = dir.file("log3.jsonl", content.as_bytes());
        let tail = read_log_tail_with(&path, 10, options).unwrap();
        assert_eq!(tail.entries.len(), 1);
    }

    /// The budget is one for the whole pass, not one per entry: entries
    /// each behind a gap smaller than the budget are read until the gaps
    /// add up to it, and the pass then stops, having read no more than the
    /// entries and the budget.
    #[test]
    fn one_gap_budget_for_the_whole_read() {
        let dir = TempDir::new("log-gap-budget");
        let options = TailOptions {
            max_line_bytes: 1000,
            first_block: 64,
            max_block: 256,
            max_gap_bytes: 2000,
            ..TailOptions::default()
        };
        // 200 entries, each behind 3 garbage lines of 301 bytes (903 bytes).
        let garbage = ("x".repeat(300) + "\n").repeat(3);
        let content: String = (0..200).map(|n| garbage.clone() + &line(n)).collect();
        let path = dir.file("log.jsonl", content.as_bytes());
        let file = File::open(&path).unwrap();
        let hashes = RandomState::default();
        let end = content.len() as u64;
        let lines = BackwardLines::new(&file, end, options).unwrap();
        let read = read_tail_lines(lines, end, 500, options, None, &hashes).unwrap();
        // The newest entry, then two more (2 × 903 garbage bytes <= 2000);
        // the third gap would pass the budget.
        let mut newest: Vec<String> = texts(&oldest_first(&read));
        newest.reverse();
        assert_eq!(newest, ["message 199", "message 198", "message 197"]);
        assert!(read.tail.stopped_at_gap);
        let entries: u64 = (197..200).map(|n| line(n).len() as u64).sum();
        assert!(
            read.bytes_read <= entries + 2000 + options.max_block as u64,
            "{}",
            read.bytes_read
        );
        // The whole read says the same.
        let tail = read_log_tail_with(&path, 500, options).unwrap();
        assert_eq!(tail.entries.len(), 3);
        assert!(tail.stopped_at_gap);
        // With no gaps at all, every entry is read whatever their number.
        let content: String = (0..200).map(line).collect();
        let path = dir.file("log2.jsonl", content.as_bytes());
        let tail = read_log_tail_with(&path, 500, options).unwrap();
        assert_eq!(tail.entries.len(), 200);
        assert!(!tail.stopped_at_gap);
    }

    /// The case with the real budget: 200 entries each behind a
    /// 4 MiB gap of zeros (a sparse file), every gap within the budget. Per
    /// entry, that was all 800 MiB read; with one budget the read stops once
    /// the gaps add up to 16 MiB: four entries, 16 MiB and a block read.
    #[test]
    fn entries_each_behind_a_gap_within_the_budget_cost_one_budget() {
        use std::io::{Seek, SeekFrom, Write};
        let dir = TempDir::new("log-gap-sparse");
        let path = dir.file("log.jsonl", b"");
        let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        let gap = (MAX_GAP_BYTES / 4) as i64;
        for n in 0..200 {
            file.seek(SeekFrom::Current(gap)).unwrap();
            file.write_all(format!("\n{}", line(n)).as_bytes()).unwrap();
        }
        drop(file);
        let file = File::open(&path).unwrap();
        let end = file.metadata().unwrap().len();
        let hashes = RandomState::default();
        let lines = BackwardLines::new(&file, end, TailOptions::default()).unwrap();
        let read = read_tail_lines(lines, end, 500, TailOptions::default(), None, &hashes).unwrap();
        assert_eq!(read.tail.entries.len(), 4);
        assert!(read.tail.stopped_at_gap);
        assert!(
            read.bytes_read <= (MAX_GAP_BYTES + MAX_BLOCK_BYTES) as u64,
            "{}",
            read.bytes_read
        );
    }

    /// A 40 GiB sparse file of zeros (one line, no `\n`) and one with a
    /// valid entry before the zeros: each read stops after the gap, having
    /// read at most the gap and a block.
    #[test]
    fn a_huge_sparse_log_reads_only_the_gap() {
        let dir = TempDir::new("log-sparse");
        let huge = 40u64 << 30;
        for head in ["", "{\"role\":\"user\",\"text\":\"old\"}\n"] {
            let path = dir.file("log.jsonl", head.as_bytes());
            std::fs::OpenOptions::new()
                .write(true)
                .open(&path)
                .unwrap()
                .set_len(huge)
                .unwrap();
            let file = File::open(&path).unwrap();
            let hashes = RandomState::default();
            let lines = BackwardLines::new(&file, huge, TailOptions::default()).unwrap();
            let read =
                read_tail_lines(lines, huge, 25, TailOptions::default(), None, &hashes).unwrap();
            assert!(read.tail.entries.is_empty());
            assert!(read.tail.stopped_at_gap);
            assert_eq!(read.tail.oversized_lines, 1);
            assert!(
                read.bytes_read <= (MAX_GAP_BYTES + MAX_BLOCK_BYTES) as u64,
                "{}",
                read.bytes_read
            );
            let tail = read_log_tail(&path, 25).unwrap();
            assert!(tail.entries.is_empty() && tail.stopped_at_gap);
        }
        // Zeros, then entries: the entries are found, the zeros not read through.
        let path = dir.file("log2.jsonl", b"");
        let file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.set_len(huge).unwrap();
        use std::io::{Seek, SeekFrom, Write};
        let mut file = file;
        file.seek(SeekFrom::End(0)).unwrap();
        file.write_all(format!("\n{}{}", line(1), line(2)).as_bytes())
            .unwrap();
        let tail = read_log_tail(&path, 25).unwrap();
        assert_eq!(texts(&tail), ["message 1", "message 2"]);
        assert!(tail.stopped_at_gap);
    }
}
