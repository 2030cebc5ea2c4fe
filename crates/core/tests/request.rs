//! The builders' input policy through the core's public API: data wins
//! over a path, a missing file is the first run, the clock is the default
//! now, the JS rules for budgets and counts.

mod support;

use openclaw_context_core::persistent_chat::log::Timestamp;
use openclaw_context_core::persistent_chat::request::{PromptRequest, SummaryRequest};
use openclaw_context_core::persistent_chat::state::{MemoryState, Timer};
use openclaw_context_core::utf16::encode as u;
use support::TempDir;

#[test]
fn the_clock_is_the_default_now() {
    let request = |now_ms| SummaryRequest {
        state: Some(MemoryState {
            timers: vec![Timer {
                name: u("t"),
                status: u("pending"),
                due: Some(Timestamp::Number(1e12)),
            }],
            ..MemoryState::default()
        }),
        now_ms,
        ..SummaryRequest::default()
    };
    // Due in 2001: overdue by the clock, pending a year before it.
    let by_clock = String::from_utf16(&request(None).rebuild().unwrap()).unwrap();
    assert!(by_clock.contains("overdue"), "{by_clock}");
    let before = String::from_utf16(&request(Some(1e12 - 3.2e10)).rebuild().unwrap()).unwrap();
    assert!(!before.contains("overdue"), "{before}");
}

#[test]
fn a_log_path_is_read_unless_entries_are_given_and_a_missing_file_is_empty() {
    let dir = TempDir::new("request");
    let log_path = dir.file(
        "log.jsonl",
        b"{\"role\":\"user\",\"text\":\"from the file\"}\ngarbage\n",
    );
    let request = PromptRequest {
        user_message: u("live"),
        reload: true,
        log_path: Some(log_path.clone()),
        ..PromptRequest::default()
    };
    let report = request.clone().build().unwrap();
    assert!(String::from_utf16(&report.prompt)
        .unwrap()
        .contains("from the file"));
    assert_eq!(report.skipped_log_lines, 1);
    let given = PromptRequest {
        log_entries: Some(Vec::new()),
        ..request.clone()
    };
    assert_eq!(given.build().unwrap().entries_injected, 0);
    let missing = PromptRequest {
        log_path: Some(dir.0.join("none.jsonl")),
        ..request
    };
    assert_eq!(
        String::from_utf16(&missing.build().unwrap().prompt).unwrap(),
        "--- LIVE TURN ---\nlive"
    );
    let not_a_file = SummaryRequest {
        state_path: Some(dir.0.clone()),
        ..SummaryRequest::default()
    };
    assert_eq!(not_a_file.rebuild().unwrap_err().code(), "ENOTREGULAR");
}

#[test]
fn budgets_and_counts_take_js_numbers() {
    let request = |max_chars, reload_entries| PromptRequest {
        user_message: u("live"),
        reload: true,
        log_entries: Some(Vec::new()),
        continuity_summary: Some(u("Current thread / pending next action:\n- a")),
        max_chars,
        reload_entries,
        ..PromptRequest::default()
    };
    let full = request(None, None).build().unwrap();
    for no_cap in [Some(f64::NAN), Some(0.0), Some(-1.0), Some(f64::INFINITY)] {
        assert_eq!(request(no_cap, None).build().unwrap(), full, "{no_cap:?}");
    }
    assert!(request(Some(20.0), None).build().unwrap().summary_trimmed);
    assert_eq!(request(None, Some(f64::NAN)).build().unwrap(), full);
}
