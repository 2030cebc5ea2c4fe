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
    /// A value inside an argument has the wrong type or range.
    #[error("{0}")]
    InvalidArgument(String),
}

impl CoreError {
    pub fn io(err: &io::Error, syscall: &'static str, path: &str) -> Self {
        CoreError::Io {
            code: io_error_code(err),
            syscall,
            path: path.to_owned(),
            reason: io_error_reason(err),
        }
    }

    /// The JS `err.code`, in Node's vocabulary where Node has a word for it.
    pub fn code(&self) -> &'static str {
        match self {
            CoreError::Io { code, .. } => code,
            CoreError::NotRegularFile { .. } => "ENOTREGULAR",
            CoreError::InvalidArgument(_) => "ERR_INVALID_ARG_VALUE",
        }
    }

    pub fn path(&self) -> Option<&str> {
        match self {
            CoreError::Io { path, .. } | CoreError::NotRegularFile { path, .. } => Some(path),
            CoreError::InvalidArgument(_) => None,
        }
    }
}

fn io_error_code(err: &io::Error) -> &'static str {
    use io::ErrorKind as Kind;
    match err.raw_os_error() {
        Some(2) => return "ENOENT",
        Some(13) => return "EACCES",
        Some(1) => return "EPERM",
        Some(20) => return "ENOTDIR",
        Some(21) => return "EISDIR",
        Some(40) => return "ELOOP",
        Some(36) => return "ENAMETOOLONG",
        Some(24) => return "EMFILE",
        Some(5) => return "EIO",
        Some(6) => return "ENXIO",
        _ => {}
    }
    match err.kind() {
        Kind::NotFound => "ENOENT",
        Kind::PermissionDenied => "EACCES",
        Kind::InvalidData => "EINVAL",
        Kind::UnexpectedEof => "EIO",
        _ => "EIO",
    }
}

fn io_error_reason(err: &io::Error) -> String {
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
        assert_eq!(core.path(), Some("/definitely/not/here"));
        assert_eq!(
            core.to_string(),
            "ENOENT: no such file or directory, open '/definitely/not/here'"
        );
    }
}
