//! Test helpers: scratch directories, FIFOs, log lines and entries. One file
//! for both kinds of tests: the integration tests' `mod support;`, and the unit
//! tests' `crate::test_support` (lib.rs includes this file under `cfg(test)`,
//! and names the crate `openclaw_context_core` there too).
#![allow(dead_code)] // each test binary uses some of them

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use openclaw_context_core::persistent_chat::log::{LogEntry, LogTail, Role};
use openclaw_context_core::persistent_chat::prompt::PromptReport;
use openclaw_context_core::utf16::encode as u;

/// A fresh directory under the system temp dir, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> Self {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "occn-{tag}-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn file(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(unix)]
pub fn make_fifo(path: &Path) {
    use std::os::unix::ffi::OsStrExt;
    let c_path = std::ffi::CString::new(path.as_os_str().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo touches nothing else.
    let rc = unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) };
    assert_eq!(rc, 0, "mkfifo failed");
}

/// Log line `n`: a user message "message n" with id "mn", newline-terminated.
pub fn line(n: usize) -> String {
    format!("{{\"role\":\"user\",\"text\":\"message {n}\",\"id\":\"m{n}\"}}\n")
}

/// An entry with only a role and a text.
pub fn bare_entry(role: Role, text: &str) -> LogEntry {
    LogEntry {
        role,
        text: u(text),
        ts: None,
        session: None,
        status: None,
        id: None,
    }
}

/// The texts of a tail's entries, oldest first.
pub fn texts(tail: &LogTail) -> Vec<String> {
    tail.entries
        .iter()
        .map(|e| String::from_utf16(&e.text).unwrap())
        .collect()
}

/// The ids of the entries a prompt injected, in order, as strings.
pub fn ids(report: &PromptReport) -> Vec<String> {
    report
        .injected_entry_ids
        .iter()
        .map(|id| String::from_utf16(id).unwrap())
        .collect()
}
