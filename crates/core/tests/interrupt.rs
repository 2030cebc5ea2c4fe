//! A signal's cleanup (`remove_unfinished`, what the command line runs on
//! SIGINT) racing a backup that is being renamed into place: the backup is
//! whole or absent, never half-removed under the operator's name, no temp
//! stays, and nothing is begun after the cleanup. One test in its own
//! binary: the cleanup closes the process for temp files, as it does a
//! command that is ending.

#![cfg(unix)]

mod support;

use std::fs;
use std::path::Path;

use openclaw_context_core::archive::{
    backup, export_to_file, verify, BackupOptions, Chat, ExportOptions,
};
use openclaw_context_core::mask::builtin_masker;
use openclaw_context_core::store::replace::remove_unfinished;
use openclaw_context_core::store::ChatStore;
use openclaw_context_core::utf16::encode as u;
use support::TempDir;

const KEY: &str = "agent:codex:acp:interrupt";

fn temps_in(dir: &Path) -> Vec<String> {
    fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains(".openclaw-context-native-") && name.ends_with(".tmp"))
        .collect()
}

#[test]
fn a_backup_is_whole_or_absent_after_the_cleanup_and_nothing_is_begun_after_it() {
    let dir = TempDir::new("interrupt");
    let state = dir.0.join("state");
    let store = ChatStore::open_for_key(&state, &u(KEY)).unwrap();
    let line = |i: usize| {
        format!(
            "{{\"role\":\"user\",\"text\":\"entry {i} {}\",\"ts\":\"2026-01-01T00:00:00Z\"}}\n",
            "lorem ipsum ".repeat(20)
        )
    };
    fs::write(store.log_path(), (0..40_000).map(line).collect::<String>()).unwrap();
    let outputs = dir.0.join("outputs");
    fs::create_dir(&outputs).unwrap();
    let out = outputs.join("backup");
    let options = BackupOptions {
        state_dir: state.clone(),
        session_key: None,
        out: out.clone(),
        apply: true,
    };
    let worker = std::thread::spawn(move || backup(&options));
    // The cleanup once the backup has begun writing: a condition, not a delay.
    while temps_in(&outputs).is_empty() && !worker.is_finished() {
        std::thread::yield_now();
    }
    let removed = remove_unfinished();
    let result = worker.join().unwrap();

    assert_eq!(temps_in(&outputs), Vec::<String>::new());
    // Renamed before the cleanup (whole, kept) or refused after it: never between.
    assert_eq!(
        out.exists(),
        result.is_ok(),
        "{result:?}, removed {removed:?}"
    );
    if result.is_ok() {
        assert!(verify(&out).unwrap().problems.is_empty());
    }

    // After the cleanup, an output is never begun.
    let export = outputs.join("chat.jsonl");
    let chat = Chat::Key {
        state_dir: state,
        key: u(KEY),
    };
    let err =
        export_to_file(&chat, &ExportOptions::default(), &builtin_masker(), &export).unwrap_err();
    assert_eq!(err.code(), "EINTR");
    assert!(!export.exists());
    assert_eq!(temps_in(&outputs), Vec::<String>::new());
}
