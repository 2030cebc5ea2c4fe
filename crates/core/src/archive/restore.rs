//! `restore`: a backup (a folder or a `.tar` made by `backup`) put back
//! into a state dir.
//!
//! - The backup is verified first (`verify`), by the rule restore itself
//!   reads members by (`members`): one problem (a flipped byte, a missing,
//!   extra or duplicate member, a name the store could not write, chats
//!   interleaved, a torn line, an entry of another type) and nothing is
//!   restored, before any folder or file is made. So only the names a
//!   backup holds (the chat folders its manifest lists, and in them the four
//!   files `backup` copies) are ever written.
//! - The log's lines enter through the store's in door (`store::writer`):
//!   a line an earlier writer stored unmasked is restored masked, and the
//!   report counts it.
//! - A chat folder that does not exist is created (0700, files 0600). One
//!   that exists is replaced only when its log holds no line the backup's
//!   lacks: otherwise it is refused, naming how many, unless `force`
//!   (restoring must not lose what was said since the backup).
//! - Each chat under its folder's lock, exclusive (`store::lock`): the
//!   gateway's appends wait, and the live log's lines are compared with
//!   the backup's under the lock, so none can slip in between. Each file
//!   is written to a private temp file of the folder and renamed over its
//!   name; the search index, derived from the old log, is removed.
//! - Without `apply` nothing is written, created or locked: the report says
//!   what would be done.

use std::collections::HashSet;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sha2::{Digest, Sha256};

use super::chat::absolute;
use super::manifest::{self, MANIFEST_FILE, MAX_MANIFEST_BYTES};
use super::members::{member, Member, Order};
use super::out::shown;
use super::verify::{verify, VerifiedKind, VerifyProblem};
use crate::error::CoreError;
use crate::mask::Masker;
use crate::persistent_chat::fs::open_state_file;
use crate::persistent_chat::log::parse_log_line;
use crate::persistent_chat::Links;
use crate::store::layout::{INDEX_FILE, LOG_FILE};
use crate::store::lock::{ChatLock, LockKind, WAIT};
use crate::store::replace::{Durability, TempFile};
use crate::store::rewrite::{carry_over, Keep, NewLog, OldLog};
use crate::store::sys::{Folder, StateDir};
use crate::store::tombstones::Tombstones;
use crate::store::writer::existing_line;

#[derive(Debug, Clone)]
pub struct RestoreOptions {
    /// The backup: a folder holding `manifest.json`, or a `.tar`.
    pub from: PathBuf,
    pub state_dir: PathBuf,
    pub apply: bool,
    /// Replace a chat whose log has lines the backup lacks (they are lost).
    pub force: bool,
    /// What the log's lines are masked with (the built-in patterns and the
    /// operator's).
    pub masker: Arc<Masker>,
}

// `force` also restores the entries `forget` removed from a chat since the
// backup (its list of forgotten entries): they are left out otherwise.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RestoreAction {
    /// The chat folder did not exist: created.
    Create,
    /// Its files replaced by the backup's.
    Replace,
    /// Its log is the backup's already, byte for byte: left as it is.
    Unchanged,
    /// Its log has lines the backup lacks: left as it is.
    Refused,
}

impl RestoreAction {
    pub fn as_str(self) -> &'static str {
        match self {
            RestoreAction::Create => "create",
            RestoreAction::Replace => "replace",
            RestoreAction::Unchanged => "unchanged",
            RestoreAction::Refused => "refused",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct RestoredChat {
    pub folder: String,
    pub action: RestoreAction,
    /// The backup's files for it (names).
    pub files: Vec<String>,
    /// Valid entries of the backup's log.
    pub entries: u64,
    /// Lines of the live log the backup lacks (lost when `force` replaces).
    pub live_only_lines: u64,
    /// Lines of the backup's log that masking changed (restored masked).
    pub masked_lines: u64,
    /// Entries of the backup's log that `forget` removed from the chat
    /// since: left out, unless `force`.
    pub forgotten: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Restore {
    pub from: PathBuf,
    pub state_dir: PathBuf,
    pub applied: bool,
    pub chats: Vec<RestoredChat>,
    /// The backup's problems (`verify`'s): when any, nothing is restored.
    pub problems: Vec<VerifyProblem>,
}

/// A line's identity: the first 16 bytes of its SHA-256.
type LineKey = [u8; 16];

fn line_key(line: &[u8]) -> LineKey {
    let digest = Sha256::digest(line);
    let mut key = [0u8; 16];
    key.copy_from_slice(&digest[..16]);
    key
}

/// Restores `options.from` into `options.state_dir`.
pub fn restore(options: &RestoreOptions) -> Result<Restore, CoreError> {
    let from = absolute(&options.from);
    let state_dir = absolute(&options.state_dir);
    let checked = verify(&from)?;
    let mut report = Restore {
        from: from.clone(),
        state_dir: state_dir.clone(),
        applied: false,
        chats: Vec::new(),
        problems: checked.problems,
    };
    if checked.kind == VerifiedKind::StateDir {
        return Err(CoreError::Refused {
            path: shown(&from),
            what: "not a backup (a folder with manifest.json, or a .tar)".into(),
        });
    }
    if !report.problems.is_empty() {
        return Ok(report);
    }
    let state = match StateDir::open(&state_dir, options.apply) {
        Ok(state) => Some(state),
        Err(CoreError::Io { code: "ENOENT", .. }) if !options.apply => None,
        Err(err) => return Err(err),
    };
    let mut restorer = Restorer {
        state: state.as_ref(),
        options,
        current: None,
        done: Vec::new(),
    };
    if checked.kind == VerifiedKind::BackupTar {
        read_tar(&from, &mut restorer)?;
    } else {
        read_folder(&from, &mut restorer)?;
    }
    restorer.finish_chat()?;
    report.chats = restorer.done;
    report.applied = options.apply;
    Ok(report)
}

/// The backup folder's files, chat by chat, in the manifest's order.
fn read_folder(root: &Path, restorer: &mut Restorer) -> Result<(), CoreError> {
    let (file, _) = open_state_file(&root.join(MANIFEST_FILE), Links::Refuse)?;
    let mut bytes = Vec::new();
    file.take(MAX_MANIFEST_BYTES)
        .read_to_end(&mut bytes)
        .map_err(|err| CoreError::io(&err, "read", &shown(&root.join(MANIFEST_FILE))))?;
    let chats = manifest::parse(&bytes).map_err(|what| CoreError::Refused {
        path: shown(&root.join(MANIFEST_FILE)),
        what,
    })?;
    for chat in chats {
        restorer.start_chat(&chat.folder)?;
        for file in chat.files {
            let path = root.join(&chat.folder).join(&file.name);
            let (handle, _) = open_state_file(&path, Links::Refuse)?;
            restorer.file(&file.name, &mut BufReader::new(handle), &path)?;
        }
    }
    Ok(())
}

/// The tar's files in its order (a backup's: each chat's folder, then its
/// files, the log first).
fn read_tar(path: &Path, restorer: &mut Restorer) -> Result<(), CoreError> {
    let (file, _) = open_state_file(path, Links::Refuse)?;
    let bad = |err: io::Error| CoreError::io(&err, "read", &shown(path));
    let mut archive = tar::Archive::new(BufReader::new(file));
    let mut order = Order::default();
    for entry in archive.entries().map_err(bad)? {
        let mut entry = entry.map_err(bad)?;
        let name = entry
            .path()
            .map_err(bad)?
            .to_string_lossy()
            .trim_end_matches('/')
            .to_owned();
        let parts: Vec<&str> = name.split('/').collect();
        let shown_path = PathBuf::from(format!("{}:{name}", shown(path)));
        let is_folder = match entry.header().entry_type() {
            tar::EntryType::Directory => true,
            tar::EntryType::Regular => false,
            _ => return Err(not_a_member(&shown_path, "not a file or folder".into())),
        };
        // `verify` passed the same rule before anything was written: a refusal
        // here means the tar changed since.
        let checked = member(&parts, is_folder).and_then(|m| order.next(m).map(|()| m));
        match checked.map_err(|(_, what)| not_a_member(&shown_path, what))? {
            Member::Manifest => {}
            Member::Folder(folder) => restorer.start_chat(folder)?,
            Member::File { name: file, .. } => restorer.file(file, &mut entry, &shown_path)?,
        }
    }
    Ok(())
}

fn not_a_member(path: &Path, what: String) -> CoreError {
    CoreError::Refused {
        path: shown(path),
        what: format!("{what}; the backup changed after it was verified"),
    }
}

/// The chat being restored.
struct Current {
    name: String,
    /// The folder (absent in a dry run when it does not exist).
    folder: Option<Folder>,
    existed: bool,
    _lock: Option<ChatLock>,
    chat: RestoredChat,
    /// Temp files written (one per file of the backup), renamed at the end.
    temps: Vec<TempFile>,
    /// The live log as `decide` read it: what a writer without the lock
    /// appends after that is carried into the restored log.
    live: Option<OldLog>,
    backup_lines: HashSet<LineKey>,
    backup_log_sha: Option<[u8; 32]>,
    /// The chat's forgotten entries (empty with `force`).
    forgotten: Tombstones,
}

struct Restorer<'a> {
    state: Option<&'a StateDir>,
    options: &'a RestoreOptions,
    current: Option<Current>,
    done: Vec<RestoredChat>,
}

impl Restorer<'_> {
    fn start_chat(&mut self, name: &str) -> Result<(), CoreError> {
        self.finish_chat()?;
        if self.done.iter().any(|chat| chat.folder == name) {
            return Err(CoreError::Refused {
                path: name.to_owned(),
                what: "the backup holds this chat twice".into(),
            });
        }
        if let Err((_, what)) = member(&[name], true) {
            return Err(not_a_member(&self.options.state_dir.join(name), what));
        }
        let existed = match self.state {
            Some(state) => state.status_of(name)?.is_some(),
            None => false,
        };
        let folder = match self.state {
            Some(state) if existed || self.options.apply => Some(state.folder(name, true)?.0),
            _ => None,
        };
        let lock = match (&folder, self.options.apply) {
            (Some(folder), true) => Some(ChatLock::take(folder, LockKind::Exclusive, WAIT)?),
            _ => None,
        };
        let forgotten = match (&folder, self.options.force) {
            (Some(folder), false) => Tombstones::read(folder)?,
            _ => Tombstones::default(),
        };
        self.current = Some(Current {
            name: name.to_owned(),
            folder,
            existed,
            _lock: lock,
            chat: RestoredChat {
                folder: name.to_owned(),
                action: if existed {
                    RestoreAction::Replace
                } else {
                    RestoreAction::Create
                },
                files: Vec::new(),
                entries: 0,
                live_only_lines: 0,
                masked_lines: 0,
                forgotten: 0,
            },
            temps: Vec::new(),
            live: None,
            backup_lines: HashSet::new(),
            backup_log_sha: None,
            forgotten,
        });
        Ok(())
    }

    /// One file of the current chat: read whole (the log's lines keyed),
    /// written to a temp file of the folder when applying.
    fn file(&mut self, name: &str, reader: &mut dyn Read, from: &Path) -> Result<(), CoreError> {
        let Some(current) = self.current.as_mut() else {
            return Err(CoreError::Refused {
                path: shown(from),
                what: "a file outside a chat folder".into(),
            });
        };
        if let Err((_, what)) = member(&[&current.name, name], false) {
            return Err(not_a_member(from, what));
        }
        current.chat.files.push(name.to_owned());
        let apply = self.options.apply;
        let mut temp = match (&current.folder, apply) {
            (Some(folder), true) => Some(TempFile::create(folder, name)?),
            _ => None,
        };
        let read_error = |err: io::Error| CoreError::io(&err, "read", &shown(from));
        let is_log = name == LOG_FILE;
        let masker = &*self.options.masker;
        // The log's lines as the in door writes them: what is written, hashed
        // and keyed (a live log that holds them already is unchanged).
        let mut hasher = Sha256::new();
        let mut line = Vec::new();
        let mut buffer = vec![0u8; 1 << 16];
        let mut put = |current: &mut Current, bytes: &[u8]| -> Result<(), CoreError> {
            if let Some(temp) = temp.as_mut() {
                temp.write_all(bytes)?;
            }
            if is_log {
                hasher.update(bytes);
                current.backup_lines.insert(line_key(bytes));
            }
            Ok(())
        };
        loop {
            let read = reader.read(&mut buffer).map_err(read_error)?;
            if read == 0 {
                break;
            }
            let chunk = &buffer[..read];
            if !is_log {
                put(current, chunk)?;
                continue;
            }
            for piece in chunk.split_inclusive(|&b| b == b'\n') {
                line.extend_from_slice(piece);
                if line.last() != Some(&b'\n') {
                    continue;
                }
                let written = existing_line(&line[..line.len() - 1], masker);
                let mut out = written.line.into_owned();
                out.push(b'\n');
                let entry = parse_log_line(&out);
                if entry
                    .as_ref()
                    .is_some_and(|entry| current.forgotten.holds(entry))
                {
                    current.chat.forgotten += 1;
                    line.clear();
                    continue;
                }
                if entry.is_some() {
                    current.chat.entries += 1;
                }
                current.chat.masked_lines += u64::from(written.masked);
                put(current, &out)?;
                line.clear();
            }
        }
        if is_log {
            // `verify` refuses a torn last line: any left is written as read.
            if !line.is_empty() {
                if let Some(temp) = temp.as_mut() {
                    temp.write_all(&line)?;
                }
                hasher.update(&line);
            }
            current.backup_log_sha = Some(hasher.finalize().into());
        }
        if let Some(temp) = temp {
            current.temps.push(temp);
        }
        Ok(())
    }

    /// Decides the current chat (the live log against the backup's) and
    /// renames its temp files into place, the log last, or removes them.
    fn finish_chat(&mut self) -> Result<(), CoreError> {
        let Some(mut current) = self.current.take() else {
            return Ok(());
        };
        let result = self.decide(&mut current);
        let keep = matches!(result, Ok(RestoreAction::Create | RestoreAction::Replace))
            && self.options.apply;
        let temps = std::mem::take(&mut current.temps);
        if let Some(folder) = current.folder.as_ref() {
            if keep {
                self.put_in_place(folder, temps, current.live.take())?;
            } else {
                for temp in temps {
                    temp.discard(folder);
                }
            }
        }
        current.chat.action = result?;
        self.done.push(current.chat);
        Ok(())
    }

    /// Renames `temps` into place, the log last (a crash before it leaves
    /// the old log with the backup's other files, never the reverse), then
    /// carries into the restored log what a writer without the lock appended
    /// to the `live` one after `decide` read it; the index removed.
    fn put_in_place(
        &self,
        folder: &Folder,
        mut temps: Vec<TempFile>,
        live: Option<OldLog>,
    ) -> Result<(), CoreError> {
        temps.sort_by_key(|temp| temp.target().ends_with(LOG_FILE));
        let mut temps = temps.into_iter();
        let mut live = live;
        while let Some(temp) = temps.next() {
            let is_log = temp.target().ends_with(LOG_FILE);
            if is_log {
                if let Some(live) = live.as_mut() {
                    live.before_replace();
                }
            }
            if let Err(err) = temp.commit(folder, Durability::Durable, || Ok(())) {
                for rest in temps {
                    rest.discard(folder);
                }
                return Err(err);
            }
            if let (true, Some(live)) = (is_log, live.as_mut()) {
                let mut new = NewLog::appending(folder, LOG_FILE, &self.options.masker);
                carry_over(live, &mut new, &mut |_, _| Ok(Keep::Line))?;
            }
        }
        if folder.status_of(INDEX_FILE)?.is_some() {
            folder.remove(INDEX_FILE).map_err(|err| {
                CoreError::io(&err, "unlink", &shown(&folder.path.join(INDEX_FILE)))
            })?;
        }
        folder.sync()
    }

    fn decide(&self, current: &mut Current) -> Result<RestoreAction, CoreError> {
        if !current.existed {
            return Ok(RestoreAction::Create);
        }
        let Some(folder) = current.folder.as_ref() else {
            return Ok(RestoreAction::Create);
        };
        let mut live = OldLog::open(folder, LOG_FILE)?;
        if !live.exists() {
            return Ok(RestoreAction::Replace);
        }
        let mut hasher = Sha256::new();
        let mut live_only = 0u64;
        live.read(&mut |line| {
            hasher.update(line);
            if !current.backup_lines.contains(&line_key(line)) {
                live_only += 1;
            }
            Ok(())
        })?;
        // A torn last line is not an entry: not counted, and lost on replace.
        let torn = !live.torn_tail()?.is_empty();
        current.live = Some(live);
        let same = !torn && Some(<[u8; 32]>::from(hasher.finalize())) == current.backup_log_sha;
        current.chat.live_only_lines = live_only;
        if same {
            return Ok(RestoreAction::Unchanged);
        }
        if live_only > 0 && !self.options.force {
            return Ok(RestoreAction::Refused);
        }
        Ok(RestoreAction::Replace)
    }
}
