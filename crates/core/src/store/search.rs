//! The search index as one more file of the chat folder: the search reads
//! and writes it only through the store's checked open (type, links, owner,
//! mode on the handle, relative to the checked folder) and its atomic
//! replace, whose stale temp files the store removes. The log is opened the
//! same way; a chat with no log yet has nothing to find.

use std::path::{Path, PathBuf};

use std::fs::File;

use super::layout::{INDEX_FILE, LOG_FILE};
use super::lock::{ChatLock, LockKind, WAIT};
use super::replace::replace_file;
use super::sys::{Access, Folder};
use super::ChatStore;
use crate::error::CoreError;
use crate::persistent_chat::fs::read_at_most;
use crate::search::{
    read_open_log_window, search_open_log_within, warm_open_log_index, IndexFile, SearchHit,
    SearchOptions, Window, WindowEntry,
};

/// The index of a folder the store opened and checked.
struct FolderIndex<'a> {
    folder: &'a Folder,
    path: PathBuf,
}

impl<'a> FolderIndex<'a> {
    fn new(folder: &'a Folder) -> Self {
        FolderIndex {
            folder,
            path: folder.path.join(INDEX_FILE),
        }
    }
}

impl IndexFile for FolderIndex<'_> {
    fn key(&self) -> &Path {
        &self.path
    }

    fn load(&self, max_bytes: u64) -> Result<Option<Vec<u8>>, CoreError> {
        let Some((file, status, _)) = self.folder.open_file(INDEX_FILE, Access::Read)? else {
            return Ok(None);
        };
        read_at_most(file, status.size, max_bytes, &self.path.to_string_lossy())
    }

    fn save(&self, bytes: &[u8]) -> Result<(), CoreError> {
        replace_file(self.folder, INDEX_FILE, bytes)
    }
}

impl ChatStore {
    /// The folder, its lock held shared (the index is never written from a
    /// log a rewrite replaced), and the log opened after the lock; `None`
    /// when the chat has no log (then nothing is locked or created).
    fn open_log_shared(&self) -> Result<Option<(Folder, ChatLock, File)>, CoreError> {
        let folder = self.open()?;
        if folder.status_of(LOG_FILE)?.is_none() {
            return Ok(None);
        }
        let lock = ChatLock::take(&folder, LockKind::Shared, WAIT)?;
        Ok(folder
            .open_file(LOG_FILE, Access::Read)?
            .map(|(log, _, _)| (folder, lock, log)))
    }

    /// Ranked full-text search over the chat's log (`search_log`'s rules:
    /// best first, an empty or wordless query gives no hits), its index kept
    /// in the folder as [`INDEX_FILE`], each hit masked with this store's
    /// masker before it is cut. A chat with no log gives no hits.
    pub fn search(
        &self,
        query: &[u16],
        options: &SearchOptions,
    ) -> Result<Vec<SearchHit>, CoreError> {
        Ok(self.search_within(query, options)?.unwrap_or_default())
    }

    /// [`ChatStore::search`], or `None` when `options.index_budget` is set
    /// and the folder's index lags the log by more, or is in use by another
    /// thread ([`search_open_log_within`]).
    pub fn search_within(
        &self,
        query: &[u16],
        options: &SearchOptions,
    ) -> Result<Option<Vec<SearchHit>>, CoreError> {
        let Some((folder, _lock, log)) = self.open_log_shared()? else {
            return Ok(Some(Vec::new()));
        };
        search_open_log_within(
            &log,
            &FolderIndex::new(&folder),
            query,
            options,
            &self.masker,
        )
    }

    /// Brings the folder's index up to the log's end (built, extended and
    /// written as a search would): what a turn's recall left for later. A
    /// chat with no log: nothing.
    pub fn warm_index(&self) -> Result<(), CoreError> {
        let Some((folder, _lock, log)) = self.open_log_shared()? else {
            return Ok(());
        };
        warm_open_log_index(&log, &FolderIndex::new(&folder))
    }

    /// The entries of `window` in the chat's log (`read_log_window`'s
    /// rules), masked with this store's masker, then cut; a chat with no log
    /// gives none.
    pub fn read_window(&self, window: &Window) -> Result<Vec<WindowEntry>, CoreError> {
        let Some((folder, _lock, log)) = self.open_log_shared()? else {
            return Ok(Vec::new());
        };
        read_open_log_window(&log, &FolderIndex::new(&folder), window, &self.masker)
    }
}
