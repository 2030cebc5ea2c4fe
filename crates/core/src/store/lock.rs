//! The chat folder's lock: an advisory lock (`flock` on unix, `LockFileEx`
//! on Windows, through std's `File::lock`) on [`LOCK_FILE`], a file of the
//! folder under the store's rules (0600, no links, owner checked on the
//! handle). Appends, prompt builds and index writes hold it shared (they
//! never wait on each other: an `O_APPEND` write is atomic on its own); a
//! rewrite of the log (`forget`, a merging `import`, `restore`) holds it
//! exclusive, so neither loses the other's work.
//!
//! The lock is on a file of its own, not on the log: a rewrite replaces the
//! log by rename, and a lock on the old file would guard nothing.
//!
//! Waiting is polled, never a blocking call: a lock held by a process that
//! hangs costs a caller at most [`WAIT`], then an `EBUSY` error naming the
//! lock file. WASI has no advisory locks: there the lock is a no-op (the
//! WASI build is a fallback for one process).

use std::fs::File;
use std::io;
use std::time::{Duration, Instant};

use super::layout::LOCK_FILE;
use super::sys::{Access, Folder};
use crate::error::CoreError;

/// How long a caller waits for the lock at most.
pub(crate) const WAIT: Duration = Duration::from_secs(60);

/// Held until dropped (closing the handle releases the lock).
#[derive(Debug)]
pub(crate) struct ChatLock {
    _file: Option<File>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LockKind {
    /// Appends, prompt builds, index writes.
    Shared,
    /// A rewrite of the log.
    Exclusive,
}

impl ChatLock {
    /// Takes the folder's lock, waiting at most `wait`.
    pub(crate) fn take(folder: &Folder, kind: LockKind, wait: Duration) -> Result<Self, CoreError> {
        let path = folder.path.join(LOCK_FILE);
        let shown = path.to_string_lossy();
        let (file, _, _) = folder
            .open_file(LOCK_FILE, Access::Append)?
            .ok_or_else(|| CoreError::io(&io::ErrorKind::NotFound.into(), "open", &shown))?;
        let started = Instant::now();
        let mut pause = Duration::from_millis(1);
        loop {
            let attempt = match kind {
                LockKind::Shared => file.try_lock_shared(),
                LockKind::Exclusive => file.try_lock(),
            };
            match attempt {
                Ok(()) => return Ok(ChatLock { _file: Some(file) }),
                Err(std::fs::TryLockError::WouldBlock) => {}
                Err(std::fs::TryLockError::Error(err))
                    if err.kind() == io::ErrorKind::Unsupported =>
                {
                    return Ok(ChatLock { _file: None });
                }
                Err(std::fs::TryLockError::Error(err)) => {
                    return Err(CoreError::io(&err, "flock", &shown));
                }
            }
            if started.elapsed() >= wait {
                return Err(CoreError::Io {
                    code: "EBUSY",
                    syscall: "flock",
                    path: shown.into_owned(),
                    reason: format!(
                        "the chat is locked by another process (a forget, import or restore?) for more than {} s",
                        wait.as_secs()
                    ),
                });
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_millis(50));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::sys::open_folder;
    use crate::test_support::TempDir;

    #[test]
    fn shared_holders_coexist_and_an_exclusive_one_waits_for_them() {
        let dir = TempDir::new("lock");
        let (folder, _) = open_folder(&dir.0.join("chat"), true).unwrap();
        let first = ChatLock::take(&folder, LockKind::Shared, WAIT).unwrap();
        let _second = ChatLock::take(&folder, LockKind::Shared, WAIT).unwrap();
        let busy = ChatLock::take(&folder, LockKind::Exclusive, Duration::from_millis(20));
        assert!(matches!(busy, Err(CoreError::Io { code: "EBUSY", .. })));
        drop(first);
        drop(_second);
        let exclusive = ChatLock::take(&folder, LockKind::Exclusive, WAIT).unwrap();
        let busy = ChatLock::take(&folder, LockKind::Shared, Duration::from_millis(20));
        assert!(matches!(busy, Err(CoreError::Io { code: "EBUSY", .. })));
        drop(exclusive);
        ChatLock::take(&folder, LockKind::Shared, WAIT).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(folder.path.join(LOCK_FILE))
                .unwrap()
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
