//! The append: one entry, one line, one `write` of one buffer on an
//! `O_APPEND` handle.
//!
//! - On Linux and macOS local file systems a write to a regular file holds
//!   the file's lock for all its bytes: lines of concurrent writers (other
//!   processes included) never interleave, whatever their size. NFS does not
//!   make `O_APPEND` atomic; Windows appends at the end under NTFS's lock.
//! - A file that does not end with `\n` (a torn line of a writer that died)
//!   gets one first, so the fragment never takes the new entry with it.
//! - A write that fails (a full disk, a file size limit) is undone: the file
//!   is truncated back to the size it had, so no partial line stays, unless
//!   another writer appended meanwhile (then the next append's `\n` check
//!   keeps the damage to the torn line). Not on Windows: an append-only
//!   handle cannot truncate there, and the `\n` check is what remains.
//! - Then `fdatasync`, and the folder's fsync when the file was created.

use std::fs::File;
use std::io;

use super::sys::Folder;
use crate::error::CoreError;
use crate::persistent_chat::fs::read_full_at;

/// What one append did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Appended {
    /// Bytes written: the line, its `\n`, and a leading `\n` when repaired.
    pub bytes: usize,
    /// The file did not end with `\n`: a `\n` was written first.
    pub repaired_torn_line: bool,
    /// The file was created by this append.
    pub created: bool,
}

/// Appends `line` (without its `\n`) to `name` in `folder`.
pub(crate) fn append_line(
    folder: &Folder,
    name: &str,
    line: &[u8],
    durable: bool,
) -> Result<Appended, CoreError> {
    let path = folder.path.join(name);
    let shown = path.to_string_lossy();
    let (file, status, created) = folder
        .open_file(name, super::sys::Access::Append)?
        .ok_or_else(|| CoreError::io(&io::Error::from(io::ErrorKind::NotFound), "open", &shown))?;
    let appended = append_to(&file, status.size, line, created, &mut write_at_end)
        .map_err(|(err, syscall)| CoreError::io(&err, syscall, &shown))?;
    if durable {
        file.sync_data()
            .map_err(|err| CoreError::io(&err, "fdatasync", &shown))?;
        if created {
            folder.sync()?;
        }
    }
    Ok(appended)
}

/// One `write(2)` of `buf` on the append handle.
fn write_at_end(file: &File, buf: &[u8]) -> io::Result<usize> {
    use std::io::Write;
    let mut file = file;
    file.write(buf)
}

/// The append on an open handle whose file had `size` bytes; `write` is
/// one write call (replaced in tests to fail halfway).
pub(crate) fn append_to(
    file: &File,
    size: u64,
    line: &[u8],
    created: bool,
    write: &mut dyn FnMut(&File, &[u8]) -> io::Result<usize>,
) -> Result<Appended, (io::Error, &'static str)> {
    let repaired_torn_line =
        size > 0 && !ends_with_line_feed(file, size).map_err(|e| (e, "read"))?;
    let mut buffer = Vec::with_capacity(line.len() + 2);
    if repaired_torn_line {
        buffer.push(b'\n');
    }
    buffer.extend_from_slice(line);
    buffer.push(b'\n');
    let mut written = 0;
    while written < buffer.len() {
        match write(file, &buffer[written..]) {
            Ok(0) => {
                return Err((
                    undo(
                        file,
                        size,
                        written,
                        io::Error::from(io::ErrorKind::WriteZero),
                    ),
                    "write",
                ))
            }
            Ok(count) => written += count,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err((undo(file, size, written, err), "write")),
        }
    }
    Ok(Appended {
        bytes: buffer.len(),
        repaired_torn_line,
        created,
    })
}

/// Truncates the file back to `size` when what follows it is only this
/// append's `written` bytes; returns the write's error.
fn undo(file: &File, size: u64, written: usize, err: io::Error) -> io::Error {
    if written > 0 {
        if let Ok(metadata) = file.metadata() {
            if metadata.len() == size + written as u64 {
                let _ = file.set_len(size);
            }
        }
    }
    err
}

fn ends_with_line_feed(file: &File, size: u64) -> io::Result<bool> {
    let mut last = [0u8; 1];
    let read = read_full_at(file, &mut last, size - 1)?;
    Ok(read == 1 && last[0] == b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::TempDir;
    use std::io::Read;

    fn contents(path: &std::path::Path) -> String {
        let mut text = String::new();
        File::open(path).unwrap().read_to_string(&mut text).unwrap();
        text
    }

    fn open_append(path: &std::path::Path) -> File {
        std::fs::OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .unwrap()
    }

    // Windows: an append-only handle (FILE_APPEND_DATA without FILE_WRITE_DATA) cannot
    // truncate, so the undo is not done there (see the module's comment).
    #[cfg(unix)]
    #[test]
    fn a_write_that_fails_halfway_leaves_the_file_as_it_was() {
        let dir = TempDir::new("append");
        let path = dir.file("log", b"{\"role\":\"user\",\"text\":\"a\"}\n");
        let file = open_append(&path);
        let size = file.metadata().unwrap().len();
        // A disk that takes 5 bytes, then is full.
        let mut calls = 0;
        let mut failing = |file: &File, buf: &[u8]| {
            calls += 1;
            if calls == 1 {
                write_at_end(file, &buf[..5])
            } else {
                Err(io::Error::from_raw_os_error(28))
            }
        };
        let (err, syscall) = append_to(
            &file,
            size,
            b"{\"role\":\"user\",\"text\":\"b\"}",
            false,
            &mut failing,
        )
        .unwrap_err();
        assert_eq!((err.raw_os_error(), syscall), (Some(28), "write"));
        assert_eq!(contents(&path), "{\"role\":\"user\",\"text\":\"a\"}\n");
    }

    #[test]
    fn a_torn_end_gets_its_line_feed_first() {
        let dir = TempDir::new("append");
        let path = dir.file("log", b"{\"role\":\"user\",\"text\":\"to");
        let file = open_append(&path);
        let size = file.metadata().unwrap().len();
        let done = append_to(&file, size, b"{}", false, &mut write_at_end).unwrap();
        assert!(done.repaired_torn_line);
        assert_eq!(done.bytes, 4);
        assert_eq!(contents(&path), "{\"role\":\"user\",\"text\":\"to\n{}\n");
        let size = file.metadata().unwrap().len();
        let done = append_to(&file, size, b"{}", false, &mut write_at_end).unwrap();
        assert!(!done.repaired_torn_line);
    }

    #[test]
    fn another_writers_line_is_never_cut_away() {
        let dir = TempDir::new("append");
        let path = dir.file("log", b"");
        let file = open_append(&path);
        let other = open_append(&path);
        let mut calls = 0;
        let mut racing = |file: &File, buf: &[u8]| {
            calls += 1;
            if calls == 1 {
                let n = write_at_end(file, &buf[..3]);
                write_at_end(&other, b"{\"other\":1}\n").unwrap();
                n
            } else {
                Err(io::Error::from_raw_os_error(28))
            }
        };
        assert!(append_to(&file, 0, b"{\"mine\":1}", false, &mut racing).is_err());
        assert!(contents(&path).ends_with("{\"other\":1}\n"));
    }
}
