//! `verify`: a backup (a folder or a `.tar`) checked against its manifest,
//! or a live state dir's chat folders checked against the store's rules.
//!
//! A backup: every file the manifest lists is read and its size, SHA-256
//! and (for the log) lines and valid entries compared; a chat folder or
//! file it lists that is missing, a file or folder it does not list, a
//! torn last line and anything not a regular file are each a problem named
//! by path. Nothing is extracted: a `.tar` is read entry by entry.
//!
//! A state dir: each chat folder as `doctor` inspects it (the store's
//! rules: type, links, owner, mode), then its log read whole through the
//! store's checked open: a torn last line and lines that are not valid
//! entries are problems too.

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::{self, BufReader, Read};
use std::path::{Path, PathBuf};

use super::backup::{ChatRecord, BACKED_UP_FILES};
use super::chat::absolute;
use super::manifest::{self, MANIFEST_FILE, MAX_MANIFEST_BYTES};
use super::members::{member, Member, Order};
use super::out::{lstat_kind, shown};
use crate::error::CoreError;
use crate::persistent_chat::fs::open_state_file;
use crate::persistent_chat::log::parse_log_line;
use crate::persistent_chat::Links;
use crate::store::inspect::inspect_folder;
use crate::store::layout::{looks_like_folder_name, LOG_FILE};
use crate::store::lines::{for_each_line, Tallied, Tally};
use crate::store::rules::Kind;
use crate::store::sys::{Access, StateDir};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerifiedKind {
    BackupFolder,
    BackupTar,
    StateDir,
}

impl VerifiedKind {
    pub fn as_str(self) -> &'static str {
        match self {
            VerifiedKind::BackupFolder => "backup-folder",
            VerifiedKind::BackupTar => "backup-tar",
            VerifiedKind::StateDir => "state-dir",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyProblem {
    /// The file or folder (in a backup, as `PATH/folder/name`; in a tar,
    /// `PATH:folder/name`).
    pub path: String,
    /// `manifest`, `missing-chat`, `missing-file`, `extra`, `size`,
    /// `checksum`, `entries`, `torn`, `type`, `unreadable`, `invalid-lines`,
    /// or a kind of `inspect`'s (`owner`, `writable`, `not-sticky`,
    /// `readable`).
    pub kind: &'static str,
    pub what: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Verification {
    pub path: PathBuf,
    pub kind: VerifiedKind,
    /// Chat folders checked.
    pub chats: u64,
    /// Files checked.
    pub files: u64,
    pub problems: Vec<VerifyProblem>,
}

/// Verifies `path`: a `.tar` or a folder holding `manifest.json` is a
/// backup; any other folder a state dir. Errors only when `path` cannot be
/// looked at; everything wrong inside it is a problem.
pub fn verify(path: &Path) -> Result<Verification, CoreError> {
    let path = absolute(path);
    let kind = lstat_kind(&path)?.ok_or_else(|| {
        CoreError::io(
            &io::Error::from(io::ErrorKind::NotFound),
            "lstat",
            &shown(&path),
        )
    })?;
    let mut report = Verification {
        path: path.clone(),
        kind: VerifiedKind::StateDir,
        chats: 0,
        files: 0,
        problems: Vec::new(),
    };
    if kind == Kind::File {
        report.kind = VerifiedKind::BackupTar;
        verify_tar(&path, &mut report)?;
    } else if kind == Kind::Folder && lstat_kind(&path.join(MANIFEST_FILE))?.is_some() {
        report.kind = VerifiedKind::BackupFolder;
        verify_backup_folder(&path, &mut report)?;
    } else if kind == Kind::Folder {
        verify_state_dir(&path, &mut report)?;
    } else {
        return Err(CoreError::NotRegularFile {
            path: shown(&path),
            kind: kind.name(),
        });
    }
    Ok(report)
}

fn problem(report: &mut Verification, path: String, kind: &'static str, what: String) {
    report.problems.push(VerifyProblem { path, kind, what });
}

/// What a backup holds, by `folder/name`.
#[derive(Default)]
struct Found {
    manifest: Option<Vec<u8>>,
    folders: BTreeSet<String>,
    files: BTreeMap<(String, String), Tallied>,
}

fn tally_file(file: impl Read, size: u64, name: &str) -> io::Result<Tallied> {
    let mut tally = Tally::new(file, size, name == LOG_FILE);
    tally.drain()?;
    Ok(tally.finish())
}

fn read_manifest(mut file: impl Read) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    (&mut file)
        .take(MAX_MANIFEST_BYTES + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

fn verify_backup_folder(root: &Path, report: &mut Verification) -> Result<(), CoreError> {
    let mut found = Found::default();
    let at = |parts: &[&str]| {
        let mut path = root.to_path_buf();
        path.extend(parts);
        shown(&path)
    };
    match open_state_file(&root.join(MANIFEST_FILE), Links::Refuse) {
        Ok((file, _)) => match read_manifest(file) {
            Ok(bytes) => found.manifest = Some(bytes),
            Err(err) => problem(report, at(&[MANIFEST_FILE]), "unreadable", err.to_string()),
        },
        Err(err) => problem(report, at(&[MANIFEST_FILE]), "unreadable", err.to_string()),
    }
    let listing =
        std::fs::read_dir(root).map_err(|err| CoreError::io(&err, "scandir", &shown(root)))?;
    for entry in listing {
        let entry = entry.map_err(|err| CoreError::io(&err, "scandir", &shown(root)))?;
        let Ok(name) = entry.file_name().into_string() else {
            problem(
                report,
                shown(&entry.path()),
                "extra",
                "a name that is not Unicode".into(),
            );
            continue;
        };
        if name == MANIFEST_FILE {
            continue;
        }
        let path = root.join(&name);
        match lstat_kind(&path)? {
            Some(Kind::Folder) => {}
            Some(kind) => {
                problem(
                    report,
                    shown(&path),
                    "extra",
                    format!("a {} the manifest does not list", kind.name()),
                );
                continue;
            }
            None => continue,
        }
        if let Err((kind, what)) = member(&[&name], true) {
            problem(report, shown(&path), kind, what);
            continue;
        }
        found.folders.insert(name.clone());
        let files = std::fs::read_dir(&path)
            .map_err(|err| CoreError::io(&err, "scandir", &shown(&path)))?;
        for file in files {
            let file = file.map_err(|err| CoreError::io(&err, "scandir", &shown(&path)))?;
            let file_path = file.path();
            let Ok(file_name) = file.file_name().into_string() else {
                problem(
                    report,
                    shown(&file_path),
                    "extra",
                    "a name that is not Unicode".into(),
                );
                continue;
            };
            if let Err((kind, what)) = member(&[&name, &file_name], false) {
                problem(report, shown(&file_path), kind, what);
                continue;
            }
            match open_state_file(&file_path, Links::Refuse) {
                Ok((handle, metadata)) => match tally_file(handle, metadata.len(), &file_name) {
                    Ok(tallied) => {
                        found.files.insert((name.clone(), file_name), tallied);
                    }
                    Err(err) => problem(report, shown(&file_path), "unreadable", err.to_string()),
                },
                Err(err @ CoreError::NotRegularFile { .. }) => {
                    problem(report, shown(&file_path), "type", err.to_string())
                }
                Err(err) => problem(report, shown(&file_path), "unreadable", err.to_string()),
            }
        }
    }
    compare(found, report, &|parts| at(parts));
    Ok(())
}

fn verify_tar(path: &Path, report: &mut Verification) -> Result<(), CoreError> {
    let (file, _) = open_state_file(path, Links::Refuse)?;
    let mut found = Found::default();
    let base = shown(path);
    let at = |parts: &[&str]| format!("{base}:{}", parts.join("/"));
    let unreadable = |report: &mut Verification, err: io::Error| {
        problem(
            report,
            base.clone(),
            "unreadable",
            format!("not a readable tar file: {err}"),
        );
    };
    let mut archive = tar::Archive::new(BufReader::new(file));
    let mut order = Order::default();
    let entries = match archive.entries() {
        Ok(entries) => entries,
        Err(err) => {
            unreadable(report, err);
            return Ok(());
        }
    };
    for entry in entries {
        let mut entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                unreadable(report, err);
                return Ok(());
            }
        };
        let name = match entry.path() {
            Ok(name) => name.to_string_lossy().trim_end_matches('/').to_owned(),
            Err(err) => {
                unreadable(report, err);
                return Ok(());
            }
        };
        let parts: Vec<&str> = name.split('/').collect();
        let kind = entry.header().entry_type();
        let size = entry.size();
        let is_folder = match kind {
            tar::EntryType::Directory => true,
            tar::EntryType::Regular => false,
            _ => {
                problem(
                    report,
                    at(&parts),
                    "type",
                    format!("an entry of type {kind:?}, not a file or folder"),
                );
                continue;
            }
        };
        // The rule restore applies, member by member (members.rs).
        let checked = member(&parts, is_folder).and_then(|m| order.next(m).map(|()| m));
        match checked {
            Err((kind, what)) => problem(report, at(&parts), kind, what),
            Ok(Member::Manifest) => match read_manifest(&mut entry) {
                Ok(bytes) => found.manifest = Some(bytes),
                Err(err) => problem(report, at(&parts), "unreadable", err.to_string()),
            },
            Ok(Member::Folder(folder)) => {
                found.folders.insert(folder.to_owned());
            }
            Ok(Member::File { folder, name }) => match tally_file(&mut entry, size, name) {
                Ok(tallied) => {
                    found
                        .files
                        .insert((folder.to_owned(), name.to_owned()), tallied);
                }
                Err(err) => {
                    problem(report, at(&parts), "unreadable", err.to_string());
                    return Ok(());
                }
            },
        }
    }
    compare(found, report, &at);
    Ok(())
}

/// Compares what a backup holds with its manifest.
fn compare(found: Found, report: &mut Verification, at: &dyn Fn(&[&str]) -> String) {
    let Some(bytes) = found.manifest else {
        if !report
            .problems
            .iter()
            .any(|p| p.path == at(&[MANIFEST_FILE]))
        {
            problem(report, at(&[MANIFEST_FILE]), "manifest", "missing".into());
        }
        return;
    };
    let chats: Vec<ChatRecord> = match manifest::parse(&bytes) {
        Ok(chats) => chats,
        Err(what) => {
            problem(report, at(&[MANIFEST_FILE]), "manifest", what);
            return;
        }
    };
    let mut listed_folders = BTreeSet::new();
    let mut listed_files = BTreeSet::new();
    for chat in &chats {
        report.chats += 1;
        let names = std::iter::once(member(&[&chat.folder], true).map(|_| ())).chain(
            chat.files
                .iter()
                .map(|file| member(&[&chat.folder, &file.name], false).map(|_| ())),
        );
        if let Some(Err((_, what))) = names.into_iter().find(Result::is_err) {
            problem(
                report,
                at(&[MANIFEST_FILE]),
                "manifest",
                format!("it lists {:?}: {what}", chat.folder),
            );
            continue;
        }
        listed_folders.insert(chat.folder.clone());
        if !found.folders.contains(&chat.folder) {
            problem(
                report,
                at(&[&chat.folder]),
                "missing-chat",
                "the manifest lists this chat; the backup does not hold it".into(),
            );
            continue;
        }
        for want in &chat.files {
            report.files += 1;
            let key = (chat.folder.clone(), want.name.clone());
            listed_files.insert(key.clone());
            let path = at(&[&chat.folder, &want.name]);
            let Some(got) = found.files.get(&key) else {
                problem(
                    report,
                    path,
                    "missing-file",
                    "the manifest lists this file; the backup does not hold it".into(),
                );
                continue;
            };
            if got.bytes != want.size {
                let how = if got.bytes < want.size {
                    "truncated: "
                } else {
                    ""
                };
                problem(
                    report,
                    path.clone(),
                    "size",
                    format!("{how}{} bytes, the manifest says {}", got.bytes, want.size),
                );
            } else if got.sha256 != want.sha256 {
                problem(
                    report,
                    path.clone(),
                    "checksum",
                    format!(
                        "SHA-256 {} is not the manifest's {}",
                        got.sha256, want.sha256
                    ),
                );
            }
            if want.name == LOG_FILE {
                if got.torn_bytes > 0 {
                    problem(
                        report,
                        path.clone(),
                        "torn",
                        format!(
                            "the last line is torn ({} bytes without a line break)",
                            got.torn_bytes
                        ),
                    );
                }
                if let Some(entries) = want.entries {
                    if got.entries != entries {
                        problem(
                            report,
                            path.clone(),
                            "entries",
                            format!("{} valid entries, the manifest says {entries}", got.entries),
                        );
                    }
                }
            }
        }
    }
    for folder in &found.folders {
        if !listed_folders.contains(folder) {
            problem(
                report,
                at(&[folder]),
                "extra",
                "a chat folder the manifest does not list".into(),
            );
        }
    }
    for (folder, name) in found.files.keys() {
        if listed_folders.contains(folder)
            && !listed_files.contains(&(folder.clone(), name.clone()))
        {
            problem(
                report,
                at(&[folder, name]),
                "extra",
                "a file the manifest does not list".into(),
            );
        }
    }
}

/// What a folder of a state dir is, to `verify`.
enum FolderKind {
    /// A chat folder: it holds a file of the store's, or has a chat
    /// folder's name (then, unreadable, it is one that cannot be checked).
    Chat,
    /// A backup (it holds `manifest.json`): verified on its own, not here.
    Backup,
    /// Something else.
    Other,
}

fn what_folder_is(path: &Path, name: &str) -> FolderKind {
    let holds = |file: &str| {
        std::fs::symlink_metadata(path.join(file))
            .map(|_| true)
            .unwrap_or_else(|err| err.kind() != io::ErrorKind::NotFound)
    };
    if holds(MANIFEST_FILE) && !holds(LOG_FILE) {
        return FolderKind::Backup;
    }
    if looks_like_folder_name(name) || BACKED_UP_FILES.iter().any(|file| holds(file)) {
        return FolderKind::Chat;
    }
    FolderKind::Other
}

fn verify_state_dir(path: &Path, report: &mut Verification) -> Result<(), CoreError> {
    let state = StateDir::open(path, false)?;
    let listing =
        std::fs::read_dir(path).map_err(|err| CoreError::io(&err, "scandir", &shown(path)))?;
    let mut names: Vec<String> = Vec::new();
    let mut backups = 0u64;
    for entry in listing {
        let entry = entry.map_err(|err| CoreError::io(&err, "scandir", &shown(path)))?;
        if let Ok(name) = entry.file_name().into_string() {
            if name.ends_with(".tar") {
                backups += 1;
            } else if !name.starts_with('.') {
                names.push(name);
            }
        }
    }
    names.sort();
    let mut seen = BTreeSet::new();
    let mut others = Vec::new();
    for name in names {
        let folder_path = path.join(&name);
        match state.status_of(&name)? {
            Some(status) if status.kind == Kind::Folder || status.kind == Kind::Symlink => {}
            _ => continue,
        }
        match what_folder_is(&folder_path, &name) {
            FolderKind::Chat => {}
            FolderKind::Backup => {
                backups += 1;
                others.push((
                    folder_path,
                    "a backup, not a chat folder: verify it on its own",
                ));
                continue;
            }
            FolderKind::Other => {
                others.push((
                    folder_path,
                    "not a chat folder (no file of a chat's, nor a chat folder's name)",
                ));
                continue;
            }
        }
        report.chats += 1;
        let inspection = inspect_folder(&folder_path, None, 0);
        report.files += inspection
            .items
            .iter()
            .filter(|item| item.path.parent() == Some(folder_path.as_path()))
            .count() as u64;
        for found in inspection.problems {
            let key = (found.path.clone(), found.kind.as_str());
            if seen.insert(key) {
                problem(report, shown(&found.path), found.kind.as_str(), found.what);
            }
        }
        let folder = match state.folder(&name, false) {
            Ok((folder, _)) => folder,
            Err(err) => {
                // Refused by the rules (named above) or not to be opened at all:
                // either way not checked, and never counted as clean.
                if !report
                    .problems
                    .iter()
                    .any(|p| p.path == shown(&folder_path))
                {
                    problem(report, shown(&folder_path), "unreadable", err.to_string());
                }
                continue;
            }
        };
        for file_name in BACKED_UP_FILES {
            let file_path = folder_path.join(file_name);
            let opened = match folder.open_file(file_name, Access::Read) {
                Ok(opened) => opened,
                Err(err) => {
                    if !report.problems.iter().any(|p| p.path == shown(&file_path)) {
                        problem(report, shown(&file_path), "unreadable", err.to_string());
                    }
                    continue;
                }
            };
            if file_name != LOG_FILE {
                continue;
            }
            if let Some((file, status, _)) = opened {
                check_log(&file, status.size, &file_path, report);
            }
        }
    }
    if report.chats == 0 {
        // Nothing was checked: no answer here may read as clean.
        let held = if backups > 0 {
            format!("; it holds {backups} backup(s): verify each on its own (openclaw-context verify PATH/NAME)")
        } else {
            String::new()
        };
        return Err(CoreError::Refused {
            path: shown(path),
            what: format!("neither a backup nor a state dir with a chat folder{held}"),
        });
    }
    for (path, what) in others {
        problem(report, shown(&path), "extra", what.into());
    }
    Ok(())
}

/// A live log read whole: invalid lines and a torn end.
fn check_log(file: &File, size: u64, path: &Path, report: &mut Verification) {
    let (mut lines, mut invalid, mut first_invalid) = (0u64, 0u64, 0u64);
    let end = for_each_line(file, size, path, |line| {
        lines += 1;
        if parse_log_line(line).is_none() {
            invalid += 1;
            if first_invalid == 0 {
                first_invalid = lines;
            }
        }
        Ok(())
    });
    match end {
        Err(err) => problem(report, shown(path), "unreadable", err.to_string()),
        Ok(end) => {
            if invalid > 0 {
                problem(report, shown(path), "invalid-lines", format!("{invalid} of {lines} lines are not valid entries (the first is line {first_invalid}); readers skip them"));
            }
            if end.torn_bytes > 0 {
                problem(report, shown(path), "torn", format!("the last line is torn ({} bytes without a line break); the next append starts a new line", end.torn_bytes));
            }
        }
    }
}
