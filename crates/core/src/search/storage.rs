//! Where the index file lives: the seam the chat store takes over.
//!
//! The search reads and writes its index only through [`IndexFile`]. Until
//! the store (issue 29) owns the chat folder's files, [`IndexBeside`] keeps
//! it beside the log under the same rules as the log's readers: opened
//! without following links (`O_NOFOLLOW`), non-blocking (a FIFO is refused,
//! never waited on), checked on the handle to be a regular file with one
//! link and, on unix, owned by this process's user; written as a private
//! temp file (0600, `O_EXCL | O_NOFOLLOW`) renamed over the old one, so a
//! reader sees the old index or the new one, whole. The store replaces
//! [`IndexFile::save`] with its own atomic replace (and its stale temp file
//! cleaning) and [`IndexFile::load`] with its own checked open.
//!
//! The index is a cache: no sync on write (a torn or lost index fails its
//! checksum or fingerprint and is rebuilt), and a failed write is not an
//! error of the search.

use std::path::{Path, PathBuf};

use crate::error::CoreError;
use crate::persistent_chat::fs::{open_state_file, read_at_most};
use crate::persistent_chat::Links;
use crate::store::replace::{Durability, PlainDir, Replacement};

/// The file name suffix of an index kept beside its log.
pub const INDEX_SUFFIX: &str = ".search-index";

/// An index's file, as the search sees it.
pub trait IndexFile {
    /// A name for the in-process cache of parsed indexes (the file's path).
    fn key(&self) -> &Path;
    /// The file's bytes (at most `max_bytes`: a longer file is no index of
    /// ours); `None` when there is none. A symlink, FIFO, hard-linked or
    /// foreign file is an error, as for the log.
    fn load(&self, max_bytes: u64) -> Result<Option<Vec<u8>>, CoreError>;
    /// Replaces the file with `bytes`, atomically.
    fn save(&self, bytes: &[u8]) -> Result<(), CoreError>;
    /// After a save, the log as its path names it now, when the caller holds
    /// no lock that keeps a rewrite (forget, import, restore) from replacing
    /// it meanwhile; `None` when it does (the chat store's searches).
    fn log_now(&self) -> Option<Result<std::fs::File, CoreError>> {
        None
    }
    /// Removes the file (a saved index of a log that was replaced).
    fn discard(&self) {}
}

/// The index at `<log path>.search-index`.
#[derive(Debug, Clone)]
pub struct IndexBeside {
    path: PathBuf,
    log: PathBuf,
    /// How the search opened the log (a link at its path followed or not):
    /// the log is opened the same way again after a save.
    links: Links,
}

impl IndexBeside {
    pub fn for_log(log: &Path, links: Links) -> Self {
        let mut path = log.as_os_str().to_owned();
        path.push(INDEX_SUFFIX);
        IndexBeside {
            path: path.into(),
            log: log.to_owned(),
            links,
        }
    }
}

impl IndexFile for IndexBeside {
    fn key(&self) -> &Path {
        &self.path
    }

    fn load(&self, max_bytes: u64) -> Result<Option<Vec<u8>>, CoreError> {
        let shown = self.path.to_string_lossy();
        let (file, metadata) = match open_state_file(&self.path, Links::Refuse) {
            Err(CoreError::Io { code: "ENOENT", .. }) => return Ok(None),
            other => other?,
        };
        check_owner(&metadata, &shown)?;
        read_at_most(&file, metadata.len(), max_bytes, &shown)
    }

    fn save(&self, bytes: &[u8]) -> Result<(), CoreError> {
        replace_private(&self.path, bytes)
    }

    // A search by path takes no chat lock: a forget may have renamed a new log
    // over the one this index was built from, and removed the index, while it
    // was being built. The caller checks the saved index against the log the
    // path names now.
    fn log_now(&self) -> Option<Result<std::fs::File, CoreError>> {
        Some(open_state_file(&self.log, self.links).map(|(file, _)| file))
    }

    fn discard(&self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

#[cfg(unix)]
fn check_owner(metadata: &std::fs::Metadata, shown: &str) -> Result<(), CoreError> {
    use std::os::unix::fs::MetadataExt;
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    if metadata.uid() != me {
        return Err(CoreError::NotRegularFile {
            path: shown.to_owned(),
            kind: "file of another user",
        });
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_owner(_metadata: &std::fs::Metadata, _shown: &str) -> Result<(), CoreError> {
    Ok(())
}

/// Replaces `path` with `bytes` through the store's one atomic replace
/// (`store::replace`), as a cache: the store's temp name, so a chat
/// folder's open removes one this process left if it dies before the
/// rename, and forget removes it with the rest.
fn replace_private(path: &Path, bytes: &[u8]) -> Result<(), CoreError> {
    let name = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let dir = PlainDir::new(path.parent().unwrap_or(Path::new(".")));
    let mut replacement = Replacement::new(&dir, &name)?;
    replacement.write_all(bytes)?;
    replacement.commit(Durability::Cache)
}
