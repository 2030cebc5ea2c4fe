//! The one atomic replace: a file (or a folder) is written whole under a
//! private temp name beside its name (0600 or 0700, `O_EXCL`, a name that
//! carries the pid), then renamed over the name. A reader sees the old bytes
//! or the new ones, never a mix, and a link at the name is replaced, not
//! written through. Every writer of the store and the archive commands goes
//! through [`Replacement`] (or [`FolderReplacement`]): a durable one is
//! synced before the rename and its folder after it; whatever fails or is
//! dropped before [`Replacement::commit`] removes its temp file.
//!
//! A process that dies between the two leaves its temp file behind: when a
//! chat folder is opened, temp files of a process that is no longer alive
//! are removed (on Windows, where no process is asked, those older than an
//! hour).

use std::fs::File;
use std::hash::{BuildHasher, Hasher};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use super::sys::Folder;
use crate::error::CoreError;

const TEMP_TAG: &str = ".openclaw-context-native-";
const TEMP_END: &str = ".tmp";

/// Where a replacement is made: a chat folder (its checked handle), or a
/// folder of the operator's outside the store (a backup's, an export's, an
/// index beside a log named by path).
pub(crate) trait Dir {
    fn path(&self) -> &Path;
    /// Creates `name` (which must not exist), 0600, for writing.
    fn create_new(&self, name: &str) -> Result<File, CoreError>;
    /// Renames `from` over `to`, both in this folder.
    fn rename(&self, from: &str, to: &str) -> Result<(), CoreError>;
    fn remove(&self, name: &str) -> io::Result<()>;
    /// fsync of the folder, so a rename in it survives a power cut.
    fn sync(&self) -> Result<(), CoreError>;
}

impl Dir for Folder {
    fn path(&self) -> &Path {
        &self.path
    }
    fn create_new(&self, name: &str) -> Result<File, CoreError> {
        Folder::create_new(self, name)
    }
    fn rename(&self, from: &str, to: &str) -> Result<(), CoreError> {
        Folder::rename(self, from, to)
    }
    fn remove(&self, name: &str) -> io::Result<()> {
        Folder::remove(self, name)
    }
    fn sync(&self) -> Result<(), CoreError> {
        Folder::sync(self)
    }
}

/// A folder outside the store, by path: its files are created `O_EXCL |
/// O_NOFOLLOW`, 0600, and renamed by path.
pub(crate) struct PlainDir {
    path: PathBuf,
}

impl PlainDir {
    pub(crate) fn new(path: &Path) -> PlainDir {
        let path = if path.as_os_str().is_empty() {
            Path::new(".")
        } else {
            path
        };
        PlainDir {
            path: path.to_owned(),
        }
    }
}

impl Dir for PlainDir {
    fn path(&self) -> &Path {
        &self.path
    }
    fn create_new(&self, name: &str) -> Result<File, CoreError> {
        create_private_file(&self.path.join(name))
    }
    fn rename(&self, from: &str, to: &str) -> Result<(), CoreError> {
        let from = self.path.join(from);
        super::sys::rename_path(&from, &self.path.join(to))
            .map_err(|err| CoreError::io(&err, "rename", &from.to_string_lossy()))
    }
    fn remove(&self, name: &str) -> io::Result<()> {
        std::fs::remove_file(self.path.join(name))
    }
    fn sync(&self) -> Result<(), CoreError> {
        sync_folder_path(&self.path)
    }
}

/// Creates `path` (which must not exist) 0600 for writing, not following a
/// symlink.
pub(crate) fn create_private_file(path: &Path) -> Result<File, CoreError> {
    let shown = path.to_string_lossy();
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600).custom_flags(libc::O_NOFOLLOW);
    }
    let file = options
        .open(path)
        .map_err(|err| CoreError::io(&err, "open", &shown))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))
            .map_err(|err| CoreError::io(&err, "fchmod", &shown))?;
    }
    Ok(file)
}

/// fsync of the folder at `path`; a file system that cannot sync a folder
/// (EINVAL), and platforms that open no folder as a file, are let be.
fn sync_folder_path(path: &Path) -> Result<(), CoreError> {
    #[cfg(unix)]
    if let Ok(folder) = File::open(path) {
        match folder.sync_all() {
            Err(err) if err.raw_os_error() != Some(libc::EINVAL) => {
                return Err(CoreError::io(&err, "fsync", &path.to_string_lossy()))
            }
            _ => {}
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Creates `name` in `dir` (which must not exist: `EEXIST` otherwise),
/// writes `bytes` and syncs it: a file that is made once and never
/// replaced (the owner's claim of a shared folder, a file of a backup
/// folder being built).
pub(crate) fn write_new(dir: &dyn Dir, name: &str, bytes: &[u8]) -> Result<(), CoreError> {
    let path = dir.path().join(name);
    let shown = path.to_string_lossy();
    let mut file = dir.create_new(name)?;
    let written = file
        .write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(|err| CoreError::io(&err, "write", &shown));
    if written.is_err() {
        drop(file);
        let _ = dir.remove(name);
    }
    written
}

/// [`write_new`] of a file `fill` writes (a backup's copy of a chat file).
pub(crate) fn write_new_with(
    dir: &dyn Dir,
    name: &str,
    fill: impl FnOnce(&mut File) -> Result<(), CoreError>,
) -> Result<(), CoreError> {
    let path = dir.path().join(name);
    let mut file = dir.create_new(name)?;
    let written = fill(&mut file).and_then(|()| {
        file.sync_all()
            .map_err(|err| CoreError::io(&err, "fsync", &path.to_string_lossy()))
    });
    if written.is_err() {
        drop(file);
        let _ = dir.remove(name);
    }
    written
}

/// The temp files and folders this process has made and not yet renamed
/// or removed: what [`remove_unfinished`] removes when a command is
/// interrupted (a signal ends the process before the owner can); `closed`
/// once it has run.
///
/// A temp is created, and renamed into place, under this lock, and the
/// cleanup runs under it too: so the cleanup runs wholly before a rename
/// (which it then refuses: the process is ending) or wholly after it (the
/// temp is then no longer listed and its target is whole), never between.
/// Without that, a backup folder renamed into place while the cleanup was
/// removing its files was left as a partial backup under the operator's
/// name, and a temp created after the cleanup stayed behind.
struct Unfinished {
    paths: Vec<PathBuf>,
    closed: bool,
}

static UNFINISHED: std::sync::Mutex<Unfinished> = std::sync::Mutex::new(Unfinished {
    paths: Vec::new(),
    closed: false,
});

impl Unfinished {
    /// `path` no longer listed (renamed into place, or removed).
    fn unlist(&mut self, path: &Path) {
        if let Some(at) = self.paths.iter().position(|p| p == path) {
            self.paths.swap_remove(at);
        }
    }
}

fn unfinished() -> std::sync::MutexGuard<'static, Unfinished> {
    UNFINISHED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The error of a temp begun or renamed after the cleanup ran.
fn interrupted(path: &Path, syscall: &'static str) -> CoreError {
    CoreError::Io {
        code: "EINTR",
        syscall,
        path: path.to_string_lossy().into_owned(),
        reason: "interrupted: the command is ending".into(),
    }
}

/// Makes the temp at `path` with `create` (the system call `syscall`) and
/// lists it, under the lock.
fn create_listed<T>(
    path: &Path,
    target: &Path,
    syscall: &'static str,
    create: impl FnOnce() -> Result<T, CoreError>,
) -> Result<T, CoreError> {
    let mut list = unfinished();
    if list.closed {
        return Err(interrupted(target, syscall));
    }
    let made = create()?;
    list.paths.push(path.to_owned());
    Ok(made)
}

/// Renames the listed temp `path` into place with `rename`, under the lock;
/// it is no longer listed once renamed. A failed rename leaves it listed:
/// the caller removes it, then calls [`ended`].
fn rename_listed(
    path: &Path,
    target: &Path,
    rename: impl FnOnce() -> Result<(), CoreError>,
) -> Result<(), CoreError> {
    let mut list = unfinished();
    if list.closed {
        return Err(interrupted(target, "rename"));
    }
    rename()?;
    list.unlist(path);
    Ok(())
}

fn ended(path: &Path) {
    unfinished().unlist(path);
}

/// Removes every temp file and folder this process made and has not
/// finished (a command interrupted by a signal: its process is about to
/// end); returns their paths. From then on no temp is made or renamed into
/// place: a writer still at work fails, and the file or folder it was to
/// replace is untouched.
pub fn remove_unfinished() -> Vec<PathBuf> {
    let mut list = unfinished();
    list.closed = true;
    let paths = std::mem::take(&mut list.paths);
    for path in &paths {
        match std::fs::symlink_metadata(path) {
            Ok(meta) if meta.is_dir() => remove_folder(path),
            Ok(_) => {
                let _ = std::fs::remove_file(path);
            }
            Err(_) => {}
        }
    }
    paths
}

/// Removes the folder `path` and what it holds. A writer adding a file to
/// it at the same moment makes one pass fail (`ENOTEMPTY`); it fails on its
/// next file once the folder is gone, so a few passes end it.
fn remove_folder(path: &Path) {
    for _ in 0..8 {
        match std::fs::remove_dir_all(path) {
            Err(err) if err.kind() != io::ErrorKind::NotFound => continue,
            _ => return,
        }
    }
}

/// Whether a replacement is synced: a cache (the summary, the last prompt,
/// the index: rebuilt when lost) is not; the log, the memory state and
/// every archive output are, file and folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Durability {
    Cache,
    Durable,
}

/// A temp file being written to replace `name` in a folder: owned apart
/// from the folder (a caller holding several, a restore, commits or
/// discards each with the folder); [`Replacement`] ties one to its folder
/// and removes it when dropped.
pub(crate) struct TempFile {
    name: String,
    temp: String,
    target: PathBuf,
    out: BufWriter<File>,
}

impl TempFile {
    /// Creates the temp file for `name` in `dir`.
    pub(crate) fn create(dir: &dyn Dir, name: &str) -> Result<Self, CoreError> {
        let mut attempts = 0;
        loop {
            let temp = temp_name(name);
            let path = dir.path().join(&temp);
            match create_listed(&path, &dir.path().join(name), "open", || {
                dir.create_new(&temp)
            }) {
                Ok(file) => {
                    return Ok(TempFile {
                        name: name.to_owned(),
                        temp,
                        target: dir.path().join(name),
                        out: BufWriter::with_capacity(1 << 16, file),
                    });
                }
                Err(CoreError::Io { code: "EEXIST", .. }) if attempts < 8 => attempts += 1,
                Err(err) => return Err(naming(err, &dir.path().join(name))),
            }
        }
    }

    /// The path of the file replaced (what errors name: the temp file is an
    /// implementation detail).
    pub(crate) fn target(&self) -> &Path {
        &self.target
    }

    pub(crate) fn writer(&mut self) -> &mut BufWriter<File> {
        &mut self.out
    }

    pub(crate) fn write_all(&mut self, bytes: &[u8]) -> Result<(), CoreError> {
        self.out
            .write_all(bytes)
            .map_err(|err| CoreError::io(&err, "write", &self.target.to_string_lossy()))
    }

    /// Flushes (and, when durable, syncs) the temp file and renames it over
    /// the name in `dir` (the folder synced after it when durable), with
    /// `before_rename` run between (a check that refuses the rename). On
    /// failure the temp file is removed.
    pub(crate) fn commit(
        self,
        dir: &dyn Dir,
        durability: Durability,
        before_rename: impl FnOnce() -> Result<(), CoreError>,
    ) -> Result<(), CoreError> {
        let TempFile {
            name,
            temp,
            target,
            out,
        } = self;
        let shown = target.to_string_lossy();
        let temp_path = target.with_file_name(&temp);
        let result = (|| {
            let file = out
                .into_inner()
                .map_err(|err| CoreError::io(err.error(), "write", &shown))?;
            if durability == Durability::Durable {
                file.sync_all()
                    .map_err(|err| CoreError::io(&err, "fsync", &shown))?;
            }
            // Windows cannot rename a file that has an open handle.
            drop(file);
            before_rename()?;
            rename_listed(&temp_path, &target, || dir.rename(&temp, &name))
        })();
        if let Err(err) = result {
            let _ = dir.remove(&temp);
            ended(&temp_path);
            return Err(err);
        }
        if durability == Durability::Durable {
            dir.sync()?;
        }
        Ok(())
    }

    /// Removes the temp file.
    pub(crate) fn discard(self, dir: &dyn Dir) {
        let TempFile {
            temp, out, target, ..
        } = self;
        drop(out);
        let _ = dir.remove(&temp);
        ended(&target.with_file_name(&temp));
    }
}

/// A file being replaced in a folder: its temp file, removed when dropped
/// before [`Replacement::commit`].
pub(crate) struct Replacement<'d> {
    dir: &'d dyn Dir,
    temp: Option<TempFile>,
}

impl<'d> Replacement<'d> {
    /// Starts replacing `name` in `dir`: its temp file created.
    pub(crate) fn new(dir: &'d dyn Dir, name: &str) -> Result<Self, CoreError> {
        Ok(Replacement {
            dir,
            temp: Some(TempFile::create(dir, name)?),
        })
    }

    fn temp(&mut self) -> &mut TempFile {
        self.temp.as_mut().expect("open until committed")
    }

    /// The temp file's writer.
    pub(crate) fn writer(&mut self) -> &mut BufWriter<File> {
        self.temp().writer()
    }

    pub(crate) fn write_all(&mut self, bytes: &[u8]) -> Result<(), CoreError> {
        self.temp().write_all(bytes)
    }

    /// Flushes (and, when durable, syncs) the temp file and renames it over
    /// the name (the folder synced after it when durable).
    pub(crate) fn commit(self, durability: Durability) -> Result<(), CoreError> {
        self.commit_with(durability, || Ok(()))
    }

    /// [`Self::commit`], with `before_rename` run between the temp file's
    /// sync and its rename (a check that refuses the rename).
    pub(crate) fn commit_with(
        mut self,
        durability: Durability,
        before_rename: impl FnOnce() -> Result<(), CoreError>,
    ) -> Result<(), CoreError> {
        let temp = self.temp.take().expect("open until committed");
        temp.commit(self.dir, durability, before_rename)
    }
}

impl Drop for Replacement<'_> {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            temp.discard(self.dir);
        }
    }
}

/// Replaces `name` in `folder` with `bytes`, as a cache (not synced: what
/// these files hold is rebuilt at the next turn).
pub(crate) fn replace_file(folder: &Folder, name: &str, bytes: &[u8]) -> Result<(), CoreError> {
    let mut replacement = Replacement::new(folder, name)?;
    replacement.write_all(bytes)?;
    replacement.commit(Durability::Cache)
}

/// [`replace_file`] that survives a power cut: the temp file synced before
/// the rename, the folder after it (the refresh mark: lost, a compaction
/// would go unsaid).
pub(crate) fn replace_file_synced(
    folder: &Folder,
    name: &str,
    bytes: &[u8],
) -> Result<(), CoreError> {
    let mut replacement = Replacement::new(folder, name)?;
    replacement.write_all(bytes)?;
    replacement.commit(Durability::Durable)
}

/// A folder being built under a temp name beside its target (0700), renamed
/// into place by [`FolderReplacement::commit`]; removed with what it holds
/// when dropped before.
pub(crate) struct FolderReplacement {
    temp: Option<PathBuf>,
    target: PathBuf,
}

impl FolderReplacement {
    pub(crate) fn new(target: &Path) -> Result<Self, CoreError> {
        let (Some(parent), Some(name)) = (target.parent(), target.file_name()) else {
            return Err(CoreError::Refused {
                path: target.to_string_lossy().into_owned(),
                what: "not a folder name (a root or `..`)".into(),
            });
        };
        let temp = parent.join(temp_name(&name.to_string_lossy()));
        create_listed(&temp, target, "mkdir", || create_private_folder(&temp))
            .map_err(|err| naming(err, target))?;
        Ok(FolderReplacement {
            temp: Some(temp),
            target: target.to_owned(),
        })
    }

    /// Where the folder is built.
    pub(crate) fn path(&self) -> &Path {
        self.temp.as_deref().expect("built until committed")
    }

    /// Renames the folder into place, `before_rename` run first (a check
    /// that refuses it); its parent synced.
    pub(crate) fn commit(
        mut self,
        before_rename: impl FnOnce() -> Result<(), CoreError>,
    ) -> Result<(), CoreError> {
        let temp = self.temp.clone().expect("built until committed");
        before_rename()?;
        rename_listed(&temp, &self.target, || {
            super::sys::rename_path(&temp, &self.target)
                .map_err(|err| CoreError::io(&err, "rename", &self.target.to_string_lossy()))
        })?;
        self.temp = None;
        if let Some(parent) = self.target.parent() {
            sync_folder_path(parent)?;
        }
        Ok(())
    }
}

impl Drop for FolderReplacement {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            remove_folder(&temp);
            ended(&temp);
        }
    }
}

/// `err` of a temp file's or folder's creation, naming what it stands for
/// (`target`): a missing folder is said as the folder the target was to be
/// written in, never as a temp name the operator never gave.
fn naming(err: CoreError, target: &Path) -> CoreError {
    match err {
        CoreError::Io {
            code: "ENOENT",
            syscall,
            ..
        } => CoreError::Io {
            code: "ENOENT",
            syscall,
            path: target
                .parent()
                .unwrap_or(target)
                .to_string_lossy()
                .into_owned(),
            reason: format!(
                "no such folder to write {} in",
                target.file_name().unwrap_or_default().to_string_lossy()
            ),
        },
        CoreError::Io {
            code,
            syscall,
            reason,
            ..
        } => CoreError::Io {
            code,
            syscall,
            path: target.to_string_lossy().into_owned(),
            reason,
        },
        other => other,
    }
}

/// Creates the folder `path` (which must not exist) 0700.
pub(crate) fn create_private_folder(path: &Path) -> Result<(), CoreError> {
    #[cfg_attr(not(unix), allow(unused_mut))] // the mode is set on unix only
    let mut builder = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder
        .create(path)
        .map_err(|err| CoreError::io(&err, "mkdir", &path.to_string_lossy()))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o700))
            .map_err(|err| CoreError::io(&err, "chmod", &path.to_string_lossy()))?;
    }
    Ok(())
}

/// `.<name>.openclaw-context-native-<pid>-<8 hex>.tmp`: hidden, and not
/// `.js`, so never taken for anything else (the archive's outputs use it too).
pub(crate) fn temp_name(name: &str) -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u64(NEXT.fetch_add(1, Ordering::Relaxed));
    let random = hasher.finish() as u32;
    format!(
        ".{name}{TEMP_TAG}{}-{random:08x}{TEMP_END}",
        crate::process_id()
    )
}

/// Whether `file_name` is a temp file's name of this store (any process's).
pub(crate) fn is_temp_name(file_name: &str) -> bool {
    temp_pid(file_name).is_some()
}

/// The pid a temp file name carries; `None` for any other name.
fn temp_pid(file_name: &str) -> Option<u32> {
    let rest = file_name.strip_prefix('.')?.strip_suffix(TEMP_END)?;
    let (base, tail) = rest.rsplit_once(TEMP_TAG)?;
    let (pid, random) = tail.split_once('-')?;
    let hex = random.len() == 8
        && random
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    let digits = !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit());
    (!base.is_empty() && hex && digits).then(|| pid.parse().ok())?
}

/// Removes the temp files of dead processes from `folder`; returns their
/// names. Best effort: an error leaves a file for the next time.
pub(crate) fn remove_stale_temp_files(folder: &Folder) -> Vec<String> {
    let Ok(names) = folder.names() else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for name in names {
        let Some(pid) = temp_pid(&name) else {
            continue;
        };
        if pid == crate::process_id() || !is_stale(pid, || folder.age_of(&name)) {
            continue;
        }
        let is_file = matches!(
            folder.status_of(&name),
            Ok(Some(status)) if status.kind == super::rules::Kind::File
        );
        if is_file && folder.remove(&name).is_ok() {
            removed.push(name);
        }
    }
    removed
}

/// Removes, beside `target` (an output of the archive commands, outside
/// the store), the temp files and folders of `target` that a run which died
/// before its rename left (a `backup` or `export` interrupted by a power
/// cut); returns their paths. Best effort, as the folder's clean-up is.
pub(crate) fn remove_stale_temps_beside(target: &Path) -> Vec<PathBuf> {
    let (Some(parent), Some(name)) = (target.parent(), target.file_name()) else {
        return Vec::new();
    };
    let prefix = format!(".{}{TEMP_TAG}", name.to_string_lossy());
    let Ok(listing) = std::fs::read_dir(if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    }) else {
        return Vec::new();
    };
    let mut removed = Vec::new();
    for entry in listing.flatten() {
        let Some(found) = entry.file_name().to_str().map(str::to_owned) else {
            continue;
        };
        let Some(pid) = temp_pid(&found).filter(|_| found.starts_with(&prefix)) else {
            continue;
        };
        let path = entry.path();
        let age = || {
            std::fs::symlink_metadata(&path)
                .and_then(|m| m.modified())
                .ok()
                .and_then(|modified| modified.elapsed().ok())
        };
        if pid == crate::process_id() || !is_stale(pid, age) {
            continue;
        }
        let gone = match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(&path),
            Ok(_) => std::fs::remove_file(&path),
            Err(err) => Err(err),
        };
        if gone.is_ok() {
            removed.push(path);
        }
    }
    removed
}

/// Whether the process `pid` that made a temp file is gone: asked of the
/// system on unix; elsewhere (no process to ask) the file is over an hour
/// old (`age`).
#[cfg(unix)]
fn is_stale(pid: u32, _age: impl FnOnce() -> Option<std::time::Duration>) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    // SAFETY: signal 0 only asks whether the process exists.
    let rc = unsafe { libc::kill(pid, 0) };
    rc != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
}

#[cfg(not(unix))]
fn is_stale(_pid: u32, age: impl FnOnce() -> Option<std::time::Duration>) -> bool {
    age().is_some_and(|age| age > std::time::Duration::from_secs(3600))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_names_carry_the_pid_and_are_recognised() {
        let name = temp_name("continuity-summary.txt");
        assert!(name.starts_with(".continuity-summary.txt.openclaw-context-native-"));
        assert_eq!(temp_pid(&name), Some(crate::process_id()));
        assert_ne!(temp_name("x"), temp_name("x"));
        assert_eq!(
            temp_pid(".a.openclaw-context-native-42-0123abcd.tmp"),
            Some(42)
        );
        for other in [
            "perpetual-log.jsonl",
            ".a.openclaw-context-native-42-0123ABCD.tmp",
            ".a.openclaw-context-native--0123abcd.tmp",
            "..openclaw-context-native-42-0123abcd.tmp",
            ".a.openclaw-context-native-42-0123abcd.tmp.js",
        ] {
            assert_eq!(temp_pid(other), None, "{other}");
        }
    }
}
