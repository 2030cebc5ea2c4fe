//! Opening the log and state files without ever blocking on them.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

use crate::error::CoreError;

/// The bytes of a checked, open file of `size` bytes (its size when
/// opened), or `None` when it holds more than `max`: by that size, or by
/// what the read finds (a file that grows meanwhile is read no further than
/// `max + 1` bytes). The one capped read of the state and index files.
pub(crate) fn read_at_most(
    file: impl Read,
    size: u64,
    max: u64,
    shown: &str,
) -> Result<Option<Vec<u8>>, CoreError> {
    if size > max {
        return Ok(None);
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|err| CoreError::io(&err, "read", shown))?;
    Ok((bytes.len() as u64 <= max).then_some(bytes))
}

/// Whether a state path may be a link to another file.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Links {
    /// A symlink is followed and a file with several names is read: the
    /// API's default (an operator may keep a log on another disk by a link).
    #[default]
    Follow,
    /// A symlink at the path itself (`O_NOFOLLOW`) and a regular file with
    /// more than one link are refused as `ENOTREGULAR`: what the plugin asks
    /// for, so a link planted in a chat's folder never pulls another file
    /// into a prompt. Windows has no link count in stable std: there only
    /// the symlink is refused.
    Refuse,
}

/// Opens `path` for reading and checks, on the open handle (no window for a
/// swap between check and use), that it is a regular file.
///
/// `O_NONBLOCK` matters for FIFOs: a plain `open()` of a FIFO waits for a
/// writer, which would hang the gateway. On a regular file the flag changes
/// nothing.
#[cfg(test)]
pub(crate) fn open_regular_file(path: &Path) -> Result<(File, Metadata), CoreError> {
    open_state_file(path, Links::Follow)
}

/// [`open_regular_file`], refusing links when `links` says so.
pub(crate) fn open_state_file(path: &Path, links: Links) -> Result<(File, Metadata), CoreError> {
    let shown = path.to_string_lossy();
    let refuse = |kind| CoreError::NotRegularFile {
        path: shown.to_string(),
        kind,
    };
    #[cfg(not(unix))]
    refuse_before_open(path, &shown, links)?;
    let file = open_nonblocking(path, links).map_err(|err| {
        let linked = std::fs::symlink_metadata(path);
        match std::fs::metadata(path) {
            // O_NOFOLLOW met a symlink: ELOOP (EMLINK on FreeBSD).
            _ if links == Links::Refuse
                && linked.as_ref().is_ok_and(|m| m.file_type().is_symlink()) =>
            {
                refuse("symlink")
            }
            // open(2) refuses a UNIX socket with ENXIO before we can fstat it:
            // name what the path is rather than "no such device or address".
            Ok(metadata) if err.raw_os_error() == Some(libc::ENXIO) && !metadata.is_file() => {
                refuse(file_kind(&metadata))
            }
            _ => CoreError::io(&err, "open", &shown),
        }
    })?;
    let metadata = file
        .metadata()
        .map_err(|err| CoreError::io(&err, "fstat", &shown))?;
    if !metadata.is_file() {
        return Err(refuse(file_kind(&metadata)));
    }
    if links == Links::Refuse && link_count(&metadata) > 1 {
        return Err(refuse("hard-linked file"));
    }
    Ok((file, metadata))
}

#[cfg(unix)]
fn link_count(metadata: &Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::nlink(metadata)
}

#[cfg(not(unix))]
fn link_count(_metadata: &Metadata) -> u64 {
    1
}

#[cfg(unix)]
fn open_nonblocking(path: &Path, links: Links) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let no_follow = if links == Links::Refuse {
        libc::O_NOFOLLOW
    } else {
        0
    };
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | no_follow)
        .open(path)
}

#[cfg(not(unix))]
fn open_nonblocking(path: &Path, _links: Links) -> io::Result<File> {
    OpenOptions::new().read(true).open(path)
}

/// Without `O_NONBLOCK` (WASI has no such open flag in stable std; Windows
/// opens a directory as a handle), what the path names is checked before it
/// is opened, so a FIFO is never opened for a blocking read. The check on the
/// open handle still follows; a swap of the path between the two is the
/// window these platforms leave.
#[cfg(not(unix))]
fn refuse_before_open(path: &Path, shown: &str, links: Links) -> Result<(), CoreError> {
    if links == Links::Refuse
        && std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
    {
        return Err(CoreError::NotRegularFile {
            path: shown.to_owned(),
            kind: "symlink",
        });
    }
    // Reported as the open it stands for: the same error as where open() fails.
    let metadata = std::fs::metadata(path).map_err(|err| CoreError::io(&err, "open", shown))?;
    if metadata.is_file() {
        return Ok(());
    }
    Err(CoreError::NotRegularFile {
        path: shown.to_owned(),
        kind: path_kind(path, &metadata),
    })
}

#[cfg(unix)]
fn file_kind(metadata: &Metadata) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    let kind = metadata.file_type();
    if kind.is_dir() {
        "directory"
    } else if kind.is_fifo() {
        "FIFO"
    } else if kind.is_socket() {
        "socket"
    } else if kind.is_char_device() {
        "character device"
    } else if kind.is_block_device() {
        "block device"
    } else {
        "not a file"
    }
}

#[cfg(not(unix))]
fn file_kind(metadata: &Metadata) -> &'static str {
    if metadata.is_dir() {
        "directory"
    } else {
        "not a file"
    }
}

#[cfg(not(any(unix, target_os = "wasi")))]
fn path_kind(_path: &Path, metadata: &Metadata) -> &'static str {
    file_kind(metadata)
}

/// std's WASI file types beyond file/dir/symlink are unstable; wasi-libc's
/// `stat` gives them as a mode. WASI runtimes (Node's uvwasi) report a FIFO
/// as a stream socket, so the two cannot be told apart there.
#[cfg(target_os = "wasi")]
fn path_kind(path: &Path, metadata: &Metadata) -> &'static str {
    use std::os::wasi::ffi::OsStrExt;
    if metadata.is_dir() {
        return "directory";
    }
    let Ok(c_path) = std::ffi::CString::new(path.as_os_str().as_bytes()) else {
        return "not a file";
    };
    // SAFETY: all-zero is a valid `stat`; a NUL-terminated path; stat writes only `mode`'s struct.
    let mode = unsafe {
        let mut status: libc::stat = std::mem::zeroed();
        if libc::stat(c_path.as_ptr(), &mut status) != 0 {
            return "not a file";
        }
        status.st_mode & libc::S_IFMT
    };
    match mode {
        libc::S_IFCHR => "character device",
        libc::S_IFBLK => "block device",
        libc::S_IFSOCK => "FIFO or socket",
        _ => "not a file",
    }
}

/// Reads up to `buf.len()` bytes at `offset`; fewer only at end of file
/// (the file shrank since it was opened).
pub(crate) fn read_full_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match read_at(file, &mut buf[filled..], offset + filled as u64) {
            Ok(0) => break,
            Ok(count) => filled += count,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => {}
            Err(err) => return Err(err),
        }
    }
    Ok(filled)
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

#[cfg(windows)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

/// WASI's positioned read is behind an unstable std feature; a seek then a
/// read does the same on the handle, which only this reader uses.
#[cfg(not(any(unix, windows)))]
fn read_at(mut file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    use std::io::{Read, Seek, SeekFrom};
    file.seek(SeekFrom::Start(offset))?;
    file.read(buf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::*;

    #[cfg(unix)]
    #[test]
    fn refuses_directories_and_fifos_without_blocking() {
        let dir = TempDir::new("fs");
        let err = open_regular_file(&dir.0).unwrap_err();
        assert!(matches!(
            err,
            CoreError::NotRegularFile {
                kind: "directory",
                ..
            }
        ));
        let fifo = dir.0.join("pipe");
        make_fifo(&fifo);
        let err = open_regular_file(&fifo).unwrap_err();
        assert_eq!(err.code(), "ENOTREGULAR");
        assert!(err.to_string().contains("FIFO"), "{err}");
        assert!(err.to_string().contains(&*fifo.to_string_lossy()));
    }

    #[cfg(unix)]
    #[test]
    fn refuses_a_unix_socket_by_name_not_enxio() {
        let dir = TempDir::new("fs");
        let socket = dir.0.join("gateway.sock");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        let err = open_regular_file(&socket).unwrap_err();
        assert!(
            matches!(err, CoreError::NotRegularFile { kind: "socket", .. }),
            "{err}"
        );
        assert_eq!(err.code(), "ENOTREGULAR");
    }

    #[cfg(unix)]
    #[test]
    fn refuses_symlinks_and_hard_links_when_asked() {
        let dir = TempDir::new("fs");
        let target = dir.file("target", b"{}\n");
        let link = dir.0.join("link");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(open_state_file(&link, Links::Follow).is_ok());
        let err = open_state_file(&link, Links::Refuse).unwrap_err();
        assert!(
            matches!(
                err,
                CoreError::NotRegularFile {
                    kind: "symlink",
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!(err.code(), "ENOTREGULAR");
        // A dangling symlink is a symlink too, not a missing file.
        let dangling = dir.0.join("dangling");
        std::os::unix::fs::symlink(dir.0.join("nowhere"), &dangling).unwrap();
        let err = open_state_file(&dangling, Links::Refuse).unwrap_err();
        assert!(matches!(
            err,
            CoreError::NotRegularFile {
                kind: "symlink",
                ..
            }
        ));
        assert_eq!(
            open_state_file(&dangling, Links::Follow)
                .unwrap_err()
                .code(),
            "ENOENT"
        );
        // Refused only with a second name; the same file alone is read.
        assert!(open_state_file(&target, Links::Refuse).is_ok());
        let second = dir.0.join("second");
        std::fs::hard_link(&target, &second).unwrap();
        let err = open_state_file(&target, Links::Refuse).unwrap_err();
        assert!(
            matches!(
                err,
                CoreError::NotRegularFile {
                    kind: "hard-linked file",
                    ..
                }
            ),
            "{err}"
        );
        assert!(open_state_file(&target, Links::Follow).is_ok());
        // A symlink to a FIFO is refused as a symlink, before any open of the FIFO.
        let fifo = dir.0.join("pipe");
        make_fifo(&fifo);
        let to_fifo = dir.0.join("to-fifo");
        std::os::unix::fs::symlink(&fifo, &to_fifo).unwrap();
        let err = open_state_file(&to_fifo, Links::Refuse).unwrap_err();
        assert!(matches!(
            err,
            CoreError::NotRegularFile {
                kind: "symlink",
                ..
            }
        ));
    }

    #[test]
    fn missing_files_are_enoent_with_the_path() {
        let dir = TempDir::new("fs");
        let missing = dir.0.join("nope.jsonl");
        let err = open_regular_file(&missing).unwrap_err();
        assert_eq!(err.code(), "ENOENT");
        assert_eq!(err.path(), &*missing.to_string_lossy());
    }

    #[test]
    fn short_reads_only_at_end_of_file() {
        let dir = TempDir::new("fs");
        let path = dir.file("data", b"0123456789");
        let (file, _) = open_regular_file(&path).unwrap();
        let mut buf = [0u8; 4];
        assert_eq!(read_full_at(&file, &mut buf, 2).unwrap(), 4);
        assert_eq!(&buf, b"2345");
        assert_eq!(read_full_at(&file, &mut buf, 8).unwrap(), 2);
        assert_eq!(read_full_at(&file, &mut buf, 20).unwrap(), 0);
    }
}
