//! The core's errors. The binding turns each into a JS error with `code`.

use std::io;

#[derive(Debug, thiserror::Error)]
pub enum CoreError {
    /// A file could not be opened or read.
    #[error("{code}: {reason}, {syscall} '{path}'")]
    Io {
        code: &'static str,
        syscall: &'static str,
        path: String,
        reason: String,
    },
    /// A path names something other than a regular file (FIFO, directory,
    /// socket, device): reading it could block or make no sense.
    #[error("ENOTREGULAR: not a regular file ({kind}), open '{path}'")]
    NotRegularFile { path: String, kind: &'static str },
    /// A chat folder or file the store refuses although it is of the right
    /// type: someone else's, open to others' writes, a shared folder without
    /// the sticky bit. The same code as [`CoreError::NotRegularFile`]: one
    /// code for every refusal of the store, read or write.
    #[error("ENOTREGULAR: {what}, open '{path}'")]
    Refused { path: String, what: String },
    /// A value of the right type outside its range (JS `RangeError`,
    /// `ERR_OUT_OF_RANGE`); the message is Node's wording.
    #[error("{message}")]
    OutOfRange { message: String },
    /// The OS's random source failed (the prompt's nonce is drawn from it).
    #[error("ERR_RANDOM: the OS random source failed: {reason}")]
    Random { reason: String },
}

impl CoreError {
    pub fn io(err: &io::Error, syscall: &'static str, path: &str) -> Self {
        CoreError::Io {
            code: io_error_code(err),
            syscall,
            path: path.to_owned(),
            reason: io_error_reason(err, io_error_code(err)),
        }
    }

    /// The JS `err.code`, in Node's vocabulary where Node has a word for it.
    pub fn code(&self) -> &'static str {
        match self {
            CoreError::Io { code, .. } => code,
            CoreError::NotRegularFile { .. } | CoreError::Refused { .. } => "ENOTREGULAR",
            CoreError::OutOfRange { .. } => "ERR_OUT_OF_RANGE",
            CoreError::Random { .. } => "ERR_RANDOM",
        }
    }

    /// The path the error is about ("" for an error about no file).
    pub fn path(&self) -> &str {
        match self {
            CoreError::Io { path, .. }
            | CoreError::NotRegularFile { path, .. }
            | CoreError::Refused { path, .. } => path,
            CoreError::OutOfRange { .. } | CoreError::Random { .. } => "",
        }
    }

    /// The system call that failed (`open`, `read`, …), when one did.
    pub fn syscall(&self) -> Option<&'static str> {
        match self {
            CoreError::Io { syscall, .. } => Some(syscall),
            CoreError::NotRegularFile { .. }
            | CoreError::Refused { .. }
            | CoreError::OutOfRange { .. }
            | CoreError::Random { .. } => None,
        }
    }
}

fn io_error_code(err: &io::Error) -> &'static str {
    // errno values differ between platforms (WASI's EACCES is Linux's ENOENT):
    // match them by name. Windows' raw codes are not errno values at all.
    #[cfg(any(unix, target_os = "wasi"))]
    if let Some(code) = err.raw_os_error().and_then(errno_code) {
        return code;
    }
    // ERROR_CANT_RESOLVE_FILENAME: a symlink loop on Windows.
    #[cfg(windows)]
    if err.raw_os_error() == Some(1921) {
        return "ELOOP";
    }
    use io::ErrorKind as Kind;
    match err.kind() {
        Kind::NotFound => "ENOENT",
        Kind::PermissionDenied => "EACCES",
        Kind::NotADirectory => "ENOTDIR",
        Kind::IsADirectory => "EISDIR",
        Kind::InvalidFilename => "ENAMETOOLONG",
        Kind::InvalidData => "EINVAL",
        Kind::BrokenPipe => "EPIPE",
        _ => "EIO",
    }
}

#[cfg(any(unix, target_os = "wasi"))]
fn errno_code(errno: i32) -> Option<&'static str> {
    Some(match errno {
        libc::ENOENT => "ENOENT",
        libc::EACCES => "EACCES",
        libc::EPERM => "EPERM",
        libc::ENOTDIR => "ENOTDIR",
        libc::EISDIR => "EISDIR",
        libc::ELOOP => "ELOOP",
        libc::ENAMETOOLONG => "ENAMETOOLONG",
        libc::EMFILE => "EMFILE",
        libc::EIO => "EIO",
        libc::ENXIO => "ENXIO",
        libc::EEXIST => "EEXIST",
        libc::ENOSPC => "ENOSPC",
        libc::EDQUOT => "EDQUOT",
        libc::EFBIG => "EFBIG",
        libc::EROFS => "EROFS",
        libc::EPIPE => "EPIPE",
        _ => return None,
    })
}

/// Node's (libuv's) wording for a code, so the message is the same on every
/// platform (Windows' own text reads "file not found.", musl's and WASI's
/// differ from glibc's); the OS's text where Node has no word for it.
fn io_error_reason(err: &io::Error, code: &str) -> String {
    let known = match code {
        "ENOENT" => "no such file or directory",
        "EACCES" => "permission denied",
        "EPERM" => "operation not permitted",
        "ENOTDIR" => "not a directory",
        "EISDIR" => "illegal operation on a directory",
        "ELOOP" => "too many symbolic links encountered",
        "ENAMETOOLONG" => "name too long",
        "EMFILE" => "too many open files",
        "ENXIO" => "no such device or address",
        "EPIPE" => "broken pipe",
        "EEXIST" => "file already exists",
        "ENOSPC" => "no space left on device",
        "EROFS" => "read-only file system",
        _ => "",
    };
    if !known.is_empty() {
        return known.to_owned();
    }
    // `io::Error`'s Display appends "(os error N)"; Node's messages do not.
    let text = err.to_string();
    match text.find(" (os error") {
        Some(cut) => text[..cut].to_lowercase(),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn io_errors_carry_node_codes_and_the_path() {
        let err = std::fs::File::open("/definitely/not/here").unwrap_err();
        let core = CoreError::io(&err, "open", "/definitely/not/here");
        assert_eq!(core.code(), "ENOENT");
        assert_eq!(core.path(), "/definitely/not/here");
        assert_eq!(core.syscall(), Some("open"));
        assert_eq!(
            core.to_string(),
            "ENOENT: no such file or directory, open '/definitely/not/here'"
        );
    }

    #[cfg(unix)]
    #[test]
    fn messages_use_nodes_words_whatever_the_os_says() {
        let err = io::Error::from_raw_os_error(libc::ELOOP);
        let core = CoreError::io(&err, "open", "/a");
        assert_eq!(core.code(), "ELOOP");
        assert_eq!(
            core.to_string(),
            "ELOOP: too many symbolic links encountered, open '/a'"
        );
        let other = CoreError::io(&io::Error::other("disk on fire"), "read", "/b");
        assert_eq!(other.to_string(), "EIO: disk on fire, read '/b'");
    }
}
