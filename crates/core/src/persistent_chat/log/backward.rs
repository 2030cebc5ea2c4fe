//! Lines of a file from its end backwards, read in growing blocks, with a
//! cap on a line's length and a floor below which nothing is read.

use std::fs::File;
use std::io;

use super::super::fs::read_full_at;
use super::options::TailOptions;

/// A line as read, and where it starts in the file.
pub(super) struct LineBytes {
    pub(super) start: u64,
    /// Without its `\n`.
    pub(super) bytes: Vec<u8>,
}

impl LineBytes {
    /// Offset of the `\n` that ends it.
    pub(super) fn newline(&self) -> u64 {
        self.start + self.bytes.len() as u64
    }
}

pub(super) enum BackLine {
    Whole(LineBytes),
    /// Longer than the cap; its bytes were not kept.
    Oversized,
}

/// Lines of a file from the end backwards, read in growing blocks.
pub(super) struct BackwardLines<'f> {
    file: &'f File,
    /// File bytes `[start, start + window.len())` not handed out yet. Only the
    /// tail of the window can be a partial line (its head lies before `start`).
    window: Vec<u8>,
    start: u64,
    block: usize,
    options: TailOptions,
    torn: bool,
    exhausted: bool,
    /// Nothing below this offset is read (see [`Self::set_floor`]).
    floor: u64,
    stopped_at_floor: bool,
    bytes_read: u64,
}

impl<'f> BackwardLines<'f> {
    pub(super) fn new(file: &'f File, end: u64, options: TailOptions) -> io::Result<Self> {
        let mut lines = BackwardLines {
            file,
            window: Vec::new(),
            start: end,
            block: options.first_block.max(1),
            options,
            torn: false,
            exhausted: end == 0,
            floor: 0,
            stopped_at_floor: false,
            bytes_read: 0,
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

    pub(super) fn last_line_is_torn(&self) -> bool {
        self.torn
    }

    /// Reads nothing below `floor` from now on: a line that starts below it
    /// ends the lines (see [`Self::stopped_at_floor`]). The tail read keeps
    /// it a bounded distance below the newest valid line.
    pub(super) fn set_floor(&mut self, floor: u64) {
        self.floor = floor;
    }

    /// The lines ended at the floor, not at the start of the file.
    pub(super) fn stopped_at_floor(&self) -> bool {
        self.stopped_at_floor
    }

    pub(super) fn bytes_read(&self) -> u64 {
        self.bytes_read
    }

    /// At the floor (above the start of the file): nothing more is read.
    fn at_floor(&mut self) -> bool {
        if self.start > 0 && self.start <= self.floor {
            self.exhausted = true;
            self.stopped_at_floor = true;
            self.window = Vec::new();
            return true;
        }
        false
    }

    pub(super) fn prev_line(&mut self) -> io::Result<Option<BackLine>> {
        loop {
            if self.exhausted {
                return Ok(None);
            }
            if let Some(newline) = memchr::memrchr(b'\n', &self.window) {
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
            if self.at_floor() {
                return Ok(None);
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
            if self.start == 0 || self.at_floor() {
                self.exhausted = true;
                return Ok(BackLine::Oversized);
            }
            if !self.read_block()? {
                self.exhausted = true;
                return Ok(BackLine::Oversized);
            }
            if let Some(newline) = memchr::memrchr(b'\n', &self.window) {
                self.window.truncate(newline);
                return Ok(BackLine::Oversized);
            }
            self.window.clear();
        }
    }

    /// Prepends the block before `start` to the window; `false` when the file
    /// has shrunk below `start` (nothing more can be read whole).
    fn read_block(&mut self) -> io::Result<bool> {
        let above_floor = self.start - self.floor.min(self.start);
        let size = (self.block as u64).min(above_floor) as usize;
        let offset = self.start - size as u64;
        let mut buf = vec![0; size + self.window.len()];
        if read_full_at(self.file, &mut buf[..size], offset)? < size {
            return Ok(false);
        }
        self.bytes_read += size as u64;
        buf[size..].copy_from_slice(&self.window);
        self.window = buf;
        self.start = offset;
        self.block = (self.block * 2).min(self.options.max_block.max(1));
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::persistent_chat::fs::open_regular_file;
    use crate::persistent_chat::log::parse_log_line;
    use crate::test_support::{line, TempDir};
    use std::io::Write;

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
}
