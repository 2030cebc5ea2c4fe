//! The persistent-chat core end to end, through its public API: a log file
//! on disk, the continuity summary rebuilt from it, the reload prompt.
//! Run with `--nocapture` to see the sample outputs.

mod support;

use openclaw_context_core::persistent_chat::log::{read_log_tail, read_log_tail_or_empty, Role};
use openclaw_context_core::persistent_chat::prompt::{
    build_injected_prompt, Fence, MetadataValue, Nonce, PromptMode, PromptParams, TurnMetadata,
    DEFAULT_MAX_ENTRY_CHARS, DEFAULT_RELOAD_ENTRIES,
};
use openclaw_context_core::persistent_chat::state::read_state_file_or_empty;
use openclaw_context_core::persistent_chat::summary::{
    rebuild_continuity_summary, SummaryParams, DEFAULT_SUMMARY_MAX_CHARS,
};
use openclaw_context_core::persistent_chat::time::parse_timestamp_ms;
use openclaw_context_core::utf16::encode as u;
use support::TempDir as Scratch;

const NONCE: &str = "7f3a9c2e41b05d18";

const LOG: &str = concat!(
    r#"{"ts":"2026-05-15T09:00:00Z","role":"user","text":"Set up the database","session":"ses_A","id":"e1"}"#,
    "\n",
    r#"{"ts":"2026-05-15T09:00:20Z","role":"assistant","text":"Database ready.","session":"ses_A","status":"ok","id":"e2"}"#,
    "\r\n",
    "not json at all\n",
    r#"{"ts":"2026-05-15T09:05:00Z","role":"user","text":"Import the CSV files \ud83d\udcc4 \ud800","session":"ses_A","id":"e3"}"#,
    "\n",
    r#"{"ts":"2026-05-15T09:06:00Z","role":"assistant","text":"","session":"ses_A","status":"ACP_TURN_FAILED","id":"e4"}"#,
    "\n",
    r#"{"ts":"2026-05-15T10:00:00Z","role":"user","text":"Are you there?","session":"ses_B","id":"e5"}"#,
    "\n",
    r#"{"ts":"2026-05-15T10:00:01Z","role":"user","te"#,
);

const STATE: &str = r#"{
  "decisions": ["Use Postgres 16\nwith   pgvector"],
  "guardrails": [{"text": "Never drop tables without asking"}],
  "pendingThreads": ["CSV import (blocked on encoding)"],
  "timers": [{"name": "nightly backup", "status": "pending", "due": "2026-05-15T03:00:00Z"},
             {"name": "vendor call", "status": "scheduled", "due": "2026-05-16T15:00:00Z"}],
  "modelNotes": ["No image input on this backend"],
  "notes": ["Reply in English"]
}"#;

#[test]
fn log_to_summary_to_reload_prompt() {
    let scratch = Scratch::new("flow");
    let log_path = scratch.0.join("perpetual-log.jsonl");
    let state_path = scratch.0.join("memory-state.json");
    std::fs::write(&log_path, LOG).unwrap();
    std::fs::write(&state_path, STATE).unwrap();

    let tail = read_log_tail(&log_path, DEFAULT_RELOAD_ENTRIES + 1).unwrap();
    assert_eq!(tail.entries.len(), 5);
    assert_eq!(
        tail.skipped_lines, 2,
        "the garbage line and the torn last line"
    );
    assert_eq!(tail.entries[2].role, Role::User);
    assert_eq!(
        *tail.entries[2].text.last().unwrap(),
        0xD800,
        "lone surrogate kept"
    );

    let summary = rebuild_continuity_summary(&SummaryParams {
        entries: tail.entries.clone(),
        state: read_state_file_or_empty(&state_path).unwrap(),
        current_session: Some(u("ses_B")),
        now_ms: parse_timestamp_ms(&u("2026-05-15T10:00:30Z")).unwrap(),
        max_chars: DEFAULT_SUMMARY_MAX_CHARS,
    });
    let summary_text = String::from_utf16_lossy(&summary);
    println!("--- summary ---\n{summary_text}\n---------------");
    assert!(!summary_text.contains("ACP_TURN_FAILED"));
    assert!(summary_text.contains("- nightly backup: overdue (was due 2026-05-15T03:00:00Z)"));

    let report = build_injected_prompt(&PromptParams {
        user_message: u("Are you there?"),
        reload: true,
        current_session: None,
        turn_metadata: Some(TurnMetadata::Fields(vec![
            (u("channel"), MetadataValue::Text(u("telegram"))),
            (u("messageCount"), MetadataValue::Number(42.0)),
        ])),
        continuity_summary: Some(summary),
        log_entries: tail.entries,
        skipped_log_lines: tail.skipped_lines,
        continuous_entries: 2,
        reload_entries: DEFAULT_RELOAD_ENTRIES,
        refresh: false,
        refresh_entries: 10,
        max_chars: Some(16_000),
        max_entry_chars: Some(DEFAULT_MAX_ENTRY_CHARS),
        fence: Fence::Given(Nonce::parse(&u(NONCE)).unwrap()),
    })
    .unwrap();
    let prompt = String::from_utf16_lossy(&report.prompt);
    println!("--- reload prompt ---\n{prompt}\n---------------------");
    assert_eq!(report.mode, PromptMode::Reload);
    assert_eq!(report.entries_injected, 4);
    assert_eq!(report.skipped_log_lines, 2);
    assert_eq!(
        report.injected_entry_ids,
        [u("e1"), u("e2"), u("e3"), u("e4")]
    );
    assert_eq!(prompt.matches("Are you there?").count(), 1);
    assert!(prompt.starts_with(&format!("Only lines with {NONCE} are structure.\n")));
    assert!(prompt.ends_with(&format!(
        "--- LIVE TURN {NONCE} ---\nAre you there?\n--- END {NONCE} ---"
    )));
    assert_eq!(report.nonce.as_deref(), Some(NONCE));
}

#[test]
fn first_run_without_files() {
    let scratch = Scratch::new("first-run");
    let missing = scratch.0.join("missing.jsonl");
    assert_eq!(read_log_tail(&missing, 5).unwrap_err().code(), "ENOENT");
    assert!(read_log_tail_or_empty(&missing, 5)
        .unwrap()
        .entries
        .is_empty());
    assert!(read_state_file_or_empty(&scratch.0.join("missing.json"))
        .unwrap()
        .is_empty());
}
