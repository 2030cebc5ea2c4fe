//! A chat's log outside the gateway: export, backup and verify (read-only:
//! nothing in a chat folder is created, renamed or removed), and the
//! commands that rewrite a chat under its folder's exclusive lock. Every
//! chat file is opened through the store's checked opens (`store::sys`: the
//! folder checked, then the file on its handle, `O_NOFOLLOW | O_NONBLOCK`),
//! so a FIFO, a symlink, a hard link or someone else's file is refused with
//! `ENOTREGULAR` naming the path, never followed or waited on.
//!
//! - [`chat`]: naming a chat (`--log FILE`, or a state dir and a session key)
//!   and opening its log read-only;
//! - [`export`]: the log's exact lines (JSON Lines) or Markdown for a
//!   person, filtered by time;
//! - [`out`]: private output files and folders (0600/0700), written under a
//!   temp name and renamed into place;
//! - [`forget`]: entries removed from the log and every derived file, the
//!   log rewritten under the folder's exclusive lock;
//! - [`import`]: a log backfilled from an export or OpenClaw's transcript,
//!   merged in time order under the folder's exclusive lock; [`injected`]:
//!   the live message of a stored turn that holds an injected prompt;
//! - [`manifest`]: a backup's `manifest.json`, written and read;
//! - [`backup`]: a consistent copy of one chat or every chat folder of a
//!   state dir, into a folder or a `.tar`;
//! - [`restore`]: a backup, verified, put back into a state dir, a chat
//!   with lines the backup lacks refused unless forced;
//! - [`verify`]: a backup against its manifest, or a live state dir's chat
//!   folders against the store's rules.

pub mod backup;
pub mod chat;
pub mod export;
pub mod forget;
pub mod import;
pub mod injected;
pub mod manifest;
mod members;
mod out;
pub mod restore;
pub mod verify;

pub use backup::{backup, Backup, BackupForm, BackupOptions, ChatRecord, FileRecord, Refusal};
pub use chat::Chat;
#[cfg(unix)]
pub use export::write_to_fd;
pub use export::{
    export_log, export_to_file, parse_bound, ExportFormat, ExportOptions, Exported, Exporter,
};
pub use forget::{forget, ForgetRule, Forgotten, ForgottenEntry};
pub use import::{import, ImportOptions, ImportSource, Imported, TranscriptEvent};
pub use restore::{restore, Restore, RestoreAction, RestoreOptions, RestoredChat};
pub use verify::{verify, Verification, VerifiedKind, VerifyProblem};
