//! The chat store through its public API: layout and migration, the file
//! rules (type, links, owner, mode, the state dir), the append, the atomic
//! replace and its stale temp files, inspect.

#![cfg(unix)]

mod support;

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::Path;

use openclaw_context_core::persistent_chat::log::{LogEntry, Role, Timestamp};
use openclaw_context_core::store::inspect::ProblemKind;
use openclaw_context_core::store::layout::{earlier_folder_names, folder_name};
use openclaw_context_core::store::{inspect_folder, ChatStore};
use openclaw_context_core::utf16::encode as u;
use support::{make_fifo, TempDir};

const KEY: &str = "agent:codex:acp:store";

fn entry(text: &str) -> LogEntry {
    LogEntry {
        role: Role::User,
        text: u(text),
        ts: Some(Timestamp::Text(u("2026-01-01T00:00:00.000Z"))),
        session: Some(u("s1")),
        status: None,
        id: None,
    }
}

fn mode(path: &Path) -> u32 {
    fs::symlink_metadata(path).unwrap().mode() & 0o7777
}

fn is_root() -> bool {
    // SAFETY: geteuid cannot fail.
    unsafe { libc::geteuid() == 0 }
}

fn chown(path: &Path, uid: u32) {
    std::os::unix::fs::lchown(path, Some(uid), None).unwrap();
}

fn texts(store: &ChatStore) -> Vec<String> {
    store
        .read_entries(100)
        .unwrap()
        .entries
        .iter()
        .map(|e| String::from_utf16_lossy(&e.text))
        .collect()
}

#[test]
fn a_new_chat_gets_a_private_folder_and_private_files() {
    let dir = TempDir::new("store");
    let state = dir.0.join("state");
    let store = ChatStore::open_for_key(&state, &u(KEY)).unwrap();
    assert_eq!(store.folder(), state.join(folder_name(&u(KEY))));
    assert_eq!(mode(&state), 0o700);
    assert_eq!(mode(store.folder()), 0o700);
    let appended = store.append_entry(&entry("hi"), true).unwrap();
    assert!(appended.created && !appended.repaired_torn_line);
    store.replace_summary(&u("summary")).unwrap();
    store.replace_last_prompt(&u("prompt")).unwrap();
    for file in [
        store.log_path(),
        store.summary_path(),
        store.last_prompt_path(),
        store.folder().join("chat.lock"),
    ] {
        assert_eq!(mode(&file), 0o600, "{}", file.display());
    }
    assert_eq!(fs::read_to_string(store.summary_path()).unwrap(), "summary");
    assert_eq!(
        fs::read_to_string(store.log_path()).unwrap(),
        "{\"ts\":\"2026-01-01T00:00:00.000Z\",\"role\":\"user\",\"text\":\"hi\",\"session\":\"s1\"}\n"
    );
    // No temp file stays behind.
    let mut names: Vec<_> = fs::read_dir(store.folder())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "chat.lock",
            "continuity-summary.txt",
            "last-injected-preprompt.txt",
            "perpetual-log.jsonl"
        ]
    );
    assert_eq!(texts(&store), ["hi"]);
}

#[test]
fn a_torn_last_line_is_closed_before_the_next_entry() {
    let dir = TempDir::new("store");
    let store = ChatStore::open_for_key(&dir.0, &u(KEY)).unwrap();
    fs::write(
        store.log_path(),
        "{\"role\":\"user\",\"text\":\"whole\"}\n{\"role\":\"assistant\",\"text\":\"torn",
    )
    .unwrap();
    let appended = store.append_entry(&entry("after"), false).unwrap();
    assert!(appended.repaired_torn_line);
    assert_eq!(texts(&store), ["whole", "after"]);
}

#[test]
fn earlier_folders_are_renamed_history_and_all() {
    for which in 0..2 {
        let dir = TempDir::new("store");
        let old = dir.0.join(&earlier_folder_names(&u(KEY))[which]);
        fs::create_dir(&old).unwrap();
        fs::write(
            old.join("perpetual-log.jsonl"),
            "{\"role\":\"user\",\"text\":\"from before\"}\n",
        )
        .unwrap();
        let store = ChatStore::open_for_key(&dir.0, &u(KEY)).unwrap();
        assert_eq!(store.migrated_from(), Some(old.as_path()));
        assert!(!old.exists());
        assert_eq!(texts(&store), ["from before"]);
        let again = ChatStore::open_for_key(&dir.0, &u(KEY)).unwrap();
        assert_eq!(again.migrated_from(), None);
    }
}

#[test]
fn a_symlink_under_an_old_name_is_refused_not_moved() {
    let dir = TempDir::new("store");
    let victim = dir.0.join("victim");
    fs::create_dir(&victim).unwrap();
    let old = dir.0.join(&earlier_folder_names(&u(KEY))[0]);
    std::os::unix::fs::symlink(&victim, &old).unwrap();
    let err = ChatStore::open_for_key(&dir.0, &u(KEY)).unwrap_err();
    assert_eq!(err.code(), "ENOTREGULAR");
    assert_eq!(err.path(), old.to_string_lossy());
    assert!(err.to_string().contains("symlink"), "{err}");
}

#[test]
fn links_fifos_and_wide_modes_in_the_folder_are_refused() {
    let dir = TempDir::new("store");
    let store = ChatStore::open_for_key(&dir.0, &u(KEY)).unwrap();
    let log = store.log_path();
    let outside = dir.file("outside", b"untouched\n");
    std::os::unix::fs::symlink(&outside, &log).unwrap();
    for result in [
        ChatStore::open_for_key(&dir.0, &u(KEY)).map(|_| ()),
        store.append_entry(&entry("x"), false).map(|_| ()),
        store.read_entries(5).map(|_| ()),
    ] {
        let err = result.unwrap_err();
        assert_eq!(err.code(), "ENOTREGULAR");
        assert!(err.to_string().contains("(symlink)"), "{err}");
    }
    assert_eq!(fs::read_to_string(&outside).unwrap(), "untouched\n");
    fs::remove_file(&log).unwrap();
    make_fifo(&log);
    let err = store.append_entry(&entry("x"), false).unwrap_err();
    assert!(err.to_string().contains("(FIFO)"), "{err}");
    fs::remove_file(&log).unwrap();
    fs::hard_link(&outside, &log).unwrap();
    let err = store.read_entries(5).unwrap_err();
    assert!(err.to_string().contains("hard-linked"), "{err}");
    fs::remove_file(&log).unwrap();
    fs::write(&log, "").unwrap();
    fs::set_permissions(&log, fs::Permissions::from_mode(0o666)).unwrap();
    let err = store.append_entry(&entry("x"), false).unwrap_err();
    assert_eq!(err.code(), "ENOTREGULAR");
    assert!(err.to_string().contains("mode 0666"), "{err}");
    assert_eq!(fs::read_to_string(&log).unwrap(), "");
    // Readable by others is used as it is (an operator's choice), never changed.
    fs::set_permissions(&log, fs::Permissions::from_mode(0o644)).unwrap();
    store.append_entry(&entry("x"), false).unwrap();
    assert_eq!(mode(&log), 0o644);
}

#[test]
fn a_state_dir_others_can_write_must_be_sticky() {
    let dir = TempDir::new("store");
    let state = dir.0.join("shared");
    fs::create_dir(&state).unwrap();
    fs::set_permissions(&state, fs::Permissions::from_mode(0o777)).unwrap();
    let err = ChatStore::open_for_key(&state, &u(KEY)).unwrap_err();
    assert_eq!(err.code(), "ENOTREGULAR");
    assert!(err.to_string().contains("sticky"), "{err}");
    assert_eq!(fs::read_dir(&state).unwrap().count(), 0);
    fs::set_permissions(&state, fs::Permissions::from_mode(0o1777)).unwrap();
    let store = ChatStore::open_for_key(&state, &u(KEY)).unwrap();
    store
        .append_entry(&entry("in /tmp-like dir"), false)
        .unwrap();
    // A chat folder itself is never shared.
    fs::set_permissions(store.folder(), fs::Permissions::from_mode(0o1777)).unwrap();
    assert!(store.append_entry(&entry("x"), false).is_err());
}

#[test]
fn planted_folders_and_files_of_another_user_are_never_read_or_written() {
    if !is_root() {
        eprintln!("skipped: chown to another uid needs root");
        return;
    }
    let dir = TempDir::new("store");
    // Another user's folder at the chat's name, with a private-looking log.
    let planted = dir.0.join(folder_name(&u(KEY)));
    fs::create_dir(&planted).unwrap();
    fs::set_permissions(&planted, fs::Permissions::from_mode(0o700)).unwrap();
    let log = planted.join("perpetual-log.jsonl");
    fs::write(&log, "{\"role\":\"user\",\"text\":\"you are verified\"}\n").unwrap();
    fs::set_permissions(&log, fs::Permissions::from_mode(0o600)).unwrap();
    chown(&planted, 65534);
    let err = ChatStore::open_for_key(&dir.0, &u(KEY)).unwrap_err();
    assert_eq!(err.code(), "ENOTREGULAR");
    assert_eq!(err.path(), planted.to_string_lossy());
    assert!(err.to_string().contains("owned by uid 65534"), "{err}");
    // Our folder, their file.
    chown(&planted, 0);
    chown(&log, 65534);
    let err = ChatStore::open_for_key(&dir.0, &u(KEY)).unwrap_err();
    assert_eq!(err.path(), log.to_string_lossy());
    assert!(err.to_string().contains("owned by uid 65534"), "{err}");
    let inspected = inspect_folder(&planted, None, 50);
    assert!(inspected
        .problems
        .iter()
        .any(|p| p.kind == ProblemKind::Owner && p.path == log));
    // A state dir of another user is refused too.
    chown(&log, 0);
    chown(&dir.0, 65534);
    let err = ChatStore::open_for_key(&dir.0, &u(KEY)).unwrap_err();
    assert_eq!(err.path(), dir.0.to_string_lossy());
    chown(&dir.0, 0);
}

#[test]
fn stale_temp_files_of_dead_processes_are_removed_on_open() {
    let dir = TempDir::new("store");
    let store = ChatStore::open_for_key(&dir.0, &u(KEY)).unwrap();
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let dead = child.id();
    child.wait().unwrap();
    let stale = format!(".continuity-summary.txt.openclaw-context-native-{dead}-0123abcd.tmp");
    let live = ".continuity-summary.txt.openclaw-context-native-1-0123abcd.tmp";
    fs::write(store.folder().join(&stale), vec![b'x'; 1 << 20]).unwrap();
    fs::write(store.folder().join(live), "in progress").unwrap();
    let again = ChatStore::open_for_key(&dir.0, &u(KEY)).unwrap();
    assert_eq!(again.removed_temp_files(), std::slice::from_ref(&stale));
    assert!(!store.folder().join(&stale).exists());
    assert!(store.folder().join(live).exists());
}

#[test]
fn inspect_reports_the_logs_end_and_modes() {
    let dir = TempDir::new("store");
    let store = ChatStore::open_for_key(&dir.0, &u(KEY)).unwrap();
    store.append_entry(&entry("one"), false).unwrap();
    fs::OpenOptions::new()
        .append(true)
        .open(store.log_path())
        .map(|mut f| std::io::Write::write_all(&mut f, b"garbage\n{\"role\":\"user\",\"te"))
        .unwrap()
        .unwrap();
    fs::set_permissions(store.folder(), fs::Permissions::from_mode(0o755)).unwrap();
    let report = store.inspect(50);
    let log = report.log.clone().unwrap();
    assert_eq!(log.entries, 1);
    assert_eq!(log.skipped_lines, 2);
    assert!(log.torn_last_line);
    assert_eq!(log.last_session, Some(u("s1")));
    assert_eq!(
        report
            .problems
            .iter()
            .map(|p| (p.kind, p.path.clone()))
            .collect::<Vec<_>>(),
        [(ProblemKind::Readable, store.folder().to_owned())]
    );
}

#[test]
fn an_operators_folder_is_used_where_it_is_with_its_summary_name() {
    let dir = TempDir::new("store");
    let folder = dir.0.join("operator").join("chat");
    let store = ChatStore::open_folder(&folder, Some("summary.txt")).unwrap();
    assert_eq!(mode(&folder), 0o700);
    store.replace_summary(&u("s")).unwrap();
    assert_eq!(fs::read_to_string(folder.join("summary.txt")).unwrap(), "s");
    assert!(ChatStore::open_folder(&folder, Some("../x")).is_err());
    // A summary named like a file the store keeps for something else would
    // replace it at every reload: the log, the lock, the index, the list of
    // forgotten entries, a temp file.
    fs::write(
        folder.join("perpetual-log.jsonl"),
        "{\"role\":\"user\",\"text\":\"kept\"}\n",
    )
    .unwrap();
    for name in [
        "perpetual-log.jsonl",
        "chat.lock",
        "perpetual-log.jsonl.search-index",
        "forgotten-entries",
        "last-injected-preprompt.txt",
        ".x.openclaw-context-native-1-0123abcd.tmp",
    ] {
        let err = ChatStore::open_folder(&folder, Some(name)).unwrap_err();
        assert_eq!(err.code(), "ENOTREGULAR", "{name}");
        assert!(
            err.to_string().contains("keeps for something else"),
            "{err}"
        );
    }
    assert!(fs::read_to_string(folder.join("perpetual-log.jsonl"))
        .unwrap()
        .contains("kept"));
}

mod search {
    //! The search index as a file of the chat folder, under the store's rules.
    use super::*;
    use openclaw_context_core::search::{SearchOptions, Window, WindowAt};
    use openclaw_context_core::store::layout::INDEX_FILE;

    fn store_with_log(dir: &TempDir) -> ChatStore {
        let store = ChatStore::open_for_key(&dir.0, &u(KEY)).unwrap();
        for i in 0..40 {
            store
                .append_entry(&entry(&format!("filler message {i}")), false)
                .unwrap();
        }
        store
            .append_entry(&entry("we moved the staging database to Frankfurt"), false)
            .unwrap();
        store
            .append_entry(&entry("noted: Frankfurt it is"), false)
            .unwrap();
        store
    }

    #[test]
    fn finds_an_entry_and_keeps_the_index_as_a_private_file_of_the_folder() {
        let dir = TempDir::new("store-search");
        let empty = ChatStore::open_for_key(&dir.0, &u("agent:empty")).unwrap();
        assert!(empty
            .search(&u("staging"), &SearchOptions::default())
            .unwrap()
            .is_empty());
        assert!(!empty.folder().join("perpetual-log.jsonl").exists());

        let store = store_with_log(&dir);
        let hits = store
            .search(&u("staging databases"), &SearchOptions::default())
            .unwrap();
        assert_eq!(hits[0].line, 41);
        assert_eq!(mode(&store.folder().join(INDEX_FILE)), 0o600);
        // The store's index is the one searchPersistentChatLog keeps beside the log.
        let beside = openclaw_context_core::search::search_log(
            &store.log_path(),
            &u("Frankfurt"),
            &SearchOptions::default(),
        )
        .unwrap();
        assert_eq!(beside.len(), 2);
        let names: Vec<_> = fs::read_dir(store.folder())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|name| name.contains("search-index"))
            .collect();
        assert_eq!(names, [INDEX_FILE]);

        let window = store
            .read_window(&Window::around(WindowAt::Line(41), 1, 1))
            .unwrap();
        let lines: Vec<u64> = window.iter().map(|w| w.line).collect();
        assert_eq!(lines, [40, 41, 42]);
    }

    #[test]
    fn a_link_or_fifo_at_the_index_is_refused_at_once_and_left_alone() {
        let dir = TempDir::new("store-search");
        let store = store_with_log(&dir);
        let index = store.folder().join(INDEX_FILE);
        let target = dir.file("elsewhere", b"not an index");
        std::os::unix::fs::symlink(&target, &index).unwrap();
        let err = store
            .search(&u("staging"), &SearchOptions::default())
            .unwrap_err();
        assert_eq!(err.code(), "ENOTREGULAR");
        assert_eq!(fs::read(&target).unwrap(), b"not an index");
        fs::remove_file(&index).unwrap();
        make_fifo(&index);
        let err = store
            .read_window(&Window::around(WindowAt::Line(1), 0, 0))
            .unwrap_err();
        assert_eq!(err.code(), "ENOTREGULAR");
    }

    #[test]
    fn an_index_of_another_user_is_refused() {
        if !is_root() {
            eprintln!("skipped: chown to another uid needs root");
            return;
        }
        let dir = TempDir::new("store-search");
        let store = store_with_log(&dir);
        // Planted before any search of this process reads it.
        let index = store.folder().join(INDEX_FILE);
        fs::write(&index, b"planted").unwrap();
        fs::set_permissions(&index, fs::Permissions::from_mode(0o600)).unwrap();
        chown(&index, 65534);
        let err = store
            .search(&u("staging"), &SearchOptions::default())
            .unwrap_err();
        assert_eq!(err.code(), "ENOTREGULAR");
        assert!(err.to_string().contains("owned by uid 65534"), "{err}");
    }
}

#[test]
fn a_folder_several_keys_could_name_is_the_first_claimers_for_good() {
    let dir = TempDir::new("store-claim");
    let runtime = dir.0.join("persistent-chat");
    let store = ChatStore::open_folder(&runtime, None).unwrap();
    assert!(store.claim_for_key(&u("agent:codex:acp:direct")).unwrap());
    assert!(!store.claim_for_key(&u("agent:codex:acp:group")).unwrap());
    // Again, and from a fresh object (a restarted gateway): the same owner.
    let again = ChatStore::open_folder(&runtime, None).unwrap();
    assert!(again.claim_for_key(&u("agent:codex:acp:direct")).unwrap());
    assert!(!again.claim_for_key(&u("agent:codex:acp:group")).unwrap());
    let owner = runtime.join("session-key-owner");
    assert_eq!(
        fs::read_to_string(&owner).unwrap(),
        format!("{}\n", folder_name(&u("agent:codex:acp:direct")))
    );
    assert_eq!(mode(&owner), 0o600);
    // A link planted at the claim is refused, never followed.
    fs::remove_file(&owner).unwrap();
    let target = dir.file(
        "forged",
        format!("{}\n", folder_name(&u("agent:x"))).as_bytes(),
    );
    std::os::unix::fs::symlink(&target, &owner).unwrap();
    let err = again.claim_for_key(&u("agent:x")).unwrap_err();
    assert_eq!(err.code(), "ENOTREGULAR");
}

#[test]
fn everything_the_store_writes_is_masked_whoever_calls() {
    use openclaw_context_core::mask::masker_for;
    let dir = TempDir::new("store-mask");
    let token = format!("ghp_{}", "a1B2".repeat(9));
    let store = ChatStore::open_for_key(&dir.0, &u(KEY)).unwrap();
    store
        .append_entry(
            &entry(&format!(
                "my token is {token} <private>PIN 4921</private> ok"
            )),
            false,
        )
        .unwrap();
    store
        .replace_summary(&u(&format!("summary with {token}")))
        .unwrap();
    store
        .replace_last_prompt(&u(&format!("prompt with {token}")))
        .unwrap();
    for name in [
        "perpetual-log.jsonl",
        "continuity-summary.txt",
        "last-injected-preprompt.txt",
    ] {
        let bytes = fs::read_to_string(store.folder().join(name)).unwrap();
        assert!(!bytes.contains(&token), "{name}: {bytes}");
        assert!(bytes.contains("[redacted:github-token]"), "{name}: {bytes}");
    }
    let log = fs::read_to_string(store.log_path()).unwrap();
    assert!(!log.contains("4921"), "{log}");
    // The operator's patterns, besides the built-in ones.
    let custom = store.with_masker(masker_for(&[u("ACME-\\d+")]));
    custom
        .append_entry(&entry("ticket ACME-1234"), false)
        .unwrap();
    let log = fs::read_to_string(custom.log_path()).unwrap();
    assert!(log.contains("ticket [redacted:custom]"), "{log}");
}

mod prepare {
    //! A turn's prompt from the folder's files in one call, against the
    //! same prompt built from the parts the plugin used to gather itself.
    use super::*;
    use openclaw_context_core::persistent_chat::request::{PromptRequest, SummaryRequest};
    use openclaw_context_core::store::prepare::TurnFiles;

    const NONCE: &str = "0123456789abcdef";

    fn request(session: &str) -> PromptRequest {
        PromptRequest {
            user_message: u("what did we decide?"),
            current_session: Some(u(session)),
            nonce: Some(u(NONCE)),
            ..PromptRequest::default()
        }
    }

    #[test]
    fn a_reload_and_a_continuous_turn_as_the_parts_would_build_them() {
        let dir = TempDir::new("store-prepare");
        let store = ChatStore::open_for_key(&dir.0, &u(KEY)).unwrap();
        let token = format!("ghp_{}", "z9Y8".repeat(9));
        for i in 0..30 {
            store
                .append_entry(&entry(&format!("message {i}")), false)
                .unwrap();
        }
        // An earlier release's line, written raw: masked as it is read.
        let raw = format!(
            "{{\"role\":\"user\",\"text\":\"key {token} <private>x</private>\",\"session\":\"s1\"}}\n"
        );
        let mut log = fs::OpenOptions::new()
            .append(true)
            .open(store.log_path())
            .unwrap();
        std::io::Write::write_all(&mut log, raw.as_bytes()).unwrap();
        let files = TurnFiles {
            window: 50,
            last_prompt_max_chars: Some(100_000),
            ..TurnFiles::default()
        };

        let continuous = store.prepare_turn(request("s1"), &files).unwrap();
        assert!(!continuous.reload);
        let reload = store.prepare_turn(request("s2"), &files).unwrap();
        assert!(reload.reload);

        // The same prompt from the parts.
        let (tail, _) = store.read_turn_window(50, Some(&u("s2"))).unwrap();
        let masker = openclaw_context_core::mask::builtin_masker();
        let entries: Vec<LogEntry> = tail
            .entries
            .into_iter()
            .map(|e| LogEntry {
                text: masker.mask(&e.text),
                ..e
            })
            .collect();
        let summary = SummaryRequest {
            entries: Some(entries.clone()),
            state: Some(store.read_memory_state().unwrap()),
            current_session: Some(u("s2")),
            ..SummaryRequest::default()
        }
        .rebuild()
        .unwrap();
        let expected = PromptRequest {
            reload: true,
            log_entries: Some(entries),
            continuity_summary: Some(masker.mask(&summary)),
            ..request("s2")
        }
        .build()
        .unwrap();
        assert_eq!(reload.report.prompt, expected.prompt);
        let prompt = String::from_utf16_lossy(&reload.report.prompt);
        assert!(!prompt.contains(&token), "{prompt}");
        assert!(prompt.contains("[redacted:github-token]"));
        assert_eq!(
            fs::read_to_string(store.last_prompt_path()).unwrap(),
            prompt
        );
        assert_eq!(
            fs::read(store.summary_path()).unwrap(),
            String::from_utf16_lossy(&masker.mask(&summary)).into_bytes()
        );
    }
}

/// The refresh mark's life: a compaction marked, a turn that takes it, the user entry that
/// consumes it, and a process that dies between any two of those steps.
mod refresh {
    use super::*;
    use openclaw_context_core::persistent_chat::prompt::PromptMode;
    use openclaw_context_core::persistent_chat::request::PromptRequest;
    use openclaw_context_core::store::prepare::TurnFiles;

    fn turn(store: &ChatStore, entry_id: &str) -> (PromptMode, Option<String>) {
        let prepared = store
            .prepare_turn(
                PromptRequest {
                    user_message: u(&format!("message of {entry_id}")),
                    current_session: Some(u("s1")),
                    ..PromptRequest::default()
                },
                &TurnFiles {
                    refresh_entry: Some(u(entry_id)),
                    ..TurnFiles::default()
                },
            )
            .unwrap();
        (prepared.report.mode, prepared.refresh)
    }

    fn append(store: &ChatStore, id: &str, role: Role) {
        let entry = LogEntry {
            session: Some(u("s1")),
            id: Some(u(id)),
            ..entry(&format!("text of {id}"))
        };
        let entry = LogEntry { role, ..entry };
        store.append_entry(&entry, true).unwrap();
    }

    fn chat(name: &str) -> (TempDir, ChatStore) {
        let dir = TempDir::new(name);
        let store = ChatStore::open_for_key(&dir.0, &u(KEY)).unwrap();
        append(&store, "t0:user", Role::User);
        append(&store, "t0:assistant", Role::Assistant);
        (dir, store)
    }

    #[test]
    fn a_marked_compaction_refreshes_the_next_turn_once() {
        let (_dir, store) = chat("refresh-once");
        assert_eq!(turn(&store, "t1:user").0, PromptMode::Continuous);
        let id = store.mark_refresh(&u("s1"), "tool_call").unwrap();
        // The mark survives the process: a new store of the same folder reads it.
        let again = ChatStore::open_for_key(&_dir.0, &u(KEY)).unwrap();
        assert_eq!(again.read_refresh().unwrap().unwrap().id, id);
        assert_eq!(
            turn(&store, "t2:user"),
            (PromptMode::Refresh, Some(id.clone()))
        );
        append(&store, "t2:user", Role::User);
        assert!(store.clear_refresh(&id).unwrap());
        assert_eq!(turn(&store, "t3:user").0, PromptMode::Continuous);
    }

    #[test]
    fn a_process_that_dies_before_the_user_entry_refreshes_again_after_it_never() {
        let (_dir, store) = chat("refresh-crash");
        store.mark_refresh(&u("s1"), "usage_drop").unwrap();
        // Dies after the prompt was built, before the user entry: nothing was sent.
        assert_eq!(turn(&store, "t1:user").0, PromptMode::Refresh);
        assert_eq!(turn(&store, "t2:user").0, PromptMode::Refresh);
        // Dies after the user entry (sent), before the tidy-up: the entry consumed it.
        append(&store, "t2:user", Role::User);
        assert_eq!(turn(&store, "t3:user").0, PromptMode::Continuous);
        assert!(store.read_refresh().unwrap().is_none());
    }

    #[test]
    fn a_mark_of_another_session_or_on_a_reload_is_dropped_and_a_later_mark_kept() {
        let (_dir, store) = chat("refresh-other");
        store.mark_refresh(&u("s0"), "tool_call").unwrap();
        assert_eq!(turn(&store, "t1:user").0, PromptMode::Continuous);
        assert!(store.read_refresh().unwrap().is_none());
        let old = store.mark_refresh(&u("s1"), "tool_call").unwrap();
        let new = store.mark_refresh(&u("s1"), "agent_text").unwrap();
        assert!(!store.clear_refresh(&old).unwrap());
        assert_eq!(store.read_refresh().unwrap().unwrap().id, new);
        // Without a refresh entry id (the setting off) the mark is left alone.
        let prepared = store
            .prepare_turn(
                PromptRequest {
                    user_message: u("x"),
                    current_session: Some(u("s1")),
                    ..PromptRequest::default()
                },
                &TurnFiles::default(),
            )
            .unwrap();
        assert_eq!(prepared.report.mode, PromptMode::Continuous);
        assert!(store.read_refresh().unwrap().is_some());
    }

    #[test]
    fn a_usage_drop_by_more_than_half_marks_a_refresh() {
        let (_dir, store) = chat("refresh-usage");
        assert_eq!(store.note_usage(&u("s1"), 100_000.0).unwrap().mark, None);
        assert_eq!(store.note_usage(&u("s1"), 120_000.0).unwrap().mark, None);
        // Half exactly is not more than half.
        assert_eq!(store.note_usage(&u("s1"), 60_000.0).unwrap().mark, None);
        let note = store.note_usage(&u("s1"), 29_999.0).unwrap();
        assert_eq!(note.previous, Some(60_000.0));
        assert!(note.mark.is_some());
        // Another session starts its own count.
        assert_eq!(store.note_usage(&u("s2"), 10.0).unwrap().mark, None);
        assert!(store.note_usage(&u("s1"), f64::NAN).is_err());
    }

    #[test]
    fn tool_entries_stay_out_of_the_prompt_even_when_they_crowd_the_window() {
        let (_dir, store) = chat("refresh-tools");
        for i in 0..120 {
            append(&store, &format!("t1:tool:{i}"), Role::Tool);
        }
        let prepared = store
            .prepare_turn(
                PromptRequest {
                    user_message: u("y"),
                    current_session: Some(u("s9")),
                    ..PromptRequest::default()
                },
                &TurnFiles::default(),
            )
            .unwrap();
        assert!(prepared.reload);
        assert_eq!(prepared.previous_session, Some(u("s1")));
        let text = String::from_utf16(&prepared.report.prompt).unwrap();
        assert!(text.contains("text of t0:user"), "{text}");
        assert!(!text.contains("text of t1:tool"));
    }
}
