//! What `doctor` shows of a chat folder: read-only, never refusing, never
//! creating: the state dir, the folder and each file (kind, mode, owner),
//! the log's end (entries, skipped and torn lines, the last backend
//! session), and every problem the store's rules would refuse or that
//! leaves the history readable by others.

use std::path::{Path, PathBuf};

use super::layout::{LAST_PROMPT_FILE, LOG_FILE, MEMORY_STATE_FILE, SUMMARY_FILE};
use super::rules::{self, gateway_uid, Kind, Status};
use crate::error::CoreError;
use crate::persistent_chat::fs::{open_state_file, read_full_at};
use crate::persistent_chat::log::read_log_tail_with_links;
use crate::persistent_chat::Links;

/// One path of the folder and what it is (`None`: absent or unreadable).
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub path: PathBuf,
    pub status: Option<Status>,
}

/// The log's end, as the readers see it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LogFacts {
    pub bytes: u64,
    /// Valid entries among the last `window` read (at most `window`).
    pub entries: usize,
    /// Lines skipped among them (invalid, torn, oversized).
    pub skipped_lines: usize,
    /// The file does not end with `\n`: the next append starts a new line.
    pub torn_last_line: bool,
    /// The newest entry's backend session that has one.
    pub last_session: Option<Vec<u16>>,
}

/// What is wrong, and what kind of fix it takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemKind {
    /// Owned by another uid: refused.
    Owner,
    /// Writable by group or others: refused.
    Writable,
    /// A shared state dir without the sticky bit: refused.
    NotSticky,
    /// Not a regular file or folder (symlink, FIFO, hard link, …): refused.
    Type,
    /// Readable by group or others: used, but the history is not private.
    Readable,
    /// The log could not be read.
    Unreadable,
}

impl ProblemKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemKind::Owner => "owner",
            ProblemKind::Writable => "writable",
            ProblemKind::NotSticky => "not-sticky",
            ProblemKind::Type => "type",
            ProblemKind::Readable => "readable",
            ProblemKind::Unreadable => "unreadable",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub path: PathBuf,
    pub kind: ProblemKind,
    /// The refusal's words (`ENOTREGULAR: …`), or what is wrong.
    pub what: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Inspection {
    pub folder: PathBuf,
    /// The state dir, the folder, then each of its files that exists.
    pub items: Vec<Item>,
    /// `None`: no log (yet), or one that is not a regular file.
    pub log: Option<LogFacts>,
    pub problems: Vec<Problem>,
    /// The uid the rules expect (the inspecting process's); `None` without uids.
    pub expected_uid: Option<u32>,
}

/// Inspects the chat folder at `folder`; `summary_name` when the summary
/// has another name; `window`: log entries read from the end (0: the log
/// is not read at all, only its status taken).
pub fn inspect_folder(folder: &Path, summary_name: Option<&str>, window: usize) -> Inspection {
    let mut report = Inspection {
        folder: folder.to_owned(),
        items: Vec::new(),
        log: None,
        problems: Vec::new(),
        expected_uid: gateway_uid(),
    };
    if let Some(parent) = folder.parent().filter(|p| !p.as_os_str().is_empty()) {
        let status = std::fs::metadata(parent)
            .ok()
            .map(|m| super::sys::status(&m));
        if let Some(status) = status {
            report.judge(
                parent,
                rules::check_state_dir(&status, &shown(parent)),
                &status,
            );
        }
        report.items.push(Item {
            path: parent.to_owned(),
            status,
        });
    }
    let Some(status) = lstat(folder) else {
        report.items.push(Item {
            path: folder.to_owned(),
            status: None,
        });
        return report;
    };
    let checked = if status.kind == Kind::Symlink {
        Err(CoreError::NotRegularFile {
            path: shown(folder),
            kind: "symlink",
        })
    } else {
        rules::check_folder(&status, &shown(folder))
    };
    let is_folder = status.kind == Kind::Folder;
    report.judge(folder, checked, &status);
    report.items.push(Item {
        path: folder.to_owned(),
        status: Some(status),
    });
    if !is_folder {
        return report;
    }
    for name in [
        LOG_FILE,
        summary_name.unwrap_or(SUMMARY_FILE),
        LAST_PROMPT_FILE,
        MEMORY_STATE_FILE,
    ] {
        let path = folder.join(name);
        let status = match std::fs::symlink_metadata(&path) {
            Ok(metadata) => super::sys::status(&metadata),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
            // A folder this process cannot enter (mode 000, another user's):
            // its files are not looked at, and it says so, never "no log".
            Err(err) => {
                report.problems.push(Problem {
                    path: folder.to_owned(),
                    kind: ProblemKind::Unreadable,
                    what: format!(
                        "{} cannot be read ({}): its files were not checked",
                        shown(folder),
                        CoreError::io(&err, "lstat", &shown(&path))
                    ),
                });
                return report;
            }
        };
        report.judge(&path, rules::check_file(&status, &shown(&path)), &status);
        report.items.push(Item {
            path: path.clone(),
            status: Some(status),
        });
        if name == LOG_FILE && status.kind == Kind::File && window > 0 {
            match log_facts(&path, window) {
                Ok(facts) => report.log = Some(facts),
                Err(err) => report.problems.push(Problem {
                    path,
                    kind: ProblemKind::Unreadable,
                    what: err.to_string(),
                }),
            }
        }
    }
    report
}

impl Inspection {
    /// Records a refusal of the rules, or a mode others can read.
    fn judge(&mut self, path: &Path, checked: Result<(), CoreError>, status: &Status) {
        match checked {
            Err(err) => {
                let what = err.to_string();
                let kind = match &err {
                    CoreError::NotRegularFile { .. } => ProblemKind::Type,
                    _ if what.contains("owned by uid") => ProblemKind::Owner,
                    _ if what.contains("sticky") => ProblemKind::NotSticky,
                    _ if what.contains("writable") => ProblemKind::Writable,
                    _ => ProblemKind::Type,
                };
                self.problems.push(Problem {
                    path: path.to_owned(),
                    kind,
                    what,
                });
            }
            // The state dir may be shared when sticky; a chat folder or file must not be readable.
            Ok(()) => {
                let shared_state_dir = self.items.is_empty();
                if let (Some(mode), false) = (status.mode, shared_state_dir) {
                    if mode & 0o077 != 0 {
                        self.problems.push(Problem {
                            path: path.to_owned(),
                            kind: ProblemKind::Readable,
                            what: format!(
                                "{} is readable by other local users (mode {:04o})",
                                shown(path),
                                mode & 0o7777
                            ),
                        });
                    }
                }
            }
        }
    }
}

fn shown(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

fn lstat(path: &Path) -> Option<Status> {
    std::fs::symlink_metadata(path)
        .ok()
        .map(|m| super::sys::status(&m))
}

fn log_facts(path: &Path, window: usize) -> Result<LogFacts, CoreError> {
    let tail = read_log_tail_with_links(path, window, Links::Refuse)?;
    let (file, metadata) = open_state_file(path, Links::Refuse)?;
    let bytes = metadata.len();
    let mut last = [0u8; 1];
    let torn_last_line = bytes > 0
        && read_full_at(&file, &mut last, bytes - 1)
            .map_err(|err| CoreError::io(&err, "read", &shown(path)))?
            == 1
        && last[0] != b'\n';
    let last_session = tail
        .entries
        .iter()
        .rev()
        .find_map(|entry| entry.session.clone().filter(|s| !s.is_empty()));
    Ok(LogFacts {
        bytes,
        entries: tail.entries.len(),
        skipped_lines: tail.skipped_lines,
        torn_last_line,
        last_session,
    })
}
