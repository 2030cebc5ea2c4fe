//! `forget` keeps what it promises: a removed text of any length leaves the
//! memory state, `ignore_case` folds case and accents (and a literal run
//! says what it would miss), neither an older backup nor an older export
//! brings a forgotten entry back without `force`, and a writer that takes
//! no lock loses no line to the rewrite.

#![cfg(unix)]

mod support;

use std::fs;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;

use openclaw_context_core::archive::{
    backup, forget, import, restore, BackupOptions, Chat, ForgetRule, ImportOptions, ImportSource,
    RestoreOptions,
};
use openclaw_context_core::mask::builtin_masker;
use openclaw_context_core::persistent_chat::log::parse_log_line;
use openclaw_context_core::store::layout::TOMBSTONE_FILE;
use openclaw_context_core::store::ChatStore;
use openclaw_context_core::utf16::encode as u;
use support::TempDir;

const KEY: &str = "agent:codex:acp:forget";

fn line(id: &str, role: &str, text: &str) -> String {
    format!("{{\"ts\":\"2026-02-01T10:00:00.000Z\",\"role\":\"{role}\",\"text\":\"{text}\",\"id\":\"{id}\"}}\n")
}

/// A state dir with the chat's log holding `lines`; the store.
fn chat(state: &Path, lines: &str) -> ChatStore {
    let store = ChatStore::open_for_key(state, &u(KEY)).unwrap();
    fs::write(store.log_path(), lines).unwrap();
    store
}

fn by_key(state: &Path) -> Chat {
    Chat::Key {
        state_dir: state.to_owned(),
        key: u(KEY),
    }
}

fn texts(store: &ChatStore) -> Vec<String> {
    fs::read_to_string(store.log_path())
        .unwrap()
        .lines()
        .filter_map(|l| parse_log_line(l.as_bytes()))
        .map(|e| String::from_utf16_lossy(&e.text))
        .collect()
}

#[test]
fn a_short_removed_text_leaves_the_memory_state_as_a_whole_word() {
    let dir = TempDir::new("forget-short");
    let store = chat(
        &dir.0,
        &(line("a", "user", "pin 4921") + &line("b", "assistant", "ok")),
    );
    fs::write(
        store.memory_state_path(),
        "{\"decisions\":[\"- pin 4921\",\"keep tokens\"],\"note\":\"it was ok then\"}",
    )
    .unwrap();
    let rule = ForgetRule {
        ids: vec![u("a"), u("b")],
        ..ForgetRule::default()
    };
    let report = forget(&by_key(&dir.0), &rule, true, &builtin_masker()).unwrap();
    assert_eq!((report.removed_lines, report.memory_state_strings), (2, 2));
    let state = fs::read_to_string(store.memory_state_path()).unwrap();
    assert_eq!(
        state,
        "{\"decisions\":[\"keep tokens\"],\"note\":\"it was [forgotten] then\"}\n"
    );
    // The next reload's summary is built from what is left.
    assert!(!state.contains("4921"));
}

#[test]
fn ignore_case_folds_case_and_accents_and_a_literal_run_says_what_it_misses() {
    let dir = TempDir::new("forget-case");
    let store = chat(
        &dir.0,
        &(line("a", "user", "My PIN is 4921")
            + &line("b", "assistant", "Noted: your pin is 4921")
            + &line("c", "user", "PÍN IS 4921, remember")
            + &line("d", "user", "unrelated")),
    );
    fs::write(
        store.memory_state_path(),
        "{\"notes\":[\"Pin Is 4921\",\"other\"]}",
    )
    .unwrap();
    let literal = ForgetRule {
        text: Some(u("PIN is 4921")),
        ..ForgetRule::default()
    };
    let dry = forget(&by_key(&dir.0), &literal, false, &builtin_masker()).unwrap();
    assert_eq!(dry.removed_lines, 1);
    assert_eq!(dry.missed_lines, 2);
    let missed: Vec<u64> = dry.missed_by_case.iter().map(|e| e.line).collect();
    assert_eq!(missed, [2, 3]);
    let folded = ForgetRule {
        ignore_case: true,
        ..literal
    };
    let done = forget(&by_key(&dir.0), &folded, true, &builtin_masker()).unwrap();
    assert_eq!((done.removed_lines, done.missed_lines), (3, 0));
    assert_eq!(texts(&store), ["unrelated"]);
    let state = fs::read_to_string(store.memory_state_path()).unwrap();
    assert_eq!(state, "{\"notes\":[\"other\"]}\n");
    for entry in fs::read_dir(store.folder()).unwrap() {
        let bytes = fs::read(entry.unwrap().path()).unwrap();
        let text = String::from_utf8_lossy(&bytes).to_lowercase();
        assert!(!text.contains("4921"), "{text}");
    }
}

#[test]
fn neither_an_older_backup_nor_an_older_export_brings_a_forgotten_entry_back() {
    let dir = TempDir::new("forget-tombstones");
    let state = dir.0.join("state");
    let lines = line("a", "user", "the pin is 4921")
        + &line("b", "assistant", "noted")
        + "{\"ts\":\"2026-02-01T10:01:00.000Z\",\"role\":\"user\",\"text\":\"no id, pin 4921 again\"}\n";
    let store = chat(&state, &lines);
    let old_backup = dir.0.join("before.tar");
    backup(&BackupOptions {
        state_dir: state.clone(),
        session_key: None,
        out: old_backup.clone(),
        apply: true,
    })
    .unwrap();
    let export = dir.0.join("export.jsonl");
    fs::write(&export, &lines).unwrap();

    let rule = ForgetRule {
        text: Some(u("4921")),
        ..ForgetRule::default()
    };
    let report = forget(&by_key(&state), &rule, true, &builtin_masker()).unwrap();
    assert_eq!(report.removed_lines, 2);
    let tombstones = fs::read_to_string(store.folder().join(TOMBSTONE_FILE)).unwrap();
    assert!(!tombstones.contains("4921") && !tombstones.contains("pin"));
    assert_eq!(texts(&store), ["noted"]);

    let import_options = |force| ImportOptions {
        chat: by_key(&state),
        source: ImportSource::Export(export.clone()),
        apply: true,
        masker: builtin_masker(),
        force,
    };
    let imported = import(&import_options(false)).unwrap();
    assert_eq!((imported.imported, imported.forgotten), (0, 2));
    assert_eq!(texts(&store), ["noted"]);

    let restore_options = |force| RestoreOptions {
        from: old_backup.clone(),
        state_dir: state.clone(),
        apply: true,
        force,
        masker: builtin_masker(),
    };
    let restored = restore(&restore_options(false)).unwrap();
    assert_eq!(restored.chats[0].forgotten, 2);
    assert_eq!(texts(&store), ["noted"]);
    // Forced, they come back.
    let imported = import(&import_options(true)).unwrap();
    assert_eq!((imported.imported, imported.forgotten), (2, 0));
    assert!(texts(&store).iter().any(|t| t.contains("4921")));
}

/// A writer that takes no lock, as an older runtime appends: the path
/// opened, one line written, closed, again and again.
/// At most [`MAX_APPENDED`] lines a round: enough to span the rewrite.
fn lockless_appender(log: PathBuf, stop: Arc<AtomicBool>, written: Arc<AtomicUsize>) {
    let mut n = 0usize;
    while (!stop.load(Ordering::SeqCst) || n < 200) && n < MAX_APPENDED {
        let mut file = fs::OpenOptions::new()
            .append(true)
            .create(true)
            .mode(0o600)
            .open(&log)
            .unwrap();
        file.write_all(line(&format!("w{n}"), "user", &format!("appended {n}")).as_bytes())
            .unwrap();
        drop(file);
        n += 1;
        written.store(n, Ordering::SeqCst);
        // Paced, so that it is still writing when the rewrite renames (the
        // pace decides nothing the test asserts).
        std::thread::sleep(std::time::Duration::from_micros(100));
    }
}

const MAX_APPENDED: usize = 400_000;

#[test]
fn a_writer_without_the_lock_loses_no_line_to_a_forget() {
    let dir = TempDir::new("forget-lockless");
    let mut lines = String::new();
    for n in 0..20_000 {
        let text = if n % 10 == 0 { "drop me" } else { "keep me" };
        lines.push_str(&line(&format!("m{n}"), "user", text));
    }
    let store = chat(&dir.0, &lines);
    let mut expected = 0usize;
    for round in 0..3 {
        let stop = Arc::new(AtomicBool::new(false));
        let written = Arc::new(AtomicUsize::new(0));
        let appender = {
            let (log, stop, written) = (store.log_path(), stop.clone(), written.clone());
            std::thread::spawn(move || lockless_appender(log, stop, written))
        };
        while written.load(Ordering::SeqCst) < 50 {
            std::thread::yield_now();
        }
        let rule = ForgetRule {
            text: Some(u(&format!("drop me {round}"))),
            ids: vec![u(&format!("m{}", round * 10))],
            ..ForgetRule::default()
        };
        let report = forget(&by_key(&dir.0), &rule, true, &builtin_masker()).unwrap();
        stop.store(true, Ordering::SeqCst);
        appender.join().unwrap();
        let total = written.load(Ordering::SeqCst);
        expected += total;
        let log = fs::read_to_string(store.log_path()).unwrap();
        let appended = log.matches("\"appended ").count();
        assert_eq!(
            appended, expected,
            "round {round}: the appender's lines all there"
        );
        assert!(
            !log.contains(&format!("\"id\":\"m{}\"", round * 10)),
            "round {round}: the entry removed"
        );
        eprintln!(
            "round {round}: {total} lines appended without the lock, {} carried after the rename",
            report.carried_lines
        );
    }
}
