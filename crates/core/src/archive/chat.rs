//! Which chat a command means, and its log opened read-only under the
//! store's rules.

use std::ffi::OsStr;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use crate::error::CoreError;
use crate::store::layout::{earlier_folder_names, folder_name, LOG_FILE};
use crate::store::sys::{self, Access, Folder, StateDir};

/// A chat, as the command line names it.
#[derive(Debug, Clone, PartialEq)]
pub enum Chat {
    /// `--log FILE`: a log file; its folder is checked as a chat folder.
    Log(PathBuf),
    /// `--state-dir DIR --session-key KEY`: the key's folder under the state
    /// dir (or an earlier release's name of it, found, not renamed).
    Key { state_dir: PathBuf, key: Vec<u16> },
}

/// A log opened for reading, and its size when it was opened: what a
/// reader copies (later appends are not part of it).
pub struct OpenLog {
    pub file: File,
    pub size: u64,
    pub path: PathBuf,
}

/// `path` made absolute against the current folder (a relative `--log`
/// has no parent to check otherwise).
pub(crate) fn absolute(path: &Path) -> PathBuf {
    if path.is_absolute() {
        return path.to_owned();
    }
    match std::env::current_dir() {
        Ok(cwd) => cwd.join(path),
        Err(_) => path.to_owned(),
    }
}

fn not_found(path: &Path) -> CoreError {
    CoreError::io(
        &io::Error::from(io::ErrorKind::NotFound),
        "open",
        &path.to_string_lossy(),
    )
}

/// The chat's folder, checked, and the log's name in it. Nothing is
/// created or renamed.
pub(crate) fn open_folder(chat: &Chat) -> Result<(Folder, String), CoreError> {
    match chat {
        Chat::Log(path) => {
            let path = absolute(path);
            let (Some(parent), Some(name)) =
                (path.parent(), path.file_name().and_then(OsStr::to_str))
            else {
                return Err(CoreError::Refused {
                    path: path.to_string_lossy().into_owned(),
                    what: "not a file name (a root, `..` or not Unicode)".into(),
                });
            };
            Ok((sys::open_folder(parent, false)?.0, name.to_owned()))
        }
        Chat::Key { state_dir, key } => {
            let state = StateDir::open(&absolute(state_dir), false)?;
            let mut name = folder_name(key);
            if state.status_of(&name)?.is_none() {
                for old in earlier_folder_names(key) {
                    if state.status_of(&old)?.is_some() {
                        name = old;
                        break;
                    }
                }
            }
            if state.status_of(&name)?.is_none() {
                return Err(not_found(&state.path.join(&name)));
            }
            Ok((state.folder(&name, false)?.0, LOG_FILE.to_owned()))
        }
    }
}

/// Opens the chat's log for reading, checked on its handle; a missing log
/// is `ENOENT` naming it.
pub fn open_log(chat: &Chat) -> Result<OpenLog, CoreError> {
    let (folder, name) = open_folder(chat)?;
    let path = folder.path.join(&name);
    match folder.open_file(&name, Access::Read)? {
        Some((file, status, _)) => Ok(OpenLog {
            file,
            size: status.size,
            path,
        }),
        None => Err(not_found(&path)),
    }
}
