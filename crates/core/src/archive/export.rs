//! A chat's log, exported: its lines (JSON Lines, for moving or archiving)
//! or Markdown for a person to read, filtered by the entries' time. Whole
//! lines only: the log is read up to its size when opened, and a torn last
//! line is left out (and counted). What leaves is masked: each entry's text
//! with the built-in patterns, the `<private>` rule and the operator's; a
//! line that masking changes is written as the store writes an entry, any
//! other byte for byte (an export of a masked log imports back as it was);
//! a line that is not a valid entry is left out (and counted).

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use super::chat::{absolute, open_folder, open_log, Chat};
use super::out::{refuse_inside, write_file_atomically};
use crate::error::CoreError;
use crate::mask::Masker;
use crate::persistent_chat::log::{parse_log_line, LogEntry};
use crate::persistent_chat::status::is_ok_status;
use crate::persistent_chat::time::{format_iso_utc, parse_timestamp_ms};
use crate::store::entry_json;
use crate::store::lines::for_each_line;

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

/// Writes the chat's log to `out` in `options.format`, each entry's text
/// masked by `masker`.
pub fn export_log(
    chat: &Chat,
    options: &ExportOptions,
    masker: &Masker,
    out: &mut dyn Write,
) -> Result<Exported, CoreError> {
    let log = open_log(chat)?;
    let mut report = Exported {
        log_path: log.path.clone(),
        ..Exported::default()
    };
    let out_error = |err: std::io::Error| CoreError::io(&err, "write", "<export output>");
    let mut out = BufWriter::with_capacity(1 << 16, out);
    let filtered = options.since.is_some() || options.until.is_some();
    let mut markdown = Markdown::default();
    if options.format == ExportFormat::Markdown {
        markdown.start(&mut out).map_err(out_error)?;
    }
    let end = for_each_line(&log.file, log.size, &log.path, |line| {
        report.lines += 1;
        let Some(mut entry) = parse_log_line(line) else {
            report.not_entries += 1;
            return Ok(());
        };
        let masked = masker.mask(&entry.text);
        let changed = masked != entry.text;
        if changed {
            report.masked += 1;
            entry.text = masked;
        }
        let ms = entry_ms(&entry);
        if filtered {
            let Some(ms) = ms else {
                report.not_entries += 1;
                return Ok(());
            };
            let after = options.since.is_none_or(|since| ms >= since);
            let before = options.until.is_none_or(|until| ms < until);
            if !(after && before) {
                report.filtered_out += 1;
                return Ok(());
            }
        }
        let written = match options.format {
            ExportFormat::Jsonl if changed => {
                let mut masked_line = entry_json(&entry);
                masked_line.push(b'\n');
                out.write_all(&masked_line).map(|()| masked_line.len())
            }
            ExportFormat::Jsonl => out.write_all(line).map(|()| line.len()),
            ExportFormat::Markdown => markdown.entry(&mut out, &entry, ms),
        }
        .map_err(out_error)?;
        report.exported += 1;
        report.bytes += written as u64;
        Ok(())
    })?;
    if options.format == ExportFormat::Markdown && report.exported == 0 {
        report.bytes += markdown.empty(&mut out).map_err(out_error)? as u64;
    }
    out.flush().map_err(out_error)?;
    report.bytes += markdown.header_bytes as u64;
    report.torn_bytes = end.torn_bytes;
    Ok(report)
}

/// [`export_log`] into the file `out`: a private temp file (0600) beside it,
/// synced and renamed over it. An existing `out` that is not a regular file
/// (a symlink, a FIFO, a folder) is refused, and so is an `out` in the
/// chat's own folder (it could replace the log); on failure `out` is
/// unchanged.
pub fn export_to_file(
    chat: &Chat,
    options: &ExportOptions,
    masker: &Masker,
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
    header_bytes: usize,
}

impl Markdown {
    fn start(&mut self, out: &mut dyn Write) -> std::io::Result<()> {
        let header =
            "# Chat log\n\nTimes are UTC. Each message is shown as stored, inside a code fence.\n";
        out.write_all(header.as_bytes())?;
        self.header_bytes = header.len();
        Ok(())
    }

    fn empty(&mut self, out: &mut dyn Write) -> std::io::Result<usize> {
        let text = "\n(no messages)\n";
        out.write_all(text.as_bytes())?;
        Ok(text.len())
    }

    fn entry(
        &mut self,
        out: &mut dyn Write,
        entry: &LogEntry,
        ms: Option<f64>,
    ) -> std::io::Result<usize> {
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
        out.write_all(text.as_bytes())?;
        Ok(text.len())
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
