//! A rewrite of a chat's log (`forget`, retention, a merging `import`):
//! under the folder's exclusive lock (held by the caller), the old log's
//! lines are read and what the caller keeps is written through the in door
//! ([`super::writer`]) into a replacement (`replace`: a private temp file,
//! synced, renamed over the log, the folder synced).
//!
//! A writer that takes no lock (an older release of the plugin, the
//! operator's runtime, a script) may append to the old log at any moment,
//! and nothing it wrote may be lost:
//!
//! - before the rename the old log is read until it stops growing;
//! - after it, the old log (still open here) is read again and whatever
//!   such a writer appended meanwhile is appended to the new log, through
//!   the same rule, until no other process holds the old log open (asked of
//!   the kernel on Linux: a write lease is granted only to a sole opener; a
//!   writer that opens the log for each line, as `fs.appendFileSync` does,
//!   has closed it then), or, where that cannot be asked, until it has not
//!   grown for [`CARRY_QUIET`];
//! - a process that keeps the old log open and goes on writing past
//!   [`CARRY_MAX`] is an error naming the log: what it wrote until then is
//!   in the new log, and the rewrite should be run again once it stopped.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::time::{Duration, Instant};

use super::append::append_line;
use super::lines::for_each_line;
use super::replace::{Durability, Replacement};
use super::sys::{Access, Folder};
use super::writer::{existing_line, Written};
use crate::error::CoreError;
use crate::mask::Masker;

/// Where the carry-over cannot ask who holds the old log: how long it must
/// not have grown.
pub(crate) const CARRY_QUIET: Duration = Duration::from_millis(250);
/// The longest the carry-over waits for the last other holder of the old
/// log to close it.
pub(crate) const CARRY_MAX: Duration = Duration::from_secs(10);
/// How many times one read of the old log follows it as it grows.
const CATCH_UP_PASSES: usize = 4;

/// The old log, read line by line from where the last read stopped.
pub(crate) struct OldLog {
    file: Option<File>,
    shown: String,
    /// Bytes of complete lines read so far.
    consumed: u64,
}

/// What decides each line of the old log (given the new log, for what goes
/// before it).
pub(crate) type EachLine<'a> = dyn FnMut(&[u8], &mut NewLog<'_>) -> Result<Keep, CoreError> + 'a;

/// What a line of the old log becomes.
pub(crate) enum Keep {
    /// The line, through the in door.
    Line,
    /// Nothing.
    Drop,
}

/// The new log being written: the replacement before the rename, the log
/// itself (appends) after it.
pub(crate) struct NewLog<'f> {
    folder: &'f Folder,
    log_name: &'f str,
    masker: &'f Masker,
    replacement: Option<Replacement<'f>>,
    /// Lines masking changed, and lines cut to the line cap.
    pub(crate) masked: u64,
    pub(crate) cut: u64,
    /// Lines appended after the rename (a writer without the lock).
    pub(crate) carried: u64,
}

impl<'f> NewLog<'f> {
    /// The log itself, appended to (the carry-over after a replace).
    pub(crate) fn appending(folder: &'f Folder, log_name: &'f str, masker: &'f Masker) -> Self {
        NewLog {
            folder,
            log_name,
            masker,
            replacement: None,
            masked: 0,
            cut: 0,
            carried: 0,
        }
    }

    /// Writes `line` (without its `\n`) through the in door; returns what
    /// was written.
    pub(crate) fn line<'l>(&mut self, line: &'l [u8]) -> Result<Written<'l>, CoreError> {
        let written = existing_line(line, self.masker);
        self.masked += u64::from(written.masked);
        self.cut += u64::from(written.cut);
        match self.replacement.as_mut() {
            Some(replacement) => {
                replacement.write_all(&written.line)?;
                replacement.write_all(b"\n")?;
            }
            None => {
                self.carried += 1;
                append_line(self.folder, self.log_name, &written.line, false)?;
            }
        }
        Ok(written)
    }

    /// Writes `bytes` as they are (a torn last line, kept last).
    fn raw(&mut self, bytes: &[u8]) -> Result<(), CoreError> {
        match self.replacement.as_mut() {
            Some(replacement) => replacement.write_all(bytes),
            None => Ok(()),
        }
    }
}

/// A rewrite in progress.
pub(crate) struct LogRewrite<'f> {
    pub(crate) old: OldLog,
    pub(crate) new: NewLog<'f>,
}

impl<'f> LogRewrite<'f> {
    /// Starts rewriting `log_name` in `folder` (whose exclusive lock the
    /// caller holds): the old log opened, the replacement created.
    pub(crate) fn begin(
        folder: &'f Folder,
        log_name: &'f str,
        masker: &'f Masker,
    ) -> Result<Self, CoreError> {
        Ok(LogRewrite {
            old: OldLog::open(folder, log_name)?,
            new: NewLog {
                folder,
                log_name,
                masker,
                replacement: Some(Replacement::new(folder, log_name)?),
                masked: 0,
                cut: 0,
                carried: 0,
            },
        })
    }

    /// Reads the old log's complete lines not read yet, until it stops
    /// growing, each given to `each` with the new log (the `\n` included).
    pub(crate) fn read(&mut self, each: &mut EachLine) -> Result<(), CoreError> {
        let LogRewrite { old, new } = self;
        old.read(&mut |line| match each(line, new)? {
            Keep::Line => new
                .line(line.strip_suffix(b"\n").unwrap_or(line))
                .map(|_| ()),
            Keep::Drop => Ok(()),
        })
    }

    /// The old log's bytes after its last complete line read so far.
    pub(crate) fn torn_tail(&mut self) -> Result<Vec<u8>, CoreError> {
        self.old.torn_tail()
    }

    /// Ends the rewrite: what the old log gained meanwhile read through
    /// `each`, its torn last line kept last unless `keep_torn` says not,
    /// the replacement synced and renamed over the log, then what a writer
    /// without the lock appended to the old log carried over (see the
    /// module's comment).
    pub(crate) fn commit(
        mut self,
        each: &mut EachLine,
        keep_torn: &dyn Fn(&[u8]) -> bool,
    ) -> Result<Committed, CoreError> {
        self.read(each)?;
        let torn = self.old.torn_tail()?;
        let torn_kept = !torn.is_empty() && keep_torn(&torn);
        if torn_kept {
            self.new.raw(&torn)?;
        }
        let replacement = self
            .new
            .replacement
            .take()
            .expect("written until committed");
        self.old.before_replace();
        replacement.commit(Durability::Durable)?;
        // The torn line is past `consumed`: what grows after it is read as
        // lines from where it ends.
        self.old.consumed += torn.len() as u64;
        self.carry_over(each)?;
        Ok(Committed {
            masked: self.new.masked,
            cut: self.new.cut,
            carried: self.new.carried,
            torn_dropped: if torn_kept { 0 } else { torn.len() as u64 },
        })
    }

    fn carry_over(&mut self, each: &mut EachLine) -> Result<(), CoreError> {
        carry_over(&mut self.old, &mut self.new, each)
    }
}

/// After the log was replaced: what a writer without the lock appends to
/// the old log (still open in `old`) is read through `each` and appended to
/// the new log (`new`, appending), until no other process holds the old log
/// open, or (where that cannot be asked) it has not grown for
/// [`CARRY_QUIET`]; past [`CARRY_MAX`] of growth, an error.
pub(crate) fn carry_over(
    old: &mut OldLog,
    new: &mut NewLog,
    each: &mut EachLine,
) -> Result<(), CoreError> {
    if old.file.is_none() {
        return Ok(());
    }
    let mut read = |old: &mut OldLog, new: &mut NewLog| {
        old.read(&mut |line| match each(line, new)? {
            Keep::Line => new
                .line(line.strip_suffix(b"\n").unwrap_or(line))
                .map(|_| ()),
            Keep::Drop => Ok(()),
        })
    };
    let started = Instant::now();
    let mut quiet_since = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        let before = new.carried;
        read(old, new)?;
        if new.carried > before {
            quiet_since = Instant::now();
        }
        match old.others_hold_it() {
            // No one else has it open: nothing more can reach it.
            Some(false) => return read(old, new),
            Some(true) => {}
            None if quiet_since.elapsed() >= CARRY_QUIET => return Ok(()),
            None => {}
        }
        if started.elapsed() >= CARRY_MAX {
            if quiet_since.elapsed() >= CARRY_QUIET {
                // Held open, not written (a reader, `tail -f`).
                return Ok(());
            }
            return Err(CoreError::Io {
                code: "EBUSY",
                syscall: "write",
                path: old.shown.clone(),
                reason: format!(
                    "another process without the chat's lock kept appending to the old log for {} s after it was replaced; its lines until now are in the new log: stop it and run again",
                    CARRY_MAX.as_secs()
                ),
            });
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

/// What a committed rewrite did besides the caller's own counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Committed {
    pub masked: u64,
    pub cut: u64,
    /// Lines a writer without the lock appended after the rename, carried.
    pub carried: u64,
    /// Bytes of the old log's torn last line, left out.
    pub torn_dropped: u64,
}

impl OldLog {
    /// The log `log_name` of `folder`, opened (absent: nothing to read).
    pub(crate) fn open(folder: &Folder, log_name: &str) -> Result<OldLog, CoreError> {
        Ok(OldLog {
            file: folder
                .open_file(log_name, Access::Read)?
                .map(|(file, _, _)| file),
            shown: folder.path.join(log_name).to_string_lossy().into_owned(),
            consumed: 0,
        })
    }

    /// Whether there was a log to open.
    pub(crate) fn exists(&self) -> bool {
        self.file.is_some()
    }

    /// Called right before the log is renamed over: Windows renames no
    /// file over one that has an open handle, so there the old log is
    /// closed (and nothing is carried over: a writer there holds the file
    /// open, and the rename waits for it, up to a second, then fails).
    pub(crate) fn before_replace(&mut self) {
        #[cfg(windows)]
        {
            self.file = None;
        }
    }

    /// Calls `each` with every complete line from `consumed` on, again
    /// while the file grows, at most [`CATCH_UP_PASSES`] times: a writer
    /// that never stops would hold a rewrite forever, and what it appends
    /// after the last pass is carried over after the rename.
    pub(crate) fn read(
        &mut self,
        each: &mut dyn FnMut(&[u8]) -> Result<(), CoreError>,
    ) -> Result<(), CoreError> {
        let Some(file) = self.file.as_mut() else {
            return Ok(());
        };
        let path = std::path::PathBuf::from(&self.shown);
        for _ in 0..CATCH_UP_PASSES {
            let size = file
                .metadata()
                .map_err(|err| CoreError::io(&err, "fstat", &self.shown))?
                .len();
            if size <= self.consumed {
                return Ok(());
            }
            crate::progress::expect(size - self.consumed);
            file.seek(SeekFrom::Start(self.consumed))
                .map_err(|err| CoreError::io(&err, "read", &self.shown))?;
            let end = for_each_line(file, size - self.consumed, &path, |line| {
                crate::progress::advance(line.len() as u64);
                each(line)
            })?;
            if end.whole_bytes == 0 {
                return Ok(());
            }
            self.consumed += end.whole_bytes;
        }
        Ok(())
    }

    /// The bytes after the last complete line (a writer that died mid-line).
    pub(crate) fn torn_tail(&mut self) -> Result<Vec<u8>, CoreError> {
        let Some(file) = self.file.as_mut() else {
            return Ok(Vec::new());
        };
        let mut torn = Vec::new();
        file.seek(SeekFrom::Start(self.consumed))
            .and_then(|_| {
                file.take(crate::persistent_chat::log::MAX_LINE_BYTES as u64)
                    .read_to_end(&mut torn)
            })
            .map_err(|err| CoreError::io(&err, "read", &self.shown))?;
        Ok(torn)
    }

    /// Whether a process other than this one's handle has the old log open
    /// (`None`: the platform cannot say).
    fn others_hold_it(&self) -> Option<bool> {
        self.file.as_ref().and_then(others_hold)
    }
}

/// Whether another descriptor than `file` has its file open: Linux grants a
/// write lease only to the sole opener (taken and given back at once).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn others_hold(file: &File) -> Option<bool> {
    use std::os::fd::AsRawFd;
    let fd = file.as_raw_fd();
    // SAFETY: fcntl on a descriptor this process owns; a lease taken is
    // released on the next line.
    let taken = unsafe { libc::fcntl(fd, libc::F_SETLEASE, libc::F_WRLCK) };
    if taken == 0 {
        // SAFETY: as above.
        unsafe { libc::fcntl(fd, libc::F_SETLEASE, libc::F_UNLCK) };
        return Some(false);
    }
    match std::io::Error::last_os_error().raw_os_error() {
        Some(libc::EAGAIN) | Some(libc::EBUSY) => Some(true),
        _ => None,
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn others_hold(_file: &File) -> Option<bool> {
    None
}
