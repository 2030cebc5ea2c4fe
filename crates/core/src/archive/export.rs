//! A chat's log, exported: its lines (JSON Lines, for moving or archiving)
//! or Markdown for a person to read, filtered by the entries' time. Whole
//! lines only: the log is read up to its size when opened, and a torn last
//! line is left out (and counted). What leaves is masked: each entry's text
//! with the built-in patterns, the `<private>` rule and the operator's; a
//! line that masking changes is written as the store writes an entry, any
//! other byte for byte (an export of a masked log imports back as it was);
//! a line that is not a valid entry is left out (and counted).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::chat::{absolute, open_folder, open_log, Chat};
use super::out::{refuse_inside, write_file_atomically};
use crate::error::CoreError;
use crate::mask::Masker;
use crate::persistent_chat::log::{parse_log_line, LogEntry};
use crate::persistent_chat::status::is_ok_status;
use crate::persistent_chat::time::{format_iso_utc, parse_timestamp_ms};
use crate::store::entry_json;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExportFormat {
    /// The log's lines, byte for byte where masking changes nothing.
    #[default]
    Jsonl,
    /// A heading per day (UTC), each entry's time, role and failed status,
    /// its text in a code fence longer than any backtick run in it.
    Markdown,
}

#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ExportOptions {
    pub format: ExportFormat,
    /// Entries at or after this time (epoch ms).
    pub since: Option<f64>,
    /// Entries before this time (epoch ms).
    pub until: Option<f64>,
}

/// What an export read and wrote.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Exported {
    pub log_path: PathBuf,
    /// Complete lines read.
    pub lines: u64,
    /// Lines (jsonl) or entries (md) written.
    pub exported: u64,
    /// Entries outside `since`/`until`.
    pub filtered_out: u64,
    /// Lines left out because they are not a valid entry, or have no
    /// readable time while a time filter is on.
    pub not_entries: u64,
    /// Entries whose text masking changed (written masked).
    pub masked: u64,
    /// Bytes of a torn last line, left out.
    pub torn_bytes: u64,
    /// Bytes written.
    pub bytes: u64,
}

/// A `--since`/`--until` value: epoch milliseconds (digits alone), or an
/// ISO-8601 date or date-time (read as the log's times are: no zone is
/// UTC). `None` for anything else.
pub fn parse_bound(text: &str) -> Option<f64> {
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if text.bytes().all(|b| b.is_ascii_digit()) {
        return text.parse::<f64>().ok().filter(|ms| ms.is_finite());
    }
    let iso = text.len() >= 10
        && text.as_bytes()[..4].iter().all(u8::is_ascii_digit)
        && text.as_bytes()[4] == b'-';
    if !iso {
        return None;
    }
    parse_timestamp_ms(&text.encode_utf16().collect::<Vec<_>>())
}

/// An export under way: the chat's log opened (under the store's rules) and
/// its size taken once; each [`Exporter::fill`] writes the next entries, so
/// that a caller streams an export of any size in bounded memory (the
/// command line's `export` to stdout, chunk by chunk).
pub struct Exporter {
    /// The log, read in order; closed once the export is whole (an export
    /// object a caller keeps holds no descriptor then).
    reader: Option<BufReader<std::io::Take<std::fs::File>>>,
    path: PathBuf,
    options: ExportOptions,
    masker: Arc<Masker>,
    markdown: Markdown,
    report: Exported,
    line: Vec<u8>,
    started: bool,
    done: bool,
}

impl Exporter {
    /// Opens `chat`'s log for an export in `options.format`, each entry's
    /// text masked by `masker`.
    pub fn open(
        chat: &Chat,
        options: &ExportOptions,
        masker: Arc<Masker>,
    ) -> Result<Exporter, CoreError> {
        let log = open_log(chat)?;
        crate::progress::expect(log.size);
        Ok(Exporter {
            reader: Some(BufReader::with_capacity(1 << 16, log.file.take(log.size))),
            report: Exported {
                log_path: log.path.clone(),
                ..Exported::default()
            },
            path: log.path,
            options: *options,
            masker,
            markdown: Markdown::default(),
            line: Vec::new(),
            started: false,
            done: false,
        })
    }

    /// What the export read and wrote so far (all of it once `fill` said so).
    pub fn report(&self) -> &Exported {
        &self.report
    }

    /// Appends the next entries to `out` until it holds at least `max`
    /// bytes or the log's end is reached; `false` once the export is whole
    /// (nothing more to write).
    pub fn fill(&mut self, out: &mut Vec<u8>, max: usize) -> Result<bool, CoreError> {
        if self.done {
            return Ok(false);
        }
        let markdown = self.options.format == ExportFormat::Markdown;
        if !self.started {
            self.started = true;
            if markdown {
                self.report.bytes += self.markdown.start(out) as u64;
            }
        }
        while out.len() < max {
            self.line.clear();
            let Some(reader) = self.reader.as_mut() else {
                return Ok(false);
            };
            let read = reader
                .read_until(b'\n', &mut self.line)
                .map_err(|err| CoreError::io(&err, "read", &self.path.to_string_lossy()))?;
            if read == 0 || self.line.last() != Some(&b'\n') {
                self.reader = None;
                // The end, or a torn last line (never part of an export).
                self.report.torn_bytes = read as u64;
                if markdown && self.report.exported == 0 {
                    self.report.bytes += self.markdown.empty(out) as u64;
                }
                self.done = true;
                return Ok(false);
            }
            crate::progress::advance(read as u64);
            let line = std::mem::take(&mut self.line);
            self.entry(&line, out);
            self.line = line;
        }
        Ok(true)
    }

    /// One complete line of the log into `out`, as the options say.
    fn entry(&mut self, line: &[u8], out: &mut Vec<u8>) {
        let report = &mut self.report;
        let options = &self.options;
        report.lines += 1;
        let Some(mut entry) = parse_log_line(line) else {
            report.not_entries += 1;
            return;
        };
        let masked = self.masker.mask(&entry.text);
        let changed = masked != entry.text;
        if changed {
            report.masked += 1;
            entry.text = masked;
        }
        let ms = entry_ms(&entry);
        if options.since.is_some() || options.until.is_some() {
            let Some(ms) = ms else {
                report.not_entries += 1;
                return;
            };
            let after = options.since.is_none_or(|since| ms >= since);
            let before = options.until.is_none_or(|until| ms < until);
            if !(after && before) {
                report.filtered_out += 1;
                return;
            }
        }
        let before = out.len();
        match options.format {
            ExportFormat::Jsonl if changed => {
                out.extend_from_slice(&entry_json(&entry));
                out.push(b'\n');
            }
            ExportFormat::Jsonl => out.extend_from_slice(line),
            ExportFormat::Markdown => self.markdown.entry(out, &entry, ms),
        }
        report.exported += 1;
        report.bytes += (out.len() - before) as u64;
    }
}

/// Writes the chat's log to `out` in `options.format`, each entry's text
/// masked by `masker` ([`Exporter`], a chunk at a time).
pub fn export_log(
    chat: &Chat,
    options: &ExportOptions,
    masker: &Arc<Masker>,
    out: &mut dyn Write,
) -> Result<Exported, CoreError> {
    export_with(Exporter::open(chat, options, masker.clone())?, out)
}

/// Writes what is left of the export to the descriptor `fd` (the command
/// line's stdout), a chunk at a time from one buffer: memory stays bounded
/// whatever the export's size. A descriptor in non-blocking mode (Node sets
/// its stdout pipe so) is waited on with `poll` when full; a reader that
/// closed the pipe ends it with `EPIPE` (Node ignores `SIGPIPE`). The
/// descriptor stays open: it is the caller's.
#[cfg(unix)]
pub fn write_to_fd(exporter: &mut Exporter, fd: i32) -> Result<(), CoreError> {
    let mut chunk = Vec::with_capacity(1 << 17);
    loop {
        chunk.clear();
        let more = exporter.fill(&mut chunk, 1 << 16)?;
        write_all_fd(fd, &chunk)?;
        if !more {
            return Ok(());
        }
    }
}

#[cfg(unix)]
fn write_all_fd(fd: i32, mut bytes: &[u8]) -> Result<(), CoreError> {
    let failed = |err: std::io::Error| CoreError::io(&err, "write", "<standard output>");
    while !bytes.is_empty() {
        // SAFETY: `bytes` is a live slice; `fd` is a descriptor the caller
        // owns and keeps open for the call.
        let written = unsafe { libc::write(fd, bytes.as_ptr().cast(), bytes.len()) };
        if written >= 0 {
            bytes = &bytes[written as usize..];
            continue;
        }
        let err = std::io::Error::last_os_error();
        match err.kind() {
            std::io::ErrorKind::Interrupted => {}
            std::io::ErrorKind::WouldBlock => {
                let mut poll = libc::pollfd {
                    fd,
                    events: libc::POLLOUT,
                    revents: 0,
                };
                // SAFETY: one pollfd, waited on until the descriptor can take more.
                if unsafe { libc::poll(&mut poll, 1, -1) } < 0 {
                    let err = std::io::Error::last_os_error();
                    if err.kind() != std::io::ErrorKind::Interrupted {
                        return Err(failed(err));
                    }
                }
            }
            _ => return Err(failed(err)),
        }
    }
    Ok(())
}

fn export_with(mut exporter: Exporter, out: &mut dyn Write) -> Result<Exported, CoreError> {
    let mut chunk = Vec::with_capacity(1 << 17);
    loop {
        chunk.clear();
        let more = exporter.fill(&mut chunk, 1 << 16)?;
        out.write_all(&chunk)
            .map_err(|err| CoreError::io(&err, "write", "<export output>"))?;
        if !more {
            return Ok(exporter.report);
        }
    }
}

/// [`export_log`] into the file `out`: a private temp file (0600) beside it,
/// synced and renamed over it. An existing `out` that is not a regular file
/// (a symlink, a FIFO, a folder) is refused, and so is an `out` in the
/// chat's own folder (it could replace the log); on failure `out` is
/// unchanged.
pub fn export_to_file(
    chat: &Chat,
    options: &ExportOptions,
    masker: &Arc<Masker>,
    out: &Path,
) -> Result<Exported, CoreError> {
    let out = absolute(out);
    let (folder, _) = open_folder(chat)?;
    refuse_inside(&out, &[&folder.path], "the chat's folder")?;
    write_file_atomically(&out, true, |file, target| {
        export_log(chat, options, masker, file).map_err(|err| match err {
            CoreError::Io {
                code,
                syscall: "write",
                reason,
                ..
            } => CoreError::Io {
                code,
                syscall: "write",
                path: target.to_string_lossy().into_owned(),
                reason,
            },
            other => other,
        })
    })
}

fn entry_ms(entry: &LogEntry) -> Option<f64> {
    entry.ts.as_ref().and_then(|ts| ts.epoch_ms())
}

/// The Markdown form's state: the day of the last heading.
#[derive(Default)]
struct Markdown {
    day: Option<Option<String>>,
}

impl Markdown {
    fn start(&mut self, out: &mut Vec<u8>) -> usize {
        let header =
            "# Chat log\n\nTimes are UTC. Each message is shown as stored, inside a code fence.\n";
        out.extend_from_slice(header.as_bytes());
        header.len()
    }

    fn empty(&mut self, out: &mut Vec<u8>) -> usize {
        let text = "\n(no messages)\n";
        out.extend_from_slice(text.as_bytes());
        text.len()
    }

    fn entry(&mut self, out: &mut Vec<u8>, entry: &LogEntry, ms: Option<f64>) {
        let iso = ms.and_then(format_iso_utc);
        let day = iso.as_ref().map(|iso| iso[..10].to_owned());
        let mut text = String::new();
        if self.day.as_ref() != Some(&day) {
            text.push_str(&format!("\n## {}\n", day.as_deref().unwrap_or("Undated")));
            self.day = Some(day);
        }
        let time = iso.as_ref().map_or("--:--:--", |iso| &iso[11..19]);
        text.push_str(&format!("\n**{time}** {}", entry.role.as_str()));
        if let Some(status) = entry.status.as_ref().filter(|s| !is_ok_status(s)) {
            let status = String::from_utf16_lossy(status);
            text.push_str(&format!(" — **failed** (status {})", code_span(&status)));
        }
        text.push_str("\n\n");
        let body = String::from_utf16_lossy(&entry.text);
        let fence = "`".repeat(longest_backtick_run(&body).max(2) + 1);
        text.push_str(&fence);
        text.push_str("text\n");
        text.push_str(&body);
        if !body.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&fence);
        text.push('\n');
        out.extend_from_slice(text.as_bytes());
    }
}

fn longest_backtick_run(text: &str) -> usize {
    let (mut longest, mut run) = (0, 0);
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

/// `text` as a Markdown code span on one line, whatever backticks it holds.
fn code_span(text: &str) -> String {
    let flat: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let ticks = "`".repeat(longest_backtick_run(&flat) + 1);
    format!("{ticks} {flat} {ticks}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_are_epoch_ms_or_iso() {
        assert_eq!(parse_bound("1000"), Some(1000.0));
        assert_eq!(parse_bound("2026-05-15"), Some(1_778_803_200_000.0));
        assert_eq!(
            parse_bound("2026-05-15T10:00:00Z"),
            Some(1_778_803_200_000.0 + 36_000_000.0)
        );
        for bad in ["", "yesterday", "1e3", "-5", "2026-13-01", "15/05/2026"] {
            assert_eq!(parse_bound(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_code_span_and_fence_outlast_the_texts_backticks() {
        assert_eq!(longest_backtick_run("a ``` b ` c"), 3);
        assert_eq!(code_span("x`y\nz"), "`` x`y z ``");
    }
}
