//! The platform layer: a checked state dir, a checked chat folder, and the
//! files in it, each opened and then checked on its open handle.
//!
//! On unix a chat folder is opened as a directory handle (`O_DIRECTORY |
//! O_NOFOLLOW`, relative to the state dir's handle) and every file relative
//! to that handle (`openat` with `O_NOFOLLOW | O_NONBLOCK`): a folder or a
//! state dir swapped after its check cannot redirect them, a symlink is
//! never followed, and a FIFO never blocks an open. Windows and WASI have no
//! `openat` in std: there the path is checked (`lstat`) before it is opened
//! and the handle after, with no owner or mode (see `rules`).

use std::ffi::OsStr;
use std::fs::{File, Metadata};
use std::io;
use std::path::{Path, PathBuf};

#[cfg(unix)]
use super::layout::{FILE_MODE, FOLDER_MODE};
#[cfg(not(unix))]
use super::rules::check_folder;
use super::rules::{check_file, check_state_dir, Kind, Status};
use crate::error::CoreError;

/// The status the rules check, from an open handle's (or a path's) metadata.
pub fn status(metadata: &Metadata) -> Status {
    let kind = kind_of(metadata);
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Status {
            kind,
            links: metadata.nlink(),
            uid: Some(metadata.uid()),
            mode: Some(metadata.mode() & 0o7777),
            size: metadata.size(),
        }
    }
    #[cfg(not(unix))]
    {
        Status {
            kind,
            links: 1,
            uid: None,
            mode: None,
            size: metadata.len(),
        }
    }
}

fn kind_of(metadata: &Metadata) -> Kind {
    let kind = metadata.file_type();
    if kind.is_symlink() {
        return Kind::Symlink;
    }
    if kind.is_file() {
        return Kind::File;
    }
    if kind.is_dir() {
        return Kind::Folder;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Kind::Fifo;
        }
        if kind.is_socket() {
            return Kind::Socket;
        }
        if kind.is_char_device() {
            return Kind::CharDevice;
        }
        if kind.is_block_device() {
            return Kind::BlockDevice;
        }
    }
    Kind::Other
}

fn shown(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn io_error(err: &io::Error, syscall: &'static str, path: &Path) -> CoreError {
    CoreError::io(err, syscall, &shown(path))
}

/// What a path is, not following a symlink; `None` when it does not exist.
#[cfg_attr(unix, allow(dead_code))]
fn lstat(path: &Path) -> Result<Option<Status>, CoreError> {
    match std::fs::symlink_metadata(path) {
        Ok(metadata) => Ok(Some(status(&metadata))),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(io_error(&err, "lstat", path)),
    }
}

/// A checked state dir (the folder that holds the chat folders).
pub struct StateDir {
    pub path: PathBuf,
    #[cfg(unix)]
    handle: File,
}

/// A checked chat folder.
pub struct Folder {
    pub path: PathBuf,
    #[cfg(unix)]
    handle: File,
}

impl StateDir {
    /// Opens the state dir at `path` (following links: an operator may keep
    /// it elsewhere) and checks it; created 0700, parents too, when `create`.
    pub fn open(path: &Path, create: bool) -> Result<StateDir, CoreError> {
        if create {
            create_dir_all(path)?;
        }
        #[cfg(unix)]
        {
            let handle = File::open(path).map_err(|err| io_error(&err, "open", path))?;
            let metadata = handle
                .metadata()
                .map_err(|err| io_error(&err, "fstat", path))?;
            check_state_dir(&status(&metadata), &shown(path))?;
            Ok(StateDir {
                path: path.to_owned(),
                handle,
            })
        }
        #[cfg(not(unix))]
        {
            // Windows opens no folder as a File: its status by path.
            let metadata = std::fs::metadata(path).map_err(|err| io_error(&err, "stat", path))?;
            check_state_dir(&status(&metadata), &shown(path))?;
            Ok(StateDir {
                path: path.to_owned(),
            })
        }
    }

    /// What `name` in the state dir is (not following a symlink).
    pub fn status_of(&self, name: &str) -> Result<Option<Status>, CoreError> {
        #[cfg(unix)]
        {
            unix::fstatat(&self.handle, name, &self.path.join(name))
        }
        #[cfg(not(unix))]
        {
            lstat(&self.path.join(name))
        }
    }

    /// Renames `from` to `to`, both in the state dir: atomic, and the old
    /// name is free for no one else. Refused when `to` exists.
    pub fn rename(&self, from: &str, to: &str) -> Result<(), CoreError> {
        let target = self.path.join(to);
        if self.status_of(to)?.is_some() {
            return Err(io_error(
                &io::Error::from(io::ErrorKind::AlreadyExists),
                "rename",
                &target,
            ));
        }
        #[cfg(unix)]
        {
            unix::renameat(&self.handle, from, &self.handle, to)
                .map_err(|err| io_error(&err, "rename", &self.path.join(from)))
        }
        #[cfg(not(unix))]
        {
            rename_path(&self.path.join(from), &target)
                .map_err(|err| io_error(&err, "rename", &self.path.join(from)))
        }
    }

    /// The chat folder `name` in this state dir, checked; created 0700 when
    /// missing and `create`. Returns it and whether it was created.
    pub fn folder(&self, name: &str, create: bool) -> Result<(Folder, bool), CoreError> {
        let path = self.path.join(name);
        #[cfg(unix)]
        {
            let (handle, created) = unix::open_folder(&self.handle, name, &path, create)?;
            Ok((Folder { path, handle }, created))
        }
        #[cfg(not(unix))]
        {
            let mut created = false;
            let status = match lstat(&path)? {
                Some(status) => status,
                None if create => {
                    match std::fs::create_dir(&path) {
                        Ok(()) => created = true,
                        Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {}
                        Err(err) => return Err(io_error(&err, "mkdir", &path)),
                    }
                    lstat(&path)?.ok_or_else(|| {
                        io_error(&io::Error::from(io::ErrorKind::NotFound), "open", &path)
                    })?
                }
                None => {
                    return Err(io_error(
                        &io::Error::from(io::ErrorKind::NotFound),
                        "open",
                        &path,
                    ))
                }
            };
            if status.kind == Kind::Symlink {
                return Err(CoreError::NotRegularFile {
                    path: shown(&path),
                    kind: "symlink",
                });
            }
            check_folder(&status, &shown(&path))?;
            Ok((Folder { path }, created))
        }
    }
}

/// `mkdir -p` with every folder it creates 0700 (before the umask; the
/// chat folder itself is set to 0700 whatever the umask).
fn create_dir_all(path: &Path) -> Result<(), CoreError> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, FOLDER_MODE);
    builder.create(path).map_err(|err| {
        // Something other than a folder is there (mkdir -p says EEXIST): a file where a
        // folder of the path belongs, as Node's recursive mkdir reports it.
        let err = if err.kind() == io::ErrorKind::AlreadyExists {
            not_a_directory()
        } else {
            err
        };
        io_error(&err, "mkdir", path)
    })
}

fn not_a_directory() -> io::Error {
    #[cfg(any(unix, target_os = "wasi"))]
    {
        io::Error::from_raw_os_error(libc::ENOTDIR)
    }
    #[cfg(not(any(unix, target_os = "wasi")))]
    {
        io::Error::from(io::ErrorKind::NotADirectory)
    }
}

/// Renames `from` over `to` by path. On Windows a rename over a file that
/// another process holds open for a moment (an antivirus scan, an indexer,
/// a reader that has not closed it yet) is denied: it is retried for up to
/// a second, as Node's graceful-fs does, before the error is returned.
pub(crate) fn rename_path(from: &Path, to: &Path) -> io::Result<()> {
    #[cfg(windows)]
    {
        let started = std::time::Instant::now();
        let mut pause = std::time::Duration::from_millis(1);
        loop {
            match std::fs::rename(from, to) {
                Err(err)
                    if err.kind() == io::ErrorKind::PermissionDenied
                        && started.elapsed() < std::time::Duration::from_secs(1) =>
                {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(std::time::Duration::from_millis(100));
                }
                other => return other,
            }
        }
    }
    #[cfg(not(windows))]
    {
        std::fs::rename(from, to)
    }
}

/// Opens the chat folder at `path`: its parent is the state dir.
pub fn open_folder(path: &Path, create: bool) -> Result<(Folder, bool), CoreError> {
    let (Some(parent), Some(name)) = (path.parent(), path.file_name().and_then(OsStr::to_str))
    else {
        return Err(CoreError::Refused {
            path: shown(path),
            what: "not a folder name (a root, `..` or not Unicode)".into(),
        });
    };
    let parent = if parent.as_os_str().is_empty() {
        Path::new(".")
    } else {
        parent
    };
    StateDir::open(parent, create)?.folder(name, create)
}

/// How a file of the folder is opened.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Read only; a missing file is `None`.
    Read,
    /// Read and append (`O_APPEND`), created 0600 when missing.
    Append,
}

impl Folder {
    /// Opens `name` and checks it on the handle. `None`: it does not exist
    /// (for [`Access::Read`]). The flag says whether it was created.
    pub fn open_file(
        &self,
        name: &str,
        access: Access,
    ) -> Result<Option<(File, Status, bool)>, CoreError> {
        let path = self.path.join(name);
        #[cfg(unix)]
        let opened = unix::open_file(&self.handle, name, &path, access)?;
        #[cfg(not(unix))]
        let opened = portable::open_file(&path, access)?;
        let Some((file, created)) = opened else {
            return Ok(None);
        };
        let metadata = file
            .metadata()
            .map_err(|err| io_error(&err, "fstat", &path))?;
        let status = status(&metadata);
        check_file(&status, &shown(&path))?;
        #[cfg(unix)]
        if created && status.mode != Some(FILE_MODE) {
            use std::os::unix::fs::PermissionsExt;
            file.set_permissions(std::fs::Permissions::from_mode(FILE_MODE))
                .map_err(|err| io_error(&err, "fchmod", &path))?;
        }
        Ok(Some((file, status, created)))
    }

    /// Creates `name` (which must not exist), 0600, for writing.
    pub fn create_new(&self, name: &str) -> Result<File, CoreError> {
        let path = self.path.join(name);
        #[cfg(unix)]
        {
            let file = unix::create_new(&self.handle, name)
                .map_err(|err| io_error(&err, "open", &path))?;
            use std::os::unix::fs::PermissionsExt;
            file.set_permissions(std::fs::Permissions::from_mode(FILE_MODE))
                .map_err(|err| io_error(&err, "fchmod", &path))?;
            Ok(file)
        }
        #[cfg(not(unix))]
        {
            std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
                .map_err(|err| io_error(&err, "open", &path))
        }
    }

    /// Renames `from` over `to`, both in this folder: the name is replaced,
    /// never written through.
    pub fn rename(&self, from: &str, to: &str) -> Result<(), CoreError> {
        #[cfg(unix)]
        let result = unix::renameat(&self.handle, from, &self.handle, to);
        #[cfg(not(unix))]
        let result = rename_path(&self.path.join(from), &self.path.join(to));
        result.map_err(|err| io_error(&err, "rename", &self.path.join(from)))
    }

    /// Removes the name `name` of this folder.
    pub fn remove(&self, name: &str) -> io::Result<()> {
        #[cfg(unix)]
        {
            unix::unlinkat(&self.handle, name)
        }
        #[cfg(not(unix))]
        {
            std::fs::remove_file(self.path.join(name))
        }
    }

    /// The names in the folder (by path: only used to find candidates,
    /// each then handled relative to the folder's handle).
    pub fn names(&self) -> io::Result<Vec<String>> {
        let mut names = Vec::new();
        for entry in std::fs::read_dir(&self.path)? {
            if let Some(name) = entry?.file_name().to_str() {
                names.push(name.to_owned());
            }
        }
        Ok(names)
    }

    /// What `name` is, not following a symlink; `None` when missing.
    pub fn status_of(&self, name: &str) -> Result<Option<Status>, CoreError> {
        #[cfg(unix)]
        {
            unix::fstatat(&self.handle, name, &self.path.join(name))
        }
        #[cfg(not(unix))]
        {
            lstat(&self.path.join(name))
        }
    }

    /// How long ago `name` was last modified (for stale temp files where
    /// no process can be asked about).
    #[cfg_attr(unix, allow(dead_code))]
    pub fn age_of(&self, name: &str) -> Option<std::time::Duration> {
        let modified = std::fs::symlink_metadata(self.path.join(name))
            .and_then(|m| m.modified())
            .ok()?;
        modified.elapsed().ok()
    }

    /// fsync of the folder, so a file just created in it survives a power
    /// cut. A file system that cannot sync a folder (EINVAL) is let be.
    pub fn sync(&self) -> Result<(), CoreError> {
        #[cfg(unix)]
        match self.handle.sync_all() {
            Err(err) if err.raw_os_error() != Some(libc::EINVAL) => {
                return Err(io_error(&err, "fsync", &self.path))
            }
            _ => {}
        }
        Ok(())
    }
}

#[cfg(unix)]
mod unix {
    //! The `*at` calls std does not have, over libc.

    use std::ffi::CString;
    use std::fs::File;
    use std::io;
    use std::os::fd::{AsRawFd, FromRawFd};
    use std::path::Path;

    use super::{io_error, shown, status, Access, FILE_MODE, FOLDER_MODE};
    use crate::error::CoreError;
    use crate::store::rules::{check_folder, Kind, Status};

    fn c_name(name: &str) -> io::Result<CString> {
        // A name is one component: no `/`, no NUL, not `.` or `..`.
        if name.is_empty() || name == "." || name == ".." || name.contains('/') {
            return Err(io::Error::from(io::ErrorKind::InvalidInput));
        }
        CString::new(name).map_err(|_| io::Error::from(io::ErrorKind::InvalidInput))
    }

    fn openat(dir: &File, name: &str, flags: libc::c_int, mode: u32) -> io::Result<File> {
        let name = c_name(name)?;
        // SAFETY: `dir` is an open descriptor for the call's length, `name`
        // NUL-terminated; the mode is read only with O_CREAT. The new
        // descriptor is owned by the File returned and by nothing else.
        let fd = unsafe {
            libc::openat(
                dir.as_raw_fd(),
                name.as_ptr(),
                flags | libc::O_CLOEXEC,
                mode as libc::c_uint,
            )
        };
        if fd < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `fd` was just opened and is owned by no one else.
        Ok(unsafe { File::from_raw_fd(fd) })
    }

    pub fn create_new(dir: &File, name: &str) -> io::Result<File> {
        openat(
            dir,
            name,
            libc::O_WRONLY | libc::O_CREAT | libc::O_EXCL | libc::O_NOFOLLOW,
            FILE_MODE,
        )
    }

    pub fn fstatat(dir: &File, name: &str, path: &Path) -> Result<Option<Status>, CoreError> {
        let c = c_name(name).map_err(|err| io_error(&err, "lstat", path))?;
        // SAFETY: all-zero is a valid `stat`; `dir` is open, `c` NUL-terminated,
        // and fstatat writes only into `raw`.
        let mut raw: libc::stat = unsafe { std::mem::zeroed() };
        // SAFETY: as above.
        let rc = unsafe {
            libc::fstatat(
                dir.as_raw_fd(),
                c.as_ptr(),
                &mut raw,
                libc::AT_SYMLINK_NOFOLLOW,
            )
        };
        if rc != 0 {
            let err = io::Error::last_os_error();
            if err.kind() == io::ErrorKind::NotFound {
                return Ok(None);
            }
            return Err(io_error(&err, "lstat", path));
        }
        let kind = match raw.st_mode & libc::S_IFMT {
            libc::S_IFREG => Kind::File,
            libc::S_IFDIR => Kind::Folder,
            libc::S_IFLNK => Kind::Symlink,
            libc::S_IFIFO => Kind::Fifo,
            libc::S_IFSOCK => Kind::Socket,
            libc::S_IFCHR => Kind::CharDevice,
            libc::S_IFBLK => Kind::BlockDevice,
            _ => Kind::Other,
        };
        Ok(Some(Status {
            kind,
            #[allow(clippy::unnecessary_cast)] // u32 on some platforms, u64 on others
            links: raw.st_nlink as u64,
            uid: Some(raw.st_uid),
            #[allow(clippy::unnecessary_cast)]
            mode: Some(raw.st_mode as u32 & 0o7777),
            #[allow(clippy::unnecessary_cast)]
            size: raw.st_size as u64,
        }))
    }

    pub fn renameat(from_dir: &File, from: &str, to_dir: &File, to: &str) -> io::Result<()> {
        let (from, to) = (c_name(from)?, c_name(to)?);
        // SAFETY: both descriptors are open, both names NUL-terminated.
        let rc = unsafe {
            libc::renameat(
                from_dir.as_raw_fd(),
                from.as_ptr(),
                to_dir.as_raw_fd(),
                to.as_ptr(),
            )
        };
        if rc != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    pub fn unlinkat(dir: &File, name: &str) -> io::Result<()> {
        let c = c_name(name)?;
        // SAFETY: `dir` is open, `c` NUL-terminated; flags 0: a file, not a folder.
        if unsafe { libc::unlinkat(dir.as_raw_fd(), c.as_ptr(), 0) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    fn mkdirat(dir: &File, name: &str) -> io::Result<()> {
        let c = c_name(name)?;
        // SAFETY: `dir` is open, `c` NUL-terminated.
        if unsafe { libc::mkdirat(dir.as_raw_fd(), c.as_ptr(), FOLDER_MODE as libc::mode_t) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// Why `name` could not be opened `O_NOFOLLOW`, when what it is says
    /// more than the errno (a symlink: ELOOP, or ENOTDIR for a folder; a
    /// socket: ENXIO).
    fn named_refusal(
        state: &File,
        name: &str,
        path: &Path,
        err: io::Error,
        syscall: &'static str,
        folder: bool,
    ) -> CoreError {
        match fstatat(state, name, path) {
            Ok(Some(Status {
                kind: Kind::Symlink,
                ..
            })) => CoreError::NotRegularFile {
                path: shown(path),
                kind: "symlink",
            },
            Ok(Some(found)) if found.kind != Kind::File && !folder => CoreError::NotRegularFile {
                path: shown(path),
                kind: found.kind.name(),
            },
            Ok(Some(found)) if found.kind != Kind::Folder && folder => {
                match check_folder(&found, &shown(path)) {
                    Err(refusal) => refusal,
                    Ok(()) => io_error(&err, syscall, path),
                }
            }
            _ => io_error(&err, syscall, path),
        }
    }

    pub fn open_folder(
        state: &File,
        name: &str,
        path: &Path,
        create: bool,
    ) -> Result<(File, bool), CoreError> {
        let flags = libc::O_RDONLY | libc::O_DIRECTORY | libc::O_NOFOLLOW;
        let mut created = false;
        let handle = match openat(state, name, flags, 0) {
            Ok(handle) => handle,
            Err(err) if err.kind() == io::ErrorKind::NotFound && create => {
                match mkdirat(state, name) {
                    Ok(()) => created = true,
                    Err(err) if err.kind() == io::ErrorKind::AlreadyExists => {}
                    Err(err) => return Err(io_error(&err, "mkdir", path)),
                }
                openat(state, name, flags, 0)
                    .map_err(|err| named_refusal(state, name, path, err, "open", true))?
            }
            Err(err) => return Err(named_refusal(state, name, path, err, "open", true)),
        };
        let metadata = handle
            .metadata()
            .map_err(|err| io_error(&err, "fstat", path))?;
        let found = status(&metadata);
        if found.kind == Kind::Folder && created {
            use std::os::unix::fs::PermissionsExt;
            if found.mode != Some(FOLDER_MODE) {
                handle
                    .set_permissions(std::fs::Permissions::from_mode(FOLDER_MODE))
                    .map_err(|err| io_error(&err, "fchmod", path))?;
            }
            let metadata = handle
                .metadata()
                .map_err(|err| io_error(&err, "fstat", path))?;
            check_folder(&status(&metadata), &shown(path))?;
        } else {
            check_folder(&found, &shown(path))?;
        }
        Ok((handle, created))
    }

    pub fn open_file(
        folder: &File,
        name: &str,
        path: &Path,
        access: Access,
    ) -> Result<Option<(File, bool)>, CoreError> {
        let flags = libc::O_NOFOLLOW
            | libc::O_NONBLOCK
            | match access {
                Access::Read => libc::O_RDONLY,
                Access::Append => libc::O_RDWR | libc::O_APPEND,
            };
        loop {
            match openat(folder, name, flags, 0) {
                Ok(file) => return Ok(Some((file, false))),
                Err(err) if err.kind() == io::ErrorKind::NotFound => {}
                Err(err) => return Err(named_refusal(folder, name, path, err, "open", false)),
            }
            if access == Access::Read {
                return Ok(None);
            }
            // Missing: created here, or by a concurrent writer (then opened again).
            match openat(
                folder,
                name,
                flags | libc::O_CREAT | libc::O_EXCL,
                FILE_MODE,
            ) {
                Ok(file) => return Ok(Some((file, true))),
                Err(err) if err.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(err) => return Err(named_refusal(folder, name, path, err, "open", false)),
            }
        }
    }
}

#[cfg(not(unix))]
mod portable {
    //! Windows and WASI: the path is checked before the open (there is no
    //! `O_NOFOLLOW` or `O_NONBLOCK` in std there), the handle after it.

    use std::fs::{File, OpenOptions};
    use std::io;
    use std::path::Path;

    use super::{io_error, lstat, shown, Access};
    use crate::error::CoreError;
    use crate::store::rules::Kind;

    pub fn open_file(path: &Path, access: Access) -> Result<Option<(File, bool)>, CoreError> {
        let before = lstat(path)?;
        if let Some(found) = before {
            if found.kind != Kind::File {
                return Err(CoreError::NotRegularFile {
                    path: shown(path),
                    kind: found.kind.name(),
                });
            }
        }
        let mut options = OpenOptions::new();
        match access {
            Access::Read if before.is_none() => return Ok(None),
            Access::Read => options.read(true),
            Access::Append => options.read(true).append(true).create(true),
        };
        match options.open(path) {
            Ok(file) => Ok(Some((file, before.is_none()))),
            Err(err) if err.kind() == io::ErrorKind::NotFound && access == Access::Read => Ok(None),
            Err(err) => Err(io_error(&err, "open", path)),
        }
    }
}
