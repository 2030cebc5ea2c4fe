//! What the commands write outside the chat folders: a private file (0600)
//! or folder (0700) built under a temp name beside its target and renamed
//! into place, so the target is whole or absent, never half-written. The
//! temp files a dead run of the same target left beside it are removed
//! first.

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;

use crate::error::CoreError;
pub(crate) use crate::store::replace::create_private_folder;
use crate::store::replace::{
    remove_stale_temps_beside, write_new_with, Durability, FolderReplacement, PlainDir, Replacement,
};
use crate::store::rules::Kind;
use crate::store::sys::status;

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

/// Writes `target` whole through the store's one atomic replace
/// (`store::replace`): `fill` writes a private temp file beside it (its
/// errors name `target`), which is synced and renamed over `target` (an
/// existing regular file is replaced when `replace`; anything else at the
/// name is refused first). On any failure the temp file is removed and
/// `target` is as it was.
pub(crate) fn write_file_atomically<T>(
    target: &Path,
    replace: bool,
    fill: impl FnOnce(&mut BufWriter<File>, &Path) -> Result<T, CoreError>,
) -> Result<T, CoreError> {
    if replace {
        refuse_non_file(target)?;
    } else {
        refuse_existing(target)?;
    }
    let (Some(parent), Some(name)) = (target.parent(), target.file_name()) else {
        return Err(CoreError::Refused {
            path: shown(target),
            what: "not a file name (a root or `..`)".into(),
        });
    };
    remove_stale_temps_beside(target);
    let dir = PlainDir::new(parent);
    let mut replacement = Replacement::new(&dir, &name.to_string_lossy())?;
    let value = fill(replacement.writer(), target)?;
    replacement.commit_with(Durability::Durable, || {
        if replace {
            Ok(())
        } else {
            refuse_existing(target)
        }
    })?;
    Ok(value)
}

/// Builds the folder `target` (which must not exist) under a temp name
/// beside it, then renames it into place (`store::replace`).
pub(crate) fn write_folder_atomically<T>(
    target: &Path,
    fill: impl FnOnce(&Path) -> Result<T, CoreError>,
) -> Result<T, CoreError> {
    refuse_existing(target)?;
    remove_stale_temps_beside(target);
    let folder = FolderReplacement::new(target)?;
    let value = fill(folder.path())?;
    folder.commit(|| refuse_existing(target))?;
    Ok(value)
}

/// Writes a new private file `path` in a folder being built, synced.
pub(crate) fn write_new_file(
    path: &Path,
    fill: impl FnOnce(&mut File) -> Result<(), CoreError>,
) -> Result<(), CoreError> {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name()) else {
        return Err(CoreError::Refused {
            path: shown(path),
            what: "not a file name (a root or `..`)".into(),
        });
    };
    write_new_with(&PlainDir::new(parent), &name.to_string_lossy(), fill)
}
