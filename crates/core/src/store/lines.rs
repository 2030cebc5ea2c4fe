//! A log's complete lines, up to a size taken once: what an export or a
//! backup reads while a gateway keeps appending. A last line without its
//! `\n` (torn, or being written) is never part of it.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use sha2::{Digest, Sha256};

use crate::error::CoreError;
use crate::persistent_chat::fs::read_full_at;
use crate::persistent_chat::log::parse_log_line;

/// Where the complete lines end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LineEnd {
    /// Bytes of complete lines (each with its `\n`).
    pub whole_bytes: u64,
    /// Bytes after the last `\n`, left out.
    pub torn_bytes: u64,
}

fn read_error(err: &io::Error, path: &Path) -> CoreError {
    CoreError::io(err, "read", &path.to_string_lossy())
}

/// Calls `each` with every complete line (its `\n` included) of the first
/// `size` bytes of `file`, read from its start, in order.
pub fn for_each_line(
    file: &File,
    size: u64,
    path: &Path,
    mut each: impl FnMut(&[u8]) -> Result<(), CoreError>,
) -> Result<LineEnd, CoreError> {
    let mut reader = BufReader::with_capacity(1 << 16, file.take(size));
    let mut line = Vec::new();
    let mut end = LineEnd::default();
    loop {
        line.clear();
        let read = reader
            .read_until(b'\n', &mut line)
            .map_err(|err| read_error(&err, path))?;
        if read == 0 {
            return Ok(end);
        }
        if line.last() != Some(&b'\n') {
            end.torn_bytes = read as u64;
            return Ok(end);
        }
        end.whole_bytes += read as u64;
        each(&line)?;
    }
}

/// The complete lines' end within the first `size` bytes of `file`: one
/// past its last `\n` (0 when there is none), read backwards from `size`.
/// The handle's cursor is where it was before: a positional read moves it
/// on Windows (`seek_read`), and the callers then read the file in order.
pub fn whole_lines_end(file: &File, size: u64, path: &Path) -> Result<u64, CoreError> {
    use std::io::Seek;
    let mut handle = file;
    let cursor = handle
        .stream_position()
        .map_err(|err| read_error(&err, path))?;
    let end = last_line_end(file, size, path);
    handle
        .seek(std::io::SeekFrom::Start(cursor))
        .map_err(|err| read_error(&err, path))?;
    end
}

fn last_line_end(file: &File, size: u64, path: &Path) -> Result<u64, CoreError> {
    let mut chunk = vec![0u8; 1 << 16];
    let mut end = size;
    while end > 0 {
        let start = end.saturating_sub(chunk.len() as u64);
        let want = (end - start) as usize;
        let got =
            read_full_at(file, &mut chunk[..want], start).map_err(|err| read_error(&err, path))?;
        if got < want {
            return Err(shrank(path));
        }
        if let Some(at) = memchr::memrchr(b'\n', &chunk[..want]) {
            return Ok(start + at as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

pub(crate) fn shrank(path: &Path) -> CoreError {
    CoreError::Io {
        code: "EAGAIN",
        syscall: "read",
        path: path.to_string_lossy().into_owned(),
        reason: "the file shrank while it was copied (a failed append was undone); run it again"
            .into(),
    }
}

/// What a [`Tally`] saw of the bytes that passed through it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tallied {
    pub bytes: u64,
    /// SHA-256, lower-case hex.
    pub sha256: String,
    /// Complete lines (ending with `\n`), when lines were counted.
    pub lines: u64,
    /// Complete lines that are valid log entries.
    pub entries: u64,
    /// Bytes after the last `\n`.
    pub torn_bytes: u64,
}

/// A reader that hashes what it reads and, for a log, counts its lines and
/// valid entries; reading stops after exactly `limit` bytes, and an early
/// end of `inner` is an error (the file shrank under the copy).
pub struct Tally<R> {
    inner: R,
    left: u64,
    hasher: Sha256,
    bytes: u64,
    /// The current line's bytes so far (`None`: lines are not counted).
    line: Option<Vec<u8>>,
    lines: u64,
    entries: u64,
}

impl<R: Read> Tally<R> {
    /// A tally of `limit` bytes of `inner` (counted as work to do for the
    /// progress line, and as done as they are read).
    pub fn new(inner: R, limit: u64, count_lines: bool) -> Self {
        crate::progress::expect(limit);
        Tally {
            inner,
            left: limit,
            hasher: Sha256::new(),
            bytes: 0,
            line: count_lines.then(Vec::new),
            lines: 0,
            entries: 0,
        }
    }

    /// Reads whatever is left (to `limit`) into nothing.
    pub fn drain(&mut self) -> io::Result<()> {
        io::copy(self, &mut io::sink()).map(|_| ())
    }

    pub fn finish(self) -> Tallied {
        Tallied {
            bytes: self.bytes,
            sha256: hex(&self.hasher.finalize()),
            lines: self.lines,
            entries: self.entries,
            torn_bytes: self.line.map_or(0, |line| line.len() as u64),
        }
    }

    fn count(&mut self, mut bytes: &[u8]) {
        let Some(line) = self.line.as_mut() else {
            return;
        };
        while let Some(at) = memchr::memchr(b'\n', bytes) {
            line.extend_from_slice(&bytes[..=at]);
            self.lines += 1;
            if parse_log_line(line).is_some() {
                self.entries += 1;
            }
            line.clear();
            bytes = &bytes[at + 1..];
        }
        line.extend_from_slice(bytes);
    }
}

impl<R: Read> Read for Tally<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            return Ok(0);
        }
        let want = buf
            .len()
            .min(usize::try_from(self.left).unwrap_or(usize::MAX));
        let read = self.inner.read(&mut buf[..want])?;
        if read == 0 {
            return Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the file ended before its recorded size",
            ));
        }
        self.left -= read as u64;
        self.bytes += read as u64;
        crate::progress::advance(read as u64);
        self.hasher.update(&buf[..read]);
        self.count(&buf[..read]);
        Ok(read)
    }
}

/// Lower-case hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    bytes
        .iter()
        .flat_map(|byte| [DIGITS[(byte >> 4) as usize], DIGITS[(byte & 15) as usize]])
        .map(char::from)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tally_counts_entries_across_reads_and_keeps_a_torn_end_apart() {
        let log = b"{\"role\":\"user\",\"text\":\"a\"}\nnot json\n{\"role\":\"assistant\",\"text\":\"b\"}\n{\"ro";
        let mut tally = Tally::new(io::Cursor::new(&log[..]), log.len() as u64, true);
        let mut small = [0u8; 3];
        while tally.read(&mut small).unwrap() > 0 {}
        let seen = tally.finish();
        assert_eq!((seen.lines, seen.entries, seen.torn_bytes), (3, 2, 4));
        assert_eq!(seen.bytes, log.len() as u64);
        assert_eq!(seen.sha256, hex(&Sha256::digest(log)));
    }

    #[test]
    fn a_tally_refuses_a_short_source() {
        let mut tally = Tally::new(io::Cursor::new(&b"abc"[..]), 5, false);
        assert_eq!(
            tally.drain().unwrap_err().kind(),
            io::ErrorKind::UnexpectedEof
        );
    }
}
