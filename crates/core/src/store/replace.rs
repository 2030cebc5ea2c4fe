//! Replacing a file of the chat folder whole: a private temp file in the
//! same folder (0600, `O_EXCL`, a name that carries the pid), written, then
//! renamed over the name. A reader sees the old bytes or the new ones, never
//! a mix, and a link at the name is replaced, not written through.
//!
//! A process that dies between the two leaves its temp file behind: when a
//! chat folder is opened, temp files of a process that is no longer alive
//! are removed (on Windows, where no process is asked, those older than an
//! hour).

use std::hash::{BuildHasher, Hasher};
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};

use super::sys::Folder;
use crate::error::CoreError;

const TEMP_TAG: &str = ".openclaw-context-native-";
const TEMP_END: &str = ".tmp";

/// Replaces `name` in `folder` with `bytes`. Not synced: what these files
/// hold is rebuilt at the next turn.
pub(crate) fn replace_file(folder: &Folder, name: &str, bytes: &[u8]) -> Result<(), CoreError> {
    replace(folder, name, bytes, false)
}

/// [`replace_file`] that survives a power cut: the temp file synced before
/// the rename, the folder after it (the refresh mark: lost, a compaction
/// would go unsaid).
pub(crate) fn replace_file_synced(
    folder: &Folder,
    name: &str,
    bytes: &[u8],
) -> Result<(), CoreError> {
    replace(folder, name, bytes, true)?;
    folder.sync()
}

fn replace(folder: &Folder, name: &str, bytes: &[u8], synced: bool) -> Result<(), CoreError> {
    let mut attempts = 0;
    let (temp, mut file) = loop {
        let temp = temp_name(name);
        match folder.create_new(&temp) {
            Ok(file) => break (temp, file),
            Err(CoreError::Io { code: "EEXIST", .. }) if attempts < 8 => attempts += 1,
            Err(err) => return Err(err),
        }
    };
    let temp_path = folder.path.join(&temp);
    let written = file
        .write_all(bytes)
        .and_then(|()| if synced { file.sync_all() } else { Ok(()) })
        .map_err(|err| CoreError::io(&err, "write", &temp_path.to_string_lossy()));
    drop(file);
    let result = written.and_then(|()| folder.rename(&temp, name));
    if result.is_err() {
        let _ = folder.remove(&temp);
    }
    result
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
        if pid == crate::process_id() || !is_stale(folder, &name, pid) {
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

#[cfg(unix)]
fn is_stale(_folder: &Folder, _name: &str, pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    // SAFETY: signal 0 only asks whether the process exists.
    let rc = unsafe { libc::kill(pid, 0) };
    rc != 0 && std::io::Error::last_os_error().raw_os_error() == Some(libc::ESRCH)
}

#[cfg(not(unix))]
fn is_stale(folder: &Folder, name: &str, _pid: u32) -> bool {
    folder
        .age_of(name)
        .is_some_and(|age| age > std::time::Duration::from_secs(3600))
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
