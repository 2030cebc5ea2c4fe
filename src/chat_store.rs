//! The `ChatStore` export: one object per chat folder, over the core's
//! store. Its methods read their arguments now and do the file work on the
//! libuv thread pool (Promises), with the same errors as the functions:
//! `TypeError`/`RangeError` naming the field, `Error` with `code` and `path`
//! (`ENOTREGULAR` for every refusal of the store's file rules).

use napi::bindgen_prelude::{PromiseRaw, Unknown};
use napi::Env;
use napi_derive::napi;
use openclaw_context_core::archive;
use openclaw_context_core::mask::masker_for;
use openclaw_context_core::persistent_chat::request::SummaryRequest;
use openclaw_context_core::persistent_chat::summary::SUMMARY_LOG_ENTRIES;
use openclaw_context_core::store::{inspect_folder, turn, ChatStore as Store};

use crate::binding::archive::{
    backup_args, export_args, forget_args, forget_in_args, import_args, restore_args,
    ChatStoreBackup, ChatStoreExport, ChatStoreForget, ChatStoreImport, ChatStoreRestore,
    ChatStoreVerification,
};
use crate::binding::persistent_chat::{
    turn_params, PersistentChatLogEntry, PersistentChatPromptReport,
};
use crate::binding::promise::{spawn, Job};
use crate::binding::search::{
    store_search_options, window_at, PersistentChatLogHit, PersistentChatLogWindowEntry,
};
use crate::binding::shape::arg;
use crate::binding::store::{
    append_args, open_options, summary_args, ChatStoreAppendResult, ChatStoreInspection,
    ChatStoreTurnWindow, Location,
};
use crate::binding::text::Utf16String;
use crate::binding::{count, count_of, Js};

/// Log entries `inspect` reads from the end by default: the window the
/// plugin reads to tell a reload.
const INSPECT_WINDOW: usize = turn::TURN_WINDOW;

/// The log entries a turn reads (at least) to tell a reload: a backend
/// session with no entry among the chat's last 50 is new to it
/// (`prepareTurn`'s and `inspect`'s default window).
#[allow(dead_code)] // read by JavaScript only
#[napi]
pub const TURN_WINDOW: u32 = turn::TURN_WINDOW as u32;

/// A chat's folder and its files: the layout (folder name from the session
/// key, the file names, modes 0700/0600 whatever the umask, an earlier
/// release's folder renamed to the new name), the file rules (a regular
/// file of one link, owned by this process's user and not writable by group
/// or others; the folder likewise; the state dir the user's or root's, and
/// private or sticky), the append and the atomic replace. Every file is
/// opened relative to the checked folder (`openat`, `O_NOFOLLOW`,
/// `O_NONBLOCK` on unix) and checked on its handle. Every refusal rejects
/// with an `Error` of code `ENOTREGULAR` naming the path, what is wrong and
/// the owner's uid when it is someone else's. Windows: no owner or mode
/// check (the folder's ACL decides), the path is checked before it is
/// opened; WASI: no owner either.
///
/// Made by `ChatStore.open`; holds no open file: each call opens the folder
/// again and checks it.
#[napi]
pub struct ChatStore {
    inner: Store,
}

#[napi]
impl ChatStore {
    /// Finds, migrates or creates a chat's folder and checks it and each of
    /// its files, then removes temp files of dead processes from it.
    /// `{ stateDir, sessionKey }`: the key's own folder under `stateDir`
    /// (created 0700 with `stateDir` when missing; a folder of an earlier
    /// release's name is renamed to it, history and all); `{ folder,
    /// summaryFile? }`: that folder as is (created 0700 when missing), its
    /// summary under `summaryFile` (default `continuity-summary.txt`).
    /// `maskPatterns`: the operator's patterns (as `SecretMasker` takes
    /// them) for the masking of everything the store writes, besides the
    /// built-in ones (which apply whatever is given).
    /// `create: false`: change nothing (create, migrate or clean nothing);
    /// a chat that has no folder rejects with `ENOENT` naming it, and a
    /// folder of an earlier release's name is used where it is.
    #[napi(catch_unwind, ts_return_type = "Promise<ChatStore>")]
    pub fn open<'scope>(
        env: Env,
        options: arg::ChatStoreOpenOptions<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, ChatStore>> {
        spawn(&env, || {
            let (location, mask_patterns) = open_options(options.read("options")?)?;
            Ok(Job::new(
                move || {
                    let store = match location {
                        Location::Key {
                            state_dir,
                            key,
                            create: true,
                        } => Store::open_for_key(&state_dir, &key),
                        Location::Key {
                            state_dir,
                            key,
                            create: false,
                        } => Store::find_for_key(&state_dir, &key),
                        Location::Folder {
                            folder,
                            summary_file,
                            create: true,
                        } => Store::open_folder(&folder, summary_file.as_deref()),
                        Location::Folder {
                            folder,
                            summary_file,
                            create: false,
                        } => Store::find_folder(&folder, summary_file.as_deref()),
                    }?;
                    Ok(match mask_patterns {
                        Some(patterns) => store.with_masker(masker_for(&patterns)),
                        None => store,
                    })
                },
                |inner| ChatStore { inner },
            ))
        })
    }

    /// Removes, at once, every temp file and folder this process made (a
    /// replacement not yet renamed into place: a rewrite of a log, an
    /// export's or a backup's output) and returns their paths: for a command
    /// interrupted by a signal, right before its process ends. From then on
    /// this process makes and renames no temp file or folder: a call still
    /// at work fails (`EINTR`) and what it was to replace is as it was; a
    /// replacement renamed before it is whole and stays.
    #[napi]
    pub fn remove_unfinished_temp_files() -> Vec<String> {
        openclaw_context_core::store::replace::remove_unfinished()
            .into_iter()
            .map(|path| path.to_string_lossy().into_owned())
            .collect()
    }

    /// How far this process's long work is (an index build, an export, a
    /// backup, a verify, an import, a rewrite of a log): `{ done, total }`
    /// in bytes read, counted since the process started; for a progress
    /// line, read while a call runs on the thread pool (a delta between two
    /// reads is the work in between).
    #[napi(ts_return_type = "{ done: number, total: number }")]
    pub fn work_progress() -> WorkProgress {
        let (done, total) = openclaw_context_core::progress::snapshot();
        WorkProgress {
            done: done as f64,
            total: total as f64,
        }
    }

    /// The folder name `open` gives `sessionKey` under a state dir: a slug
    /// of it (lower case, `a-z0-9` runs joined by `-`, at most 60) and 32
    /// hex digits of SHA-256 over its UTF-16 code units (little-endian).
    #[napi(catch_unwind)]
    pub fn folder_name(env: Env, session_key: arg::Utf16String) -> napi::Result<String> {
        crate::binding::run(&env, || {
            let key = session_key.read("sessionKey")?;
            Ok(openclaw_context_core::store::layout::folder_name(&key))
        })
    }

    /// What `doctor` shows of the chat folder at `folder`, read-only (it
    /// neither creates nor refuses anything): the state dir, the folder and
    /// each file (kind, mode, owner), the log's last `window` entries
    /// (default 50: entries, skipped lines, a torn end, the last backend
    /// session), and each problem, refusals of the file rules included.
    #[napi(catch_unwind, ts_return_type = "Promise<ChatStoreInspection>")]
    pub fn inspect_folder<'scope>(
        env: Env,
        folder: arg::PathBuf<'scope>,
        options: Option<arg::ChatStoreInspectOptions<'scope>>,
    ) -> napi::Result<PromiseRaw<'scope, ChatStoreInspection>> {
        spawn(&env, || {
            let folder = folder.read("folder")?;
            let (summary_file, window) = inspect_options(options)?;
            Ok(Job::new(
                move || Ok(inspect_folder(&folder, summary_file.as_deref(), window)),
                Into::into,
            ))
        })
    }

    /// A chat's log, exported (read-only, under the file rules: the log's
    /// folder checked, the log opened `O_NOFOLLOW | O_NONBLOCK` and checked
    /// on its handle; a FIFO, symlink, hard link or someone else's log
    /// rejects with `ENOTREGULAR` naming it; a missing one with `ENOENT`).
    /// The log is read up to its size when opened, whole lines only: a torn
    /// last line is left out (`tornBytes`), and so is a line that is not a
    /// valid entry (`notEntries`). Each entry's text is masked (the built-in
    /// patterns, `<private>` spans and `maskPatterns`): an entry masking
    /// changes is written as the store writes entries (`masked`), every
    /// other line byte for byte. `format: 'jsonl'` (default): the lines;
    /// `'md'`: a heading per day (UTC), each entry's time, role and failed
    /// status, its text in a code fence longer than any backtick run in it.
    /// `since` (inclusive) and `until` (exclusive, after `since`) keep the
    /// entries whose `ts` falls between (a line with no readable time is
    /// then left out: `notEntries`). With `out`, written to
    /// that file: a temp file beside it (0600), synced, renamed over it; an
    /// existing `out` that is not a regular file (a symlink, a FIFO), or an
    /// `out` in the chat's own folder, is refused with `ENOTREGULAR`;
    /// without `out`, the bytes are `data`.
    #[napi(catch_unwind, ts_return_type = "Promise<ChatStoreExport>")]
    pub fn export_log<'scope>(
        env: Env,
        options: arg::ChatStoreExportOptions<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, ChatStoreExport>> {
        spawn(&env, || {
            let args = export_args(options.read("options")?)?;
            Ok(Job::new(
                move || match args.out {
                    Some(out) => {
                        let report =
                            archive::export_to_file(&args.chat, &args.options, &args.masker, &out)?;
                        Ok((report, Some(out), None))
                    }
                    None => {
                        let mut data = Vec::new();
                        let report = archive::export_log(
                            &args.chat,
                            &args.options,
                            &args.masker,
                            &mut data,
                        )?;
                        Ok((report, None, Some(data)))
                    }
                },
                |(report, out, data)| ChatStoreExport::new(report, out, data),
            ))
        })
    }

    /// `exportLog`, a chunk at a time, for an export of any size in bounded
    /// memory (the command line's `export` to stdout): the same options but
    /// `out`, the log opened and its size taken now; `next()` resolves to
    /// the next chunk (about 1 MiB, whole entries) or `null` once the export
    /// is whole, and `report` says what was read and written so far.
    #[napi(
        catch_unwind,
        ts_args_type = "options: Omit<ChatStoreExportOptions, 'out'>",
        ts_return_type = "Promise<ChatLogExport>"
    )]
    pub fn open_export<'scope>(
        env: Env,
        options: arg::ChatStoreExportOptions<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, ChatLogExport>> {
        spawn(&env, || {
            let args = export_args(options.read("options")?)?;
            if args.out.is_some() {
                return Err(crate::binding::Failure::Type(
                    "The \"options.out\" property of openExport must be undefined: the chunks are yours to write (exportLog writes a file)".into(),
                ));
            }
            Ok(Job::new(
                move || archive::Exporter::open(&args.chat, &args.options, args.masker),
                |exporter| ChatLogExport {
                    inner: std::sync::Arc::new(std::sync::Mutex::new(exporter)),
                },
            ))
        })
    }

    /// A consistent copy of one chat (`sessionKey`) or every chat folder of
    /// `stateDir` into `out`: a folder (0700, files 0600), or a tar file
    /// when `out` ends in `.tar`, with `manifest.json` (each chat's folder
    /// name; each file's size and SHA-256; the log's lines and valid
    /// entries). Safe while a gateway appends: each file is opened under the
    /// file rules and its size taken on the handle; the log is copied up to
    /// its last line break within that size (never a torn line), the other
    /// files whole. `out` is built under a temp name beside it and renamed
    /// into place; an existing `out` rejects with `EEXIST`, one directly in
    /// the state dir or a chat folder with `ENOTREGULAR`. Without `apply:
    /// true` a dry run: everything read and hashed, nothing written. A chat
    /// folder or file the rules refuse is left out and listed in `refused`.
    #[napi(catch_unwind, ts_return_type = "Promise<ChatStoreBackup>")]
    pub fn backup<'scope>(
        env: Env,
        options: arg::ChatStoreBackupOptions<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, ChatStoreBackup>> {
        spawn(&env, || {
            let options = backup_args(options.read("options")?)?;
            Ok(Job::new(move || archive::backup(&options), Into::into))
        })
    }

    /// Verifies `path`: a backup (a `.tar` file, or a folder holding
    /// `manifest.json`) against its manifest (every file's size, SHA-256,
    /// the log's entries and a torn end; a chat or file missing; an extra
    /// one; anything not a regular file), or a state dir (each chat folder
    /// as `inspectFolder` sees it, then its log read whole: a torn last line,
    /// lines that are not valid entries). Each problem names its path;
    /// `problems` is empty when clean. Rejects only when `path` cannot be
    /// looked at (missing, not a file or folder).
    #[napi(catch_unwind, ts_return_type = "Promise<ChatStoreVerification>")]
    pub fn verify<'scope>(
        env: Env,
        path: arg::PathBuf<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, ChatStoreVerification>> {
        spawn(&env, || {
            let path = path.read("path")?;
            Ok(Job::new(move || archive::verify(&path), Into::into))
        })
    }

    /// Removes entries from a chat's log (`{ log }` or `{ stateDir,
    /// sessionKey }`) and every file derived from it: those whose `id` is
    /// `id` (a string or an array of them), whose `ts` is before `before`
    /// (exclusive; ISO-8601 or epoch ms; no readable time: kept), or that
    /// hold the text `match` literally (case and all; a line that is not a
    /// valid entry too). The log is rewritten through a temp file and a
    /// rename under the folder's exclusive lock (appends wait for it, none is
    /// lost); the continuity summary, the last prompt's copy and the search
    /// index are removed (rebuilt from the log at the next turn or search);
    /// the strings of `memory-state.json` that hold a forgotten text lose it;
    /// the folder's temp files are removed. Without `apply: true` a dry run:
    /// nothing is written, created or locked.
    #[napi(catch_unwind, ts_return_type = "Promise<ChatStoreForget>")]
    pub fn forget_in<'scope>(
        env: Env,
        options: arg::ChatStoreForgetOptions<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, ChatStoreForget>> {
        spawn(&env, || {
            let args = forget_in_args(options.read("options")?)?;
            Ok(Job::new(
                move || archive::forget(&args.chat, &args.rule, args.apply, &args.masker),
                Into::into,
            ))
        })
    }

    /// `ChatStore.forgetIn` on this chat's log: `{ id, before, match,
    /// apply }` (the plugin's `retentionDays`).
    #[napi(catch_unwind, ts_return_type = "Promise<ChatStoreForget>")]
    pub fn forget<'scope>(
        &self,
        env: Env,
        options: arg::ChatStoreForgetRule<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, ChatStoreForget>> {
        let store = self.inner.clone();
        spawn(&env, || {
            let (rule, apply) = forget_args(options.read("options")?)?;
            Ok(Job::new(move || store.forget(&rule, apply), Into::into))
        })
    }

    /// Backfills a chat's log (`{ log }` or `{ stateDir, sessionKey }`,
    /// created when missing) from `fromExport` (an export of this package:
    /// every line must be a valid entry, else the file is refused naming
    /// the line) or `fromOpenclaw` (OpenClaw's transcript: JSON Lines
    /// `files` with their session ids, and `events` read from its SQLite
    /// store; user and assistant messages, a stored injected prompt reduced
    /// to its live message). Every line enters as the store's appends do:
    /// masked (the built-in patterns, `<private>` spans, `maskPatterns`;
    /// `masked` counts those it changed) and cut to the log's 8 MiB line cap
    /// (`cut`); a line this leaves as it was is imported byte for byte. Entries are
    /// keyed (`id`, else time, role and a hash of the text): one the log
    /// holds is not imported again. Into an empty log they are written in
    /// their order; into one with entries, merged in time order. Under the
    /// folder's exclusive lock, through a temp file renamed over the log;
    /// the search index removed. Without `apply: true` a dry run.
    #[napi(catch_unwind, ts_return_type = "Promise<ChatStoreImport>")]
    pub fn import_log<'scope>(
        env: Env,
        options: arg::ChatStoreImportOptions<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, ChatStoreImport>> {
        spawn(&env, || {
            let options = import_args(options.read("options")?)?;
            Ok(Job::new(move || archive::import(&options), Into::into))
        })
    }

    /// Puts a backup (`from`: a folder holding `manifest.json`, or a `.tar`
    /// that `backup` wrote) back into `stateDir`. The backup is verified
    /// first, by the rule the restore reads it by (names, types, duplicate
    /// members, each chat's files after its folder): with any problem
    /// nothing is restored or created (`problems`). The log's lines enter as
    /// the store's appends do: masked (`maskPatterns` too; `maskedLines`). Each chat
    /// folder it lists is created (0700, files 0600) when missing; an
    /// existing one is replaced only when its log has no line the backup
    /// lacks (else `refused`, unless `force`), and is `unchanged` when its
    /// log is the backup's already. Each chat under its folder's exclusive
    /// lock; each file through a temp file renamed over it, the log last;
    /// the search index removed. Without `apply: true` a dry run: nothing
    /// written, created or locked.
    #[napi(catch_unwind, ts_return_type = "Promise<ChatStoreRestore>")]
    pub fn restore<'scope>(
        env: Env,
        options: arg::ChatStoreRestoreOptions<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, ChatStoreRestore>> {
        spawn(&env, || {
            let options = restore_args(options.read("options")?)?;
            Ok(Job::new(move || archive::restore(&options), Into::into))
        })
    }

    /// The chat folder's path.
    #[napi(getter)]
    pub fn folder(&self) -> String {
        self.inner.folder().to_string_lossy().into_owned()
    }

    /// `perpetual-log.jsonl` in it.
    #[napi(getter)]
    pub fn log_path(&self) -> String {
        self.inner.log_path().to_string_lossy().into_owned()
    }

    /// The continuity summary in it.
    #[napi(getter)]
    pub fn summary_path(&self) -> String {
        self.inner.summary_path().to_string_lossy().into_owned()
    }

    /// `last-injected-preprompt.txt` in it.
    #[napi(getter)]
    pub fn last_prompt_path(&self) -> String {
        self.inner.last_prompt_path().to_string_lossy().into_owned()
    }

    /// `memory-state.json` in it (the memory script's; read, never written).
    #[napi(getter)]
    pub fn memory_state_path(&self) -> String {
        self.inner
            .memory_state_path()
            .to_string_lossy()
            .into_owned()
    }

    /// The earlier release's folder that `open` renamed to this one, if it did.
    #[napi(getter)]
    pub fn migrated_from(&self) -> Option<String> {
        self.inner
            .migrated_from()
            .map(|path| path.to_string_lossy().into_owned())
    }

    /// The names of the temp files of dead processes that `open` removed.
    #[napi(getter)]
    pub fn removed_temp_files(&self) -> Vec<String> {
        self.inner.removed_temp_files().to_vec()
    }

    /// Appends `entry` to the log as one JSON line (`ts`, `role`, `text`,
    /// `session`, `status`, `id`, as `JSON.stringify` writes them): one
    /// write of one buffer on an append-only handle, a line break first when
    /// the log ends with a torn line, then `fdatasync` (unless
    /// `options.sync` is `false`) and the folder's fsync when the log was
    /// created. A failed write is truncated back to the size before it: a
    /// full disk leaves no partial line (not on Windows, where an
    /// append-only handle cannot truncate).
    #[napi(catch_unwind, ts_return_type = "Promise<ChatStoreAppendResult>")]
    pub fn append_entry<'scope>(
        &self,
        env: Env,
        entry: arg::PersistentChatLogEntry<'scope>,
        options: Option<arg::ChatStoreAppendOptions<'scope>>,
    ) -> napi::Result<PromiseRaw<'scope, ChatStoreAppendResult>> {
        let store = self.inner.clone();
        spawn(&env, || {
            let (entry, durable) = append_args(entry, options)?;
            Ok(Job::new(
                move || store.append_entry(&entry, durable),
                Into::into,
            ))
        })
    }

    /// Replaces the continuity summary with `text` (UTF-8): a private temp
    /// file in the folder, then a rename over the name.
    #[napi(catch_unwind, ts_return_type = "Promise<void>")]
    pub fn replace_summary<'scope>(
        &self,
        env: Env,
        text: arg::Utf16String<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, ()>> {
        let store = self.inner.clone();
        spawn(&env, || {
            let text = text.read("text")?;
            Ok(Job::new(move || store.replace_summary(&text), |()| ()))
        })
    }

    /// Replaces `last-injected-preprompt.txt` with `text`, as `replaceSummary`.
    #[napi(catch_unwind, ts_return_type = "Promise<void>")]
    pub fn replace_last_prompt<'scope>(
        &self,
        env: Env,
        text: arg::Utf16String<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, ()>> {
        let store = self.inner.clone();
        spawn(&env, || {
            let text = text.read("text")?;
            Ok(Job::new(move || store.replace_last_prompt(&text), |()| ()))
        })
    }

    /// The log's last `limit` entries, oldest first (as
    /// `readPersistentChatLogEntries` reads them; a log not written yet is `[]`).
    #[napi(catch_unwind, ts_return_type = "Promise<PersistentChatLogEntry[]>")]
    pub fn read_entries<'scope>(
        &self,
        env: Env,
        limit: arg::Number<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, Vec<PersistentChatLogEntry>>> {
        let store = self.inner.clone();
        spawn(&env, || {
            let limit = count(limit.js(), "limit")?;
            Ok(Job::new(
                move || Ok(store.read_entries(limit)?.entries),
                |entries| entries.into_iter().map(Into::into).collect(),
            ))
        })
    }

    /// A turn's log window (the last `limit` entries) and the reload
    /// decision: a turn is a reload unless `currentSession` (the backend
    /// session the turn goes to) has an entry in the window.
    #[napi(catch_unwind, ts_return_type = "Promise<ChatStoreTurnWindow>")]
    pub fn read_turn_window<'scope>(
        &self,
        env: Env,
        limit: arg::Number<'scope>,
        current_session: Option<arg::Utf16String<'scope>>,
    ) -> napi::Result<PromiseRaw<'scope, ChatStoreTurnWindow>> {
        let store = self.inner.clone();
        spawn(&env, || {
            let limit = count(limit.js(), "limit")?;
            let current = current_session
                .map(|session| session.read("currentSession"))
                .transpose()?;
            Ok(Job::new(
                move || store.read_turn_window(limit, current.as_deref()),
                |(tail, reload)| ChatStoreTurnWindow {
                    entries: tail.entries.into_iter().map(Into::into).collect(),
                    reload,
                    skipped_lines: u32::try_from(tail.skipped_lines).unwrap_or(u32::MAX),
                },
            ))
        })
    }

    /// `rebuildPersistentChatContinuitySummary` over this chat: the memory
    /// state is the folder's `memory-state.json` (read under the file
    /// rules), the entries `params.entries` or the log's last 200.
    #[napi(catch_unwind, ts_return_type = "Promise<string>")]
    pub fn rebuild_summary<'scope>(
        &self,
        env: Env,
        params: Option<arg::ChatStoreSummaryParams<'scope>>,
    ) -> napi::Result<PromiseRaw<'scope, Utf16String>> {
        let store = self.inner.clone();
        spawn(&env, || {
            let args = summary_args(params)?;
            Ok(Job::new(
                move || {
                    let entries = match args.entries {
                        Some(entries) => entries,
                        None => store.read_entries(SUMMARY_LOG_ENTRIES)?.entries,
                    };
                    SummaryRequest {
                        entries: Some(entries),
                        state: Some(store.read_memory_state()?),
                        current_session: args.current_session,
                        now_ms: args.now_ms,
                        max_chars: args.max_chars,
                        ..SummaryRequest::default()
                    }
                    .rebuild()
                },
                Into::into,
            ))
        })
    }

    /// `searchPersistentChatLog` over this chat's log: the best
    /// `options.limit` entries (default 10, 1–100) for `query`, best first,
    /// each an excerpt of at most `options.excerptChars` (default 600); the
    /// query's time words read at `options.now` (default the clock) in
    /// `options.timeZone` (default UTC). The
    /// index is a file of the folder (`perpetual-log.jsonl.search-index`),
    /// opened and replaced under the store's rules; a chat with no log yet
    /// gives `[]`.
    #[napi(catch_unwind, ts_return_type = "Promise<PersistentChatLogHit[]>")]
    pub fn search<'scope>(
        &self,
        env: Env,
        query: arg::Utf16String<'scope>,
        options: Option<arg::ChatStoreSearchOptions<'scope>>,
    ) -> napi::Result<PromiseRaw<'scope, Vec<PersistentChatLogHit>>> {
        let store = self.inner.clone();
        spawn(&env, || {
            let query = query.read("query")?;
            let options = store_search_options(options)?;
            Ok(Job::new(
                move || store.search(&query, &options),
                |hits| hits.into_iter().map(Into::into).collect(),
            ))
        })
    }

    /// `readPersistentChatLogWindow` over this chat's log: the entries
    /// around `at` (`{ id | line, before, after }`), oldest first; a chat
    /// with no log yet gives `[]`.
    #[napi(
        catch_unwind,
        ts_return_type = "Promise<PersistentChatLogWindowEntry[]>"
    )]
    pub fn read_window<'scope>(
        &self,
        env: Env,
        at: arg::PersistentChatWindowAt<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, Vec<PersistentChatLogWindowEntry>>> {
        let store = self.inner.clone();
        spawn(&env, || {
            let window = window_at(at)?;
            Ok(Job::new(
                move || store.read_window(&window),
                |entries| entries.into_iter().map(Into::into).collect(),
            ))
        })
    }

    /// Brings the chat's search index up to its log's end (built, extended
    /// and written, as a search would), on the thread pool: what a turn's
    /// recall left for later (`prepareTurn`'s `indexBehind`). A chat with
    /// no log: nothing.
    #[napi(catch_unwind, ts_return_type = "Promise<void>")]
    pub fn warm_index<'scope>(&self, env: Env) -> napi::Result<PromiseRaw<'scope, ()>> {
        let store = self.inner.clone();
        spawn(&env, || Ok(Job::new(move || store.warm_index(), |()| ())))
    }

    /// Whether this folder's chat is `sessionKey`'s, for a folder several
    /// keys could name (the runtime's `PERSISTENT_CHAT_CONTINUITY_PATH`
    /// files): the first key to claim it owns it for good (a file
    /// `session-key-owner` in it, created exclusively, holding the owner's
    /// folder name); every other key gets `false`.
    #[napi(catch_unwind, ts_return_type = "Promise<boolean>")]
    pub fn claim_for_key<'scope>(
        &self,
        env: Env,
        session_key: arg::Utf16String<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, bool>> {
        let store = self.inner.clone();
        spawn(&env, || {
            let key = session_key.read("sessionKey")?;
            Ok(Job::new(move || store.claim_for_key(&key), |owns| owns))
        })
    }

    /// A turn's prompt from the chat's files, in one call on the thread
    /// pool: the last `params.window` entries (default 50) and the reload
    /// decision (as `readTurnWindow`), each entry masked again as it is
    /// read; on a reload the summary rebuilt (as `rebuildSummary`, budget
    /// `params.summaryMaxChars`), masked and stored, and (fenced, with
    /// `params.recallEntries` not 0) the log searched for the live message
    /// (its time words read at the turn's time `params.now`, default the
    /// clock, in `params.timeZone`, default UTC), the hits read again from
    /// the log and masked, for the recall block;
    /// the prompt built (as `buildPersistentChatInjectedPromptReport`, with
    /// the builder's other params); `last-injected-preprompt.txt` replaced
    /// with it (cut at `params.lastPromptMaxChars`). `reload`, `logEntries`,
    /// `logPath`, `continuitySummary` and `recalledEntries` come from the
    /// folder: given, each is a `TypeError`. Resolves to the report and
    /// `reload`.
    #[napi(
        catch_unwind,
        ts_args_type = "params: Omit<InjectedPromptParams, 'reload' | 'logEntries' | 'logPath' | 'continuitySummary' | 'recalledEntries'> & ChatStoreTurnFiles",
        ts_return_type = "Promise<ChatStorePreparedTurn>"
    )]
    pub fn prepare_turn<'scope>(
        &self,
        env: Env,
        params: Unknown<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, ChatStorePreparedTurn>> {
        let store = self.inner.clone();
        spawn(&env, || {
            let (request, files) = turn_params(Js::from(params))?;
            Ok(Job::new(
                move || store.prepare_turn(request, &files),
                |prepared| ChatStorePreparedTurn {
                    reload: prepared.reload,
                    refresh: prepared.refresh,
                    previous_session: prepared.previous_session.map(Utf16String::from),
                    index_behind: prepared.index_behind,
                    report: prepared.report.into(),
                },
            ))
        })
    }

    /// Marks a compaction of the backend session `session` (`signal` names
    /// what showed it: letters, digits and `_`, at most 32): the next
    /// `prepareTurn` to that session with a `refreshEntryId` is a refresh.
    /// The mark is a file of the folder (`refresh-pending.json`), replaced
    /// whole and synced: it survives a restart or a power cut. A mark
    /// already there is replaced. Resolves to the mark's id.
    #[napi(catch_unwind, ts_return_type = "Promise<string>")]
    pub fn mark_refresh<'scope>(
        &self,
        env: Env,
        session: arg::Utf16String<'scope>,
        signal: arg::Utf16String<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, String>> {
        let store = self.inner.clone();
        spawn(&env, || {
            let session = session.read("session")?;
            let signal = String::from_utf16_lossy(&signal.read("signal")?);
            Ok(Job::new(
                move || store.mark_refresh(&session, &signal),
                |id| id,
            ))
        })
    }

    /// Removes the refresh mark if it is still `id` (a later mark stays).
    /// Resolves to whether it did. A tidy-up: the turn's user entry with the
    /// mark's `turn` id consumes it already.
    #[napi(catch_unwind, ts_return_type = "Promise<boolean>")]
    pub fn clear_refresh<'scope>(
        &self,
        env: Env,
        id: arg::Utf16String<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, bool>> {
        let store = self.inner.clone();
        spawn(&env, || {
            let id = String::from_utf16_lossy(&id.read("id")?);
            Ok(Job::new(
                move || store.clear_refresh(&id),
                |cleared| cleared,
            ))
        })
    }

    /// Records the context size (`usage_update.used`) that `session`
    /// reported in a turn (its last report). When the same session
    /// reported more than twice as much before, its context was compacted:
    /// a refresh is marked (`markRefresh`, signal `usage_drop`) and its id
    /// is `mark` in the result. `used` must be a finite number `>= 0`.
    #[napi(catch_unwind, ts_return_type = "Promise<ChatStoreUsageNote>")]
    pub fn note_usage<'scope>(
        &self,
        env: Env,
        session: arg::Utf16String<'scope>,
        used: arg::Number<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, ChatStoreUsageNote>> {
        let store = self.inner.clone();
        spawn(&env, || {
            let session = session.read("session")?;
            let used = used.read("used")?;
            Ok(Job::new(
                move || store.note_usage(&session, used),
                |note| ChatStoreUsageNote {
                    previous: note.previous,
                    mark: note.mark,
                },
            ))
        })
    }

    /// Records what identifies OpenClaw's session row of the chat (`row`:
    /// its id and start time, as the caller renders them) in the folder
    /// (`openclaw-session.json`, written and synced only when it changed),
    /// and resolves to the one recorded before (`undefined` at the chat's
    /// first call): a row started anew since the last turn is a session the
    /// user (or the gateway's reset policy) started.
    #[napi(catch_unwind, ts_return_type = "Promise<string | undefined>")]
    pub fn note_session_row<'scope>(
        &self,
        env: Env,
        row: arg::Utf16String<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, Option<Utf16String>>> {
        let store = self.inner.clone();
        spawn(&env, || {
            let row = row.read("row")?;
            Ok(Job::new(
                move || store.note_session_row(&row),
                |previous| previous.map(Utf16String::from),
            ))
        })
    }

    /// `ChatStore.inspectFolder` of this chat's folder.
    #[napi(catch_unwind, ts_return_type = "Promise<ChatStoreInspection>")]
    pub fn inspect<'scope>(
        &self,
        env: Env,
        options: Option<arg::ChatStoreInspectOptions<'scope>>,
    ) -> napi::Result<PromiseRaw<'scope, ChatStoreInspection>> {
        let store = self.inner.clone();
        spawn(&env, || {
            let (_, window) = inspect_options(options)?;
            Ok(Job::new(move || Ok(store.inspect(window)), Into::into))
        })
    }
}

/// `ChatStoreInspectOptions`: `summaryFile`, `entries` (the window).
fn inspect_options(
    options: Option<arg::ChatStoreInspectOptions>,
) -> Result<(Option<String>, usize), crate::binding::Failure> {
    let Some(options) = options.map(|options| options.read("options")).transpose()? else {
        return Ok((None, INSPECT_WINDOW));
    };
    let window = match options.entries {
        Some(entries) => count_of(entries, "options.entries")?,
        None => INSPECT_WINDOW,
    };
    let summary_file = options
        .summary_file
        .map(|name| name.to_string_lossy().into_owned());
    Ok((summary_file, window))
}

/// What `ChatStore#noteUsage` resolves to.
#[napi(object, object_from_js = false)]
pub struct ChatStoreUsageNote {
    /// The size the same session reported last, if any.
    pub previous: Option<f64>,
    /// It dropped by more than half: the refresh mark's id.
    pub mark: Option<String>,
}

/// What `ChatStore#prepareTurn` resolves to.
#[napi(object, object_from_js = false)]
pub struct ChatStorePreparedTurn {
    /// The prompt and what the builder did, as
    /// `buildPersistentChatInjectedPromptReport` returns it.
    pub report: PersistentChatPromptReport,
    /// Whether the turn is a reload (no entry of `currentSession` in the
    /// window).
    pub reload: bool,
    /// The turn restates the summary and the last entries because its
    /// backend session compacted (`params.refreshEntryId` given and a mark
    /// pending): the mark's id, for `clearRefresh` once the turn's user
    /// entry (with that id) is appended. Absent otherwise.
    pub refresh: Option<String>,
    /// On a reload: the newest backend session named by an entry of the
    /// window (the chat had one before this turn's). Absent on a continuous
    /// turn or a refresh, and on a reload of a chat whose entries name no
    /// session (its first turn, an import).
    #[napi(ts_type = "string")]
    pub previous_session: Option<Utf16String>,
    /// The reload recalled nothing because the chat's search index lags its
    /// log by more than 4 MiB (its first reload after an import or an
    /// upgrade, with a large log), its index file is larger than 32 MiB
    /// (its first reload in a new process), or it is in use by another call:
    /// `warmIndex()` after the turn lets the next reload recall.
    pub index_behind: bool,
}

/// An export read a chunk at a time, made by `ChatStore.openExport`.
#[napi]
pub struct ChatLogExport {
    inner: std::sync::Arc<std::sync::Mutex<archive::Exporter>>,
}

/// A chunk of an export: about this many bytes (whole entries).
const EXPORT_CHUNK_BYTES: usize = 1 << 18;

#[napi]
impl ChatLogExport {
    /// The next chunk of the export (about 1 MiB of whole entries), read and
    /// masked on the thread pool; `null` once the export is whole.
    #[napi(catch_unwind, ts_return_type = "Promise<Buffer | null>")]
    pub fn next<'scope>(
        &self,
        env: Env,
    ) -> napi::Result<PromiseRaw<'scope, Option<napi::bindgen_prelude::Buffer>>> {
        let inner = self.inner.clone();
        spawn(&env, || {
            Ok(Job::new(
                move || {
                    let mut exporter = inner.lock().unwrap_or_else(|e| e.into_inner());
                    let mut chunk = Vec::with_capacity(EXPORT_CHUNK_BYTES + (1 << 16));
                    let more = exporter.fill(&mut chunk, EXPORT_CHUNK_BYTES)?;
                    Ok((!chunk.is_empty() || more).then_some(chunk))
                },
                |chunk| chunk.map(Into::into),
            ))
        })
    }

    /// Writes what is left of the export to the file descriptor `fd` (the
    /// command line's stdout, `1`) on the thread pool, a chunk at a time
    /// from one buffer: memory stays bounded whatever the export's size. A
    /// full non-blocking pipe is waited on; a reader that closed it rejects
    /// with code `EPIPE`. The descriptor is not closed. Unix only (elsewhere
    /// a `TypeError`: use `next()`).
    #[napi(catch_unwind, ts_return_type = "Promise<void>")]
    pub fn write_to<'scope>(
        &self,
        env: Env,
        fd: arg::Number<'scope>,
    ) -> napi::Result<PromiseRaw<'scope, ()>> {
        let inner = self.inner.clone();
        spawn(&env, || {
            let fd = crate::binding::search::integer(fd.js(), "fd", 1, 0, i32::MAX as u64)? as i32;
            #[cfg(not(unix))]
            {
                let _ = (fd, inner);
                Err::<Job<(), ()>, _>(crate::binding::Failure::Type(
                    "writeTo needs a POSIX file descriptor; use next() on this platform".into(),
                ))
            }
            #[cfg(unix)]
            Ok(Job::new(
                move || {
                    let mut exporter = inner.lock().unwrap_or_else(|e| e.into_inner());
                    archive::write_to_fd(&mut exporter, fd)
                },
                |()| (),
            ))
        })
    }

    /// What the export read and wrote so far (all of it once `next()`
    /// resolved to `null`), as `exportLog` reports it, without `out` and
    /// `data`.
    #[napi(getter)]
    pub fn report(&self) -> ChatStoreExport {
        let exporter = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        ChatStoreExport::new(exporter.report().clone(), None, None)
    }
}

/// `ChatStore.workProgress()`'s bytes.
#[napi(object, object_from_js = false)]
pub struct WorkProgress {
    pub done: f64,
    pub total: f64,
}
