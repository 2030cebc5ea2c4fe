//! What the commands write outside the chat folders: a private file (0600)
//! or folder (0700) built under a temp name beside its target and renamed
//! into place, so the target is whole or absent, never half-written.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

use crate::error::CoreError;
use crate::store::rules::Kind;
use crate::store::sys::{rename_path, status};

pub(crate) fn shown(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// What `path` is, not following a symlink; `None` when missing.
pub(crate) fn lstat_kind(path: &Path) -> Result<Option<Kind>, CoreError> {
    match std::fs::symlink_metadata(path) {
        Ok(metadata) => Ok(Some(status(&metadata).kind)),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(CoreError::io(&err, "lstat", &shown(path))),
    }
}

/// Refuses a `target` whose folder is one of `folders` (a chat folder, or
/// the state dir): the store's folders hold the store's files alone, and a
/// rename there could replace a chat file. Compared as canonical paths; a
/// folder that cannot be resolved is let be (the write then fails on its
/// own).
pub(crate) fn refuse_inside(target: &Path, folders: &[&Path], what: &str) -> Result<(), CoreError> {
    let Some(parent) = target.parent() else {
        return Ok(());
    };
    let Ok(parent) = parent.canonicalize() else {
        return Ok(());
    };
    for folder in folders {
        if folder.canonicalize().is_ok_and(|folder| folder == parent) {
            return Err(CoreError::Refused {
                path: shown(target),
                what: format!(
                    "in {what} (its files are the chat store's alone); write it elsewhere"
                ),
            });
        }
    }
    Ok(())
}

/// A temp name beside `target`, the store's (`store::replace::temp_name`):
/// a crash leaves a name the store's clean-up recognises.
fn temp_beside(target: &Path) -> Result<PathBuf, CoreError> {
    let (Some(parent), Some(name)) = (target.parent(), target.file_name()) else {
        return Err(CoreError::Refused {
            path: shown(target),
            what: "not a file name (a root or `..`)".into(),
        });
    };
    Ok(parent.join(crate::store::replace::temp_name(&name.to_string_lossy())))
}

/// Creates `path` (which must not exist) 0600 for writing, not following a
/// symlink.
pub(crate) fn create_private_file(path: &Path) -> Result<File, CoreError> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600).custom_flags(libc::O_NOFOLLOW);
    }
    let file = options
        .open(path)
        .map_err(|err| CoreError::io(&err, "open", &shown(path)))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))
            .map_err(|err| CoreError::io(&err, "fchmod", &shown(path)))?;
    }
    Ok(file)
}

/// Creates the folder `path` (which must not exist) 0700.
pub(crate) fn create_private_folder(path: &Path) -> Result<(), CoreError> {
    #[cfg_attr(not(unix), allow(unused_mut))] // the mode is set on unix only
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(path)
        .map_err(|err| CoreError::io(&err, "mkdir", &shown(path)))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o700))
            .map_err(|err| CoreError::io(&err, "chmod", &shown(path)))?;
    }
    Ok(())
}

fn sync(file: &File, path: &Path) -> Result<(), CoreError> {
    file.sync_all()
        .map_err(|err| CoreError::io(&err, "fsync", &shown(path)))
}

/// Refuses an existing `target` that is not a regular file (a symlink, a
/// FIFO, a folder, …): a command never writes through it or replaces it.
pub(crate) fn refuse_non_file(target: &Path) -> Result<(), CoreError> {
    match lstat_kind(target)? {
        Some(kind) if kind != Kind::File => Err(CoreError::NotRegularFile {
            path: shown(target),
            kind: kind.name(),
        }),
        _ => Ok(()),
    }
}

/// Refuses an existing `target` of any kind.
pub(crate) fn refuse_existing(target: &Path) -> Result<(), CoreError> {
    if lstat_kind(target)?.is_some() {
        return Err(CoreError::Io {
            code: "EEXIST",
            syscall: "open",
            path: shown(target),
            reason: "already exists (a backup never replaces anything)".into(),
        });
    }
    Ok(())
}

/// Writes `target` whole: `fill` writes a private temp file beside it,
/// which is synced and renamed over `target` (an existing regular file is
/// replaced; anything else at the name is refused first). On any failure
/// the temp file is removed and `target` is as it was.
pub(crate) fn write_file_atomically<T>(
    target: &Path,
    replace: bool,
    fill: impl FnOnce(&mut File, &Path) -> Result<T, CoreError>,
) -> Result<T, CoreError> {
    if replace {
        refuse_non_file(target)?;
    } else {
        refuse_existing(target)?;
    }
    let temp = temp_beside(target)?;
    let mut file = create_private_file(&temp)?;
    let result = fill(&mut file, &temp)
        .and_then(|value| sync(&file, &temp).map(|()| value))
        .and_then(|value| {
            drop(file);
            if !replace {
                refuse_existing(target)?;
            }
            rename_path(&temp, target)
                .map_err(|err| CoreError::io(&err, "rename", &shown(&temp)))?;
            Ok(value)
        });
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result
}

/// Builds the folder `target` (which must not exist) under a temp name
/// beside it, then renames it into place.
pub(crate) fn write_folder_atomically<T>(
    target: &Path,
    fill: impl FnOnce(&Path) -> Result<T, CoreError>,
) -> Result<T, CoreError> {
    refuse_existing(target)?;
    let temp = temp_beside(target)?;
    create_private_folder(&temp)?;
    let result = fill(&temp).and_then(|value| {
        refuse_existing(target)?;
        rename_path(&temp, target).map_err(|err| CoreError::io(&err, "rename", &shown(&temp)))?;
        Ok(value)
    });
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&temp);
    }
    result
}

/// Writes a new private file `path` in a folder being built, synced.
pub(crate) fn write_new_file(
    path: &Path,
    fill: impl FnOnce(&mut File) -> Result<(), CoreError>,
) -> Result<(), CoreError> {
    let mut file = create_private_file(path)?;
    fill(&mut file)?;
    sync(&file, path)
}
