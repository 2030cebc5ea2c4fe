//! The chat store: every byte of a chat's folder has its one owner here.
//!
//! - [`layout`]: the folder name from the session key, the file names, the
//!   modes, and the names of earlier releases (found and renamed);
//! - [`rules`]: what the store accepts as a folder or file (type, links,
//!   owner, mode), checked on the open handle; one code, `ENOTREGULAR`, for
//!   every refusal, read or write;
//! - `sys`: the platform layer (a folder handle and `openat` on unix);
//! - [`append`](ChatStore::append_entry): one line, one write, torn-tail
//!   repair, sync, truncated back on failure;
//! - `lock`: the folder's advisory lock, shared by appends, prompt builds
//!   and index writes, exclusive for a rewrite of the log (`forget`, a
//!   merging `import`, `restore`);
//! - `replace`: the one atomic replace (temp file or folder, synced,
//!   renamed), stale temp files of dead processes removed when a folder is
//!   opened;
//! - [`lines`]: the log's complete lines up to a size taken once (a torn
//!   last line left out and counted), and a hashing, line-counting reader;
//! - `writer`: the in door, every line that enters a log; `rewrite`: a
//!   rewrite of the log (forget, import) that loses no line a writer without
//!   the lock appends meanwhile;
//! - [`inspect`]: what `doctor` shows of a folder, read-only;
//! - [`turn`]: the reload decision; [`prepare`]: a turn's prompt from the
//!   folder's files in one call; [`refresh`]: the mark a compaction leaves
//!   for the next turn;
//! - `search`: the search index as one more file of the folder, opened and
//!   replaced under these rules ([`ChatStore::search`]).
//!
//! The tail reader stays in `persistent_chat::log`; the store calls it on a
//! handle it opened under its own rules.

mod append;
pub(crate) mod entry_json;
pub mod inspect;
pub mod layout;
pub mod lines;
pub(crate) mod lock;
pub mod prepare;
pub mod refresh;
pub mod replace;
pub(crate) mod rewrite;
pub mod rules;
mod search;
pub(crate) mod sys;
pub mod tombstones;
pub mod turn;
pub mod writer;

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub use append::Appended;
pub use entry_json::entry_json;
pub use inspect::{inspect_folder, Inspection};

use crate::error::CoreError;
use crate::mask::{builtin_masker, Masker};
use crate::persistent_chat::fs::read_at_most;
use crate::persistent_chat::log::{read_open_log_tail, LogEntry, LogTail, TailOptions};
use crate::persistent_chat::prompt::DEFAULT_MAX_ENTRY_CHARS;
use crate::persistent_chat::state::{parse_state_json, MemoryState, MAX_STATE_FILE_BYTES};
use layout::{
    earlier_folder_names, folder_name, LAST_PROMPT_FILE, LOG_FILE, MEMORY_STATE_FILE, OWNER_FILE,
    SUMMARY_FILE, TOMBSTONE_FILE,
};
use lock::{ChatLock, LockKind};
use rules::Kind;
use sys::{Access, Folder, StateDir};

/// One chat's folder, found (or migrated, or created) and checked. It keeps
/// no handle open: each call opens the folder again and checks it and the
/// file it uses on their handles, so a folder replaced meanwhile is never
/// written through a stale handle, and nothing waits on the garbage
/// collector to close a descriptor.
#[derive(Clone)]
pub struct ChatStore {
    folder: PathBuf,
    summary_name: String,
    migrated_from: Option<PathBuf>,
    removed_temp_files: Vec<String>,
    /// Masks every text the store writes: no raw secret reaches a file of
    /// the folder, whoever calls. The built-in patterns unless
    /// [`Self::with_masker`] gives the operator's.
    masker: Arc<Masker>,
}

impl std::fmt::Debug for ChatStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChatStore")
            .field("folder", &self.folder)
            .field("summary_name", &self.summary_name)
            .field("migrated_from", &self.migrated_from)
            .finish_non_exhaustive()
    }
}

impl ChatStore {
    /// The chat folder of `session_key` (UTF-16 units) under `state_dir`:
    /// found, else an earlier release's folder renamed to its name (history
    /// and all), else created 0700 (the state dir too, when missing).
    pub fn open_for_key(state_dir: &Path, session_key: &[u16]) -> Result<ChatStore, CoreError> {
        let state = StateDir::open(state_dir, true)?;
        let name = folder_name(session_key);
        let mut migrated_from = None;
        if state.status_of(&name)?.is_none() {
            for old in earlier_folder_names(session_key) {
                let Some(found) = state.status_of(&old)? else {
                    continue;
                };
                let old_path = state.path.join(&old);
                let shown = old_path.to_string_lossy().into_owned();
                if found.kind == Kind::Symlink {
                    return Err(CoreError::NotRegularFile {
                        path: shown,
                        kind: "symlink",
                    });
                }
                rules::check_folder(&found, &shown)?;
                state.rename(&old, &name)?;
                migrated_from = Some(old_path);
                break;
            }
        }
        let (folder, _) = state.folder(&name, true)?;
        Self::ready(folder, SUMMARY_FILE.to_owned(), migrated_from, true)
    }

    /// [`Self::open_for_key`] for a reader that must change nothing (the
    /// CLI's `search`): nothing is created, migrated or cleaned. The chat's
    /// folder, else an earlier release's folder where it is; `ENOENT` naming
    /// the folder's path when the key has none (or the state dir is missing).
    pub fn find_for_key(state_dir: &Path, session_key: &[u16]) -> Result<ChatStore, CoreError> {
        let state = StateDir::open(state_dir, false)?;
        let name = folder_name(session_key);
        let [older, oldest] = earlier_folder_names(session_key);
        for candidate in [name.as_str(), &older, &oldest] {
            if state.status_of(candidate)?.is_some() {
                let (folder, _) = state.folder(candidate, false)?;
                return Self::ready(folder, SUMMARY_FILE.to_owned(), None, false);
            }
        }
        let missing = std::io::Error::from(std::io::ErrorKind::NotFound);
        Err(CoreError::io(
            &missing,
            "open",
            &state.path.join(name).to_string_lossy(),
        ))
    }

    /// The chat folder at `folder` (an operator's `sessionStateDirs` entry,
    /// or the runtime's files), created 0700 with its parents when missing.
    /// `summary_name`: the summary's file name in it, when not the default.
    pub fn open_folder(folder: &Path, summary_name: Option<&str>) -> Result<ChatStore, CoreError> {
        Self::folder_at(folder, summary_name, true)
    }

    /// [`Self::open_folder`] for a reader that must change nothing: the
    /// folder must exist (`ENOENT` otherwise); nothing is created or cleaned.
    pub fn find_folder(folder: &Path, summary_name: Option<&str>) -> Result<ChatStore, CoreError> {
        Self::folder_at(folder, summary_name, false)
    }

    fn folder_at(
        folder: &Path,
        summary_name: Option<&str>,
        create: bool,
    ) -> Result<ChatStore, CoreError> {
        let summary_name = summary_name.unwrap_or(SUMMARY_FILE);
        if summary_name.is_empty() || summary_name.contains(['/', '\\', '\0']) {
            return Err(CoreError::Refused {
                path: folder.join(summary_name).to_string_lossy().into_owned(),
                what: "not a file name in the chat folder".into(),
            });
        }
        // The summary is replaced at every reload: named like a file the store
        // keeps for something else (the log, the lock, the index…), it would
        // replace that file.
        if layout::owned_name(summary_name) && summary_name != SUMMARY_FILE {
            return Err(CoreError::Refused {
                path: folder.join(summary_name).to_string_lossy().into_owned(),
                what: "a file the chat store keeps for something else; name the summary otherwise"
                    .into(),
            });
        }
        let (folder, _) = sys::open_folder(folder, create)?;
        Self::ready(folder, summary_name.to_owned(), None, create)
    }

    /// Checks every file of the folder that exists, then (`clean`) removes
    /// stale temp files.
    fn ready(
        folder: Folder,
        summary_name: String,
        migrated_from: Option<PathBuf>,
        clean: bool,
    ) -> Result<ChatStore, CoreError> {
        let store = ChatStore {
            folder: folder.path.clone(),
            summary_name,
            migrated_from,
            removed_temp_files: Vec::new(),
            masker: builtin_masker(),
        };
        for name in store.file_names() {
            folder.open_file(name, Access::Read)?;
        }
        if !clean {
            return Ok(store);
        }
        let removed_temp_files = replace::remove_stale_temp_files(&folder);
        Ok(ChatStore {
            removed_temp_files,
            ..store
        })
    }

    fn file_names(&self) -> [&str; 5] {
        [
            LOG_FILE,
            &self.summary_name,
            LAST_PROMPT_FILE,
            MEMORY_STATE_FILE,
            TOMBSTONE_FILE,
        ]
    }

    pub fn folder(&self) -> &Path {
        &self.folder
    }

    pub fn log_path(&self) -> PathBuf {
        self.folder.join(LOG_FILE)
    }

    pub fn summary_path(&self) -> PathBuf {
        self.folder.join(&self.summary_name)
    }

    pub fn last_prompt_path(&self) -> PathBuf {
        self.folder.join(LAST_PROMPT_FILE)
    }

    pub fn memory_state_path(&self) -> PathBuf {
        self.folder.join(MEMORY_STATE_FILE)
    }

    /// The folder an earlier release's name was renamed from, if it was.
    pub fn migrated_from(&self) -> Option<&Path> {
        self.migrated_from.as_deref()
    }

    /// Temp files of dead processes removed when the folder was opened.
    pub fn removed_temp_files(&self) -> &[String] {
        &self.removed_temp_files
    }

    /// The folder, opened again and checked.
    fn open(&self) -> Result<Folder, CoreError> {
        Ok(sys::open_folder(&self.folder, false)?.0)
    }

    /// The folder, opened again and checked, and its lock held shared: what
    /// writes a file of the folder holds, so that a rewrite of the log never
    /// loses an append and no derived file is written from a log a rewrite
    /// has just replaced.
    fn open_shared(&self) -> Result<(Folder, ChatLock), CoreError> {
        let folder = self.open()?;
        let lock = ChatLock::take(&folder, LockKind::Shared, lock::WAIT)?;
        Ok((folder, lock))
    }

    /// The folder's lock held shared, for a call made of several steps (a
    /// turn's prompt: the log read, the summary written).
    pub(crate) fn lock_shared(&self) -> Result<ChatLock, CoreError> {
        Ok(self.open_shared()?.1)
    }

    /// This store with `masker` (the operator's patterns besides the
    /// built-in ones) for everything it writes.
    pub fn with_masker(self, masker: Arc<Masker>) -> ChatStore {
        ChatStore { masker, ..self }
    }

    /// Appends `entry` to the log as one JSON line, through the in door
    /// ([`writer`]: masked, cut to the line cap); `durable`: synced.
    pub fn append_entry(&self, entry: &LogEntry, durable: bool) -> Result<Appended, CoreError> {
        let written = writer::entry_line(entry, &self.masker);
        let (folder, _lock) = self.open_shared()?;
        append::append_line(&folder, LOG_FILE, &written.line, durable)
    }

    /// Replaces the continuity summary with `text` (masked, as UTF-8).
    pub fn replace_summary(&self, text: &[u16]) -> Result<(), CoreError> {
        self.replace_summary_masked(&self.masker.mask(text))
    }

    /// [`Self::replace_summary`] for a text this store's masker has masked
    /// already (`prepare_turn`'s): one pass, not two.
    fn replace_summary_masked(&self, masked: &[u16]) -> Result<(), CoreError> {
        let (folder, _lock) = self.open_shared()?;
        replace::replace_file(
            &folder,
            &self.summary_name,
            String::from_utf16_lossy(masked).as_bytes(),
        )
    }

    /// Replaces `last-injected-preprompt.txt` with `text` (masked, as UTF-8).
    pub fn replace_last_prompt(&self, text: &[u16]) -> Result<(), CoreError> {
        let (folder, _lock) = self.open_shared()?;
        replace::replace_file(
            &folder,
            LAST_PROMPT_FILE,
            String::from_utf16_lossy(&self.masker.mask(text)).as_bytes(),
        )
    }

    /// The last `limit` entries of the log, oldest first (a log not written
    /// yet is empty), each text masked with this store's masker (a log of an
    /// earlier release, an import or the runtime's files hold what it masks).
    pub fn read_entries(&self, limit: usize) -> Result<LogTail, CoreError> {
        self.read_entries_cut(limit, None)
    }

    /// [`Self::read_entries`], each entry's text masked whole, then cut to
    /// `max_entry_chars` units as its line is read (the builders'
    /// `maxEntryChars` rule), so memory follows the cap, not the entries'
    /// sizes.
    fn read_entries_cut(
        &self,
        limit: usize,
        max_entry_chars: Option<usize>,
    ) -> Result<LogTail, CoreError> {
        let folder = self.open()?;
        let Some((file, status, _)) = folder.open_file(LOG_FILE, Access::Read)? else {
            return Ok(LogTail::default());
        };
        read_open_log_tail(
            &file,
            status.size,
            &self.log_path(),
            limit,
            TailOptions {
                max_entry_chars,
                ..TailOptions::default()
            },
            Some(&self.masker),
        )
    }

    /// The memory script's state; a missing or empty file is an empty state.
    /// Errors as `read_state_file_or_empty`'s: `EFBIG`, `EINVAL` when it is
    /// not valid state JSON.
    pub fn read_memory_state(&self) -> Result<MemoryState, CoreError> {
        let folder = self.open()?;
        let path = self.memory_state_path();
        let shown = path.to_string_lossy();
        let Some((file, status, _)) = folder.open_file(MEMORY_STATE_FILE, Access::Read)? else {
            return Ok(MemoryState::default());
        };
        let too_large = || CoreError::Io {
            code: "EFBIG",
            syscall: "read",
            path: shown.to_string(),
            reason: "memory state file too large".into(),
        };
        let bytes =
            read_at_most(file, status.size, MAX_STATE_FILE_BYTES, &shown)?.ok_or_else(too_large)?;
        parse_state_json(&bytes).map_err(|reason| CoreError::Io {
            code: "EINVAL",
            syscall: "read",
            path: shown.to_string(),
            reason: format!("memory state file is not valid: {reason}"),
        })
    }

    /// The log window of a turn and whether the turn is a reload
    /// ([`turn::is_reload`]). Each entry's text is cut as the prompt shows
    /// it (the builders' default `maxEntryChars`): a window of 500 entries
    /// of 8 MiB each never reaches the caller whole.
    pub fn read_turn_window(
        &self,
        limit: usize,
        current_session: Option<&[u16]>,
    ) -> Result<(LogTail, bool), CoreError> {
        let tail = self.read_entries_cut(limit, Some(DEFAULT_MAX_ENTRY_CHARS))?;
        let reload = turn::is_reload(&tail.entries, current_session);
        Ok((tail, reload))
    }

    /// Whether this folder's chat is `session_key`'s, for a folder that
    /// several keys could name (the runtime's `PERSISTENT_CHAT_CONTINUITY_PATH`
    /// files, which every chat used to share): the first key to claim it owns
    /// it for good, so no other chat ever sees its history. The claim is
    /// [`OWNER_FILE`], created `O_EXCL` (two first turns at once: one wins),
    /// holding the owner's folder name (`folder_name`: no key in clear).
    pub fn claim_for_key(&self, session_key: &[u16]) -> Result<bool, CoreError> {
        let folder = self.open()?;
        let name = folder_name(session_key);
        let path = self.folder.join(OWNER_FILE);
        let shown = path.to_string_lossy();
        if let Some((file, _, _)) = folder.open_file(OWNER_FILE, Access::Read)? {
            let mut owner = String::new();
            file.take(256)
                .read_to_string(&mut owner)
                .map_err(|err| CoreError::io(&err, "read", &shown))?;
            return Ok(owner.trim_end() == name);
        }
        match replace::write_new(&folder, OWNER_FILE, format!("{name}\n").as_bytes()) {
            Ok(()) => Ok(true),
            // Another key's first turn created it a moment ago: it is theirs.
            Err(CoreError::Io { code: "EEXIST", .. }) => Ok(false),
            Err(err) => Err(err),
        }
    }

    /// `archive::forget` over this chat's log, with this store's masker.
    pub fn forget(
        &self,
        rule: &crate::archive::ForgetRule,
        apply: bool,
    ) -> Result<crate::archive::Forgotten, CoreError> {
        crate::archive::forget(
            &crate::archive::Chat::Log(self.log_path()),
            rule,
            apply,
            &self.masker,
        )
    }

    /// What `doctor` shows of this folder.
    pub fn inspect(&self, window: usize) -> Inspection {
        inspect_folder(&self.folder, Some(&self.summary_name), window)
    }
}
