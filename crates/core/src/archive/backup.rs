//! A consistent copy of one chat, or of every chat folder of a state dir,
//! into a folder (0700 folders, 0600 files) or a `.tar`, with a manifest.
//!
//! Taken while a gateway keeps appending: each file is opened through the
//! store's checked open and its size taken on the handle; the log is copied
//! up to its last `\n` within that size (never a torn line: what is appended
//! later is not part of the backup), the other files whole (the store
//! replaces them by rename, so an open handle reads one version). Each file
//! is hashed and, for the log, its lines and valid entries counted as it is
//! copied, and `manifest.json` records them. The output is built under a
//! temp name beside `out` and renamed into place: `out` is whole or absent.
//! Without `apply` everything is read and hashed, and nothing written.

use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::chat::{absolute, open_folder, Chat};
use super::manifest::{self, MANIFEST_FILE};
use super::out::{
    create_private_folder, refuse_existing, refuse_inside, shown, write_file_atomically,
    write_folder_atomically, write_new_file,
};
use crate::error::CoreError;
use crate::persistent_chat::time::format_iso_utc;
use crate::store::layout::{LAST_PROMPT_FILE, LOG_FILE, MEMORY_STATE_FILE, SUMMARY_FILE};
use crate::store::lines::{shrank, whole_lines_end, Tallied, Tally};
use crate::store::rules::Kind;
use crate::store::sys::{Access, Folder, StateDir};

/// The files of a chat folder a backup copies, the log first. Anything
/// else in the folder (the search index, which is rebuilt from the log;
/// temp files; the lock; the list of forgotten entries, which belongs to
/// the live chat and is never replaced by an older one) is listed as not
/// copied.
pub const BACKED_UP_FILES: [&str; 4] =
    [LOG_FILE, SUMMARY_FILE, LAST_PROMPT_FILE, MEMORY_STATE_FILE];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRecord {
    pub name: String,
    /// Bytes copied.
    pub size: u64,
    /// SHA-256 of the bytes copied, lower-case hex.
    pub sha256: String,
    /// The log's complete lines copied (`None` for the other files).
    pub lines: Option<u64>,
    /// The log's valid entries copied.
    pub entries: Option<u64>,
    /// Bytes after the log's last `\n` when it was opened (a torn line, or
    /// one being written), left out. Not in the manifest.
    pub left_out_bytes: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatRecord {
    /// The chat folder's name under the state dir.
    pub folder: String,
    pub files: Vec<FileRecord>,
}

/// A path the store's rules refused: not copied.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub path: PathBuf,
    pub what: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackupForm {
    Folder,
    Tar,
}

#[derive(Debug, Clone, PartialEq)]
pub struct BackupOptions {
    pub state_dir: PathBuf,
    /// One chat; `None`: every chat folder of the state dir.
    pub session_key: Option<Vec<u16>>,
    /// A folder to create, or a tar file when it ends in `.tar`.
    pub out: PathBuf,
    /// Write; otherwise only read, hash and report.
    pub apply: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Backup {
    pub out: PathBuf,
    pub form: BackupForm,
    /// Whether `out` was written (`apply`).
    pub written: bool,
    pub chats: Vec<ChatRecord>,
    /// Chat folders or files the store's rules refused (not copied).
    pub refused: Vec<Refusal>,
    /// Other names found and not copied (not chat files, hidden, not Unicode).
    pub not_copied: Vec<PathBuf>,
}

/// Where the copies go.
enum Sink<'a, W: Write> {
    DryRun,
    Folder(&'a Path),
    Tar(&'a mut tar::Builder<W>),
}

impl<W: Write> Sink<'_, W> {
    fn folder(&mut self, name: &str) -> Result<(), CoreError> {
        match self {
            Sink::DryRun => Ok(()),
            Sink::Folder(root) => create_private_folder(&root.join(name)),
            Sink::Tar(builder) => {
                let mut header = tar_header(tar::EntryType::Directory, 0o700, 0);
                builder
                    .append_data(&mut header, format!("{name}/"), io::empty())
                    .map_err(|err| CoreError::io(&err, "write", &format!("{name}/")))
            }
        }
    }

    /// Copies exactly `size` bytes of `file` as `folder/name`.
    fn file(
        &mut self,
        folder: &str,
        name: &str,
        file: &File,
        size: u64,
        source: &Path,
    ) -> Result<Tallied, CoreError> {
        let mut tally = Tally::new(file, size, name == LOG_FILE);
        let copy_error = |err: io::Error| {
            if err.kind() == io::ErrorKind::UnexpectedEof {
                shrank(source)
            } else {
                CoreError::io(&err, "read", &shown(source))
            }
        };
        match self {
            Sink::DryRun => tally.drain().map_err(copy_error)?,
            Sink::Folder(root) => {
                let target = root.join(folder).join(name);
                write_new_file(&target, |out| {
                    io::copy(&mut tally, out).map_err(copy_error)?;
                    Ok(())
                })?
            }
            Sink::Tar(builder) => {
                let mut header = tar_header(tar::EntryType::Regular, 0o600, size);
                builder
                    .append_data(&mut header, format!("{folder}/{name}"), &mut tally)
                    .map_err(copy_error)?
            }
        }
        Ok(tally.finish())
    }
}

fn tar_header(kind: tar::EntryType, mode: u32, size: u64) -> tar::Header {
    let mut header = tar::Header::new_gnu();
    header.set_entry_type(kind);
    header.set_mode(mode);
    header.set_size(size);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    header.set_mtime(now);
    if let Some(uid) = crate::store::rules::gateway_uid() {
        header.set_uid(u64::from(uid));
    }
    header
}

fn now_iso() -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_millis() as f64);
    format_iso_utc(ms).unwrap_or_default()
}

/// The chat folders to copy: `(name, folder)` each, checked; refusals and
/// other names recorded.
fn chat_folders(
    options: &BackupOptions,
    report: &mut Backup,
) -> Result<Vec<(String, Folder)>, CoreError> {
    if let Some(key) = &options.session_key {
        let chat = Chat::Key {
            state_dir: options.state_dir.clone(),
            key: key.clone(),
        };
        let (folder, _) = open_folder(&chat)?;
        let name = folder
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        return Ok(vec![(name, folder)]);
    }
    let state = StateDir::open(&absolute(&options.state_dir), false)?;
    let listing = std::fs::read_dir(&state.path)
        .map_err(|err| CoreError::io(&err, "scandir", &shown(&state.path)))?;
    let mut names = Vec::new();
    for entry in listing {
        let entry = entry.map_err(|err| CoreError::io(&err, "scandir", &shown(&state.path)))?;
        match entry.file_name().into_string() {
            Ok(name) if !name.starts_with('.') => names.push(name),
            _ => report.not_copied.push(entry.path()),
        }
    }
    names.sort();
    let mut folders = Vec::new();
    for name in names {
        let path = state.path.join(&name);
        match state.status_of(&name)? {
            Some(found) if found.kind == Kind::Folder => match state.folder(&name, false) {
                Ok((folder, _)) => folders.push((name, folder)),
                Err(err) => report.refused.push(Refusal {
                    path,
                    what: err.to_string(),
                }),
            },
            Some(found) if found.kind == Kind::Symlink => report.refused.push(Refusal {
                what: format!(
                    "ENOTREGULAR: not a folder (symlink), open '{}'",
                    shown(&path)
                ),
                path,
            }),
            _ => report.not_copied.push(path),
        }
    }
    Ok(folders)
}

/// Copies each chat folder into `sink`; the records for the manifest.
fn copy_chats<W: Write>(
    folders: &[(String, Folder)],
    sink: &mut Sink<W>,
    report: &mut Backup,
) -> Result<Vec<ChatRecord>, CoreError> {
    let mut chats = Vec::new();
    for (name, folder) in folders {
        // Open every file first: a refusal leaves the whole chat out.
        let mut opened = Vec::new();
        let mut refused = false;
        for file_name in BACKED_UP_FILES {
            match folder.open_file(file_name, Access::Read) {
                Ok(Some((file, status, _))) => opened.push((file_name, file, status.size)),
                Ok(None) => {}
                Err(err) => {
                    refused = true;
                    report.refused.push(Refusal {
                        path: folder.path.join(file_name),
                        what: err.to_string(),
                    });
                }
            }
        }
        if refused {
            continue;
        }
        if let Ok(names) = folder.names() {
            let mut others: Vec<_> = names
                .into_iter()
                .filter(|n| !BACKED_UP_FILES.contains(&n.as_str()))
                .map(|n| folder.path.join(n))
                .collect();
            others.sort();
            report.not_copied.extend(others);
        }
        sink.folder(name)?;
        let mut files = Vec::new();
        for (file_name, file, size) in opened {
            let source = folder.path.join(file_name);
            let (copied, left_out) = if file_name == LOG_FILE {
                let whole = whole_lines_end(&file, size, &source)?;
                (whole, size - whole)
            } else {
                (size, 0)
            };
            let tallied = sink.file(name, file_name, &file, copied, &source)?;
            let is_log = file_name == LOG_FILE;
            files.push(FileRecord {
                name: file_name.to_owned(),
                size: tallied.bytes,
                sha256: tallied.sha256,
                lines: is_log.then_some(tallied.lines),
                entries: is_log.then_some(tallied.entries),
                left_out_bytes: left_out,
            });
        }
        chats.push(ChatRecord {
            folder: name.clone(),
            files,
        });
    }
    Ok(chats)
}

/// Backs up `options.state_dir` (or one chat of it) as `options` says.
/// Errors: the state dir or the named chat refused or missing; `out`
/// existing (`EEXIST`; a backup replaces nothing); a write failing (then
/// nothing is left at `out`). A chat folder or file the rules refuse is
/// left out and listed in `refused`.
pub fn backup(options: &BackupOptions) -> Result<Backup, CoreError> {
    let out = absolute(&options.out);
    let form = if out.extension().is_some_and(|e| e == "tar") {
        BackupForm::Tar
    } else {
        BackupForm::Folder
    };
    let mut report = Backup {
        out: out.clone(),
        form,
        written: false,
        chats: Vec::new(),
        refused: Vec::new(),
        not_copied: Vec::new(),
    };
    refuse_existing(&out)?;
    let folders = chat_folders(options, &mut report)?;
    let state_dir = absolute(&options.state_dir);
    let mut inside: Vec<&Path> = folders.iter().map(|(_, f)| f.path.as_path()).collect();
    inside.push(&state_dir);
    refuse_inside(&out, &inside, "the state dir or a chat folder")?;
    let created_at = now_iso();
    let chats = if !options.apply {
        copy_chats(&folders, &mut Sink::<io::Sink>::DryRun, &mut report)?
    } else {
        match form {
            BackupForm::Folder => write_folder_atomically(&out, |root| {
                let chats = copy_chats(&folders, &mut Sink::<io::Sink>::Folder(root), &mut report)?;
                let manifest = manifest::to_json(&created_at, &chats);
                let path = root.join(MANIFEST_FILE);
                write_new_file(&path, |file| {
                    file.write_all(manifest.as_bytes())
                        .map_err(|err| CoreError::io(&err, "write", &shown(&path)))
                })?;
                Ok(chats)
            })?,
            BackupForm::Tar => write_file_atomically(&out, false, |file, target| {
                let write_error = |err: io::Error| CoreError::io(&err, "write", &shown(target));
                let mut builder = tar::Builder::new(file);
                let chats = copy_chats(&folders, &mut Sink::Tar(&mut builder), &mut report)?;
                let manifest = manifest::to_json(&created_at, &chats);
                let mut header = tar_header(tar::EntryType::Regular, 0o600, manifest.len() as u64);
                builder
                    .append_data(&mut header, MANIFEST_FILE, manifest.as_bytes())
                    .map_err(write_error)?;
                builder
                    .into_inner()
                    .map_err(write_error)?
                    .flush()
                    .map_err(write_error)?;
                Ok(chats)
            })?,
        }
    };
    report.chats = chats;
    report.written = options.apply;
    Ok(report)
}
