//! The file rules, checked on an open handle's status (`fstat`): what the
//! store accepts as a chat's folder, its files, and the state dir above it.
//!
//! - a file: a regular file with one link (no second name to read or change
//!   it through), owned by the gateway's effective uid, not writable by
//!   group or others;
//! - a chat folder: a folder (never a symlink: it is opened `O_NOFOLLOW`),
//!   the gateway's, not writable by group or others;
//! - the state dir (the chat folder's parent): the gateway's or root's, and
//!   not writable by group or others, or, if it is (as `/tmp` is), sticky,
//!   so that no one else can rename or remove what is in it.
//!
//! Every refusal is `ENOTREGULAR`, naming the path, what is wrong, and the
//! owner's uid when it is someone else's. Where the platform has no owner or
//! mode (Windows, WASI) only the type and links are checked: `Status`
//! carries `None` there.

use crate::error::CoreError;

/// What the rules need to know of a file or folder, as `fstat` gives it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Status {
    pub kind: Kind,
    /// Hard links (1 where the platform cannot tell).
    pub links: u64,
    /// The owner's uid; `None` where the platform has none (Windows, WASI).
    pub uid: Option<u32>,
    /// The permission bits (`0o7777`); `None` where there are none.
    pub mode: Option<u32>,
    pub size: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    File,
    Folder,
    Symlink,
    Fifo,
    Socket,
    CharDevice,
    BlockDevice,
    Other,
}

impl Kind {
    /// How a refusal names it (the words of `ENOTREGULAR (…)` elsewhere).
    pub fn name(self) -> &'static str {
        match self {
            Kind::File => "regular file",
            Kind::Folder => "directory",
            Kind::Symlink => "symlink",
            Kind::Fifo => "FIFO",
            Kind::Socket => "socket",
            Kind::CharDevice => "character device",
            Kind::BlockDevice => "block device",
            Kind::Other => "not a file",
        }
    }
}

/// The gateway's effective uid; `None` where the platform has no uids.
pub fn gateway_uid() -> Option<u32> {
    #[cfg(unix)]
    {
        // SAFETY: geteuid has no preconditions and cannot fail.
        Some(unsafe { libc::geteuid() })
    }
    #[cfg(not(unix))]
    {
        None
    }
}

const GROUP_OTHER_WRITE: u32 = 0o022;
const STICKY: u32 = 0o1000;

fn refused(path: &str, what: String) -> CoreError {
    CoreError::Refused {
        path: path.to_owned(),
        what,
    }
}

fn not_regular(path: &str, kind: &'static str) -> CoreError {
    CoreError::NotRegularFile {
        path: path.to_owned(),
        kind,
    }
}

fn foreign(path: &str, uid: u32, gateway: u32, or_root: bool) -> CoreError {
    let whose = if or_root {
        format!("the gateway's (uid {gateway}) or root's")
    } else {
        format!("the gateway's (uid {gateway})")
    };
    refused(path, format!("owned by uid {uid}, not {whose}"))
}

/// A chat file: regular, one link, the gateway's, not writable by others.
pub fn check_file(status: &Status, path: &str) -> Result<(), CoreError> {
    if status.kind != Kind::File {
        return Err(not_regular(path, status.kind.name()));
    }
    if status.links > 1 {
        return Err(not_regular(path, "hard-linked file"));
    }
    check_owner_and_mode(status, path, false)
}

/// A chat folder: a folder, the gateway's, not writable by others.
pub fn check_folder(status: &Status, path: &str) -> Result<(), CoreError> {
    if status.kind != Kind::Folder {
        return Err(refused(
            path,
            format!(
                "not a folder ({}) where a chat folder belongs",
                status.kind.name()
            ),
        ));
    }
    check_owner_and_mode(status, path, false)
}

/// The state dir: the gateway's or root's, and private or sticky.
pub fn check_state_dir(status: &Status, path: &str) -> Result<(), CoreError> {
    if status.kind != Kind::Folder {
        return Err(refused(
            path,
            format!(
                "not a folder ({}) where the state dir belongs",
                status.kind.name()
            ),
        ));
    }
    if let (Some(uid), Some(gateway)) = (status.uid, gateway_uid()) {
        if uid != gateway && uid != 0 {
            return Err(foreign(path, uid, gateway, true));
        }
    }
    if let Some(mode) = status.mode {
        if mode & GROUP_OTHER_WRITE != 0 && mode & STICKY == 0 {
            return Err(refused(
                path,
                format!(
                    "a state dir writable by group or others (mode {:04o}) without the sticky bit",
                    mode & 0o7777
                ),
            ));
        }
    }
    Ok(())
}

fn check_owner_and_mode(status: &Status, path: &str, or_root: bool) -> Result<(), CoreError> {
    if let (Some(uid), Some(gateway)) = (status.uid, gateway_uid()) {
        if uid != gateway {
            return Err(foreign(path, uid, gateway, or_root));
        }
    }
    if let Some(mode) = status.mode {
        if mode & GROUP_OTHER_WRITE != 0 {
            return Err(refused(
                path,
                format!("writable by group or others (mode {:04o})", mode & 0o7777),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(kind: Kind, mode: u32) -> Status {
        Status {
            kind,
            links: 1,
            uid: gateway_uid(),
            mode: Some(mode),
            size: 0,
        }
    }

    #[test]
    fn files_must_be_regular_single_private_and_ours() {
        assert!(check_file(&status(Kind::File, 0o600), "/f").is_ok());
        assert!(check_file(&status(Kind::File, 0o644), "/f").is_ok());
        let err = check_file(&status(Kind::File, 0o666), "/f").unwrap_err();
        assert_eq!(err.code(), "ENOTREGULAR");
        assert_eq!(
            err.to_string(),
            "ENOTREGULAR: writable by group or others (mode 0666), open '/f'"
        );
        let err = check_file(&status(Kind::Fifo, 0o600), "/f").unwrap_err();
        assert_eq!(
            err.to_string(),
            "ENOTREGULAR: not a regular file (FIFO), open '/f'"
        );
        let linked = Status {
            links: 2,
            ..status(Kind::File, 0o600)
        };
        assert!(check_file(&linked, "/f")
            .unwrap_err()
            .to_string()
            .contains("hard-linked file"));
    }

    #[cfg(unix)]
    #[test]
    fn someone_elses_file_or_folder_is_refused_naming_the_owner() {
        let gateway = gateway_uid().unwrap();
        let other = gateway.wrapping_add(1);
        let theirs = Status {
            uid: Some(other),
            ..status(Kind::File, 0o600)
        };
        let err = check_file(&theirs, "/chat/log").unwrap_err();
        assert_eq!(err.code(), "ENOTREGULAR");
        assert_eq!(
            err.to_string(),
            format!("ENOTREGULAR: owned by uid {other}, not the gateway's (uid {gateway}), open '/chat/log'")
        );
        let folder = Status {
            uid: Some(other),
            ..status(Kind::Folder, 0o700)
        };
        assert!(check_folder(&folder, "/chat").is_err());
    }

    #[test]
    fn a_shared_state_dir_must_be_sticky() {
        assert!(check_state_dir(&status(Kind::Folder, 0o700), "/s").is_ok());
        assert!(check_state_dir(&status(Kind::Folder, 0o1777), "/tmp").is_ok());
        let err = check_state_dir(&status(Kind::Folder, 0o777), "/s").unwrap_err();
        assert!(err.to_string().contains("mode 0777"), "{err}");
        // A chat folder is never shared, sticky or not.
        assert!(check_folder(&status(Kind::Folder, 0o1777), "/c").is_err());
        let root_owned = Status {
            uid: Some(0),
            ..status(Kind::Folder, 0o755)
        };
        assert!(check_state_dir(&root_owned, "/var/lib").is_ok());
    }
}
