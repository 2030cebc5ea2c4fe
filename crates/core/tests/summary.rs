//! `rebuildPersistentChatContinuitySummary` through the core's public API:
//! the format, the latest status rule, timers against now, the budget.

mod support;

use openclaw_context_core::persistent_chat::log::{LogEntry, Role, Timestamp};
use openclaw_context_core::persistent_chat::state::{MemoryState, Timer};
use openclaw_context_core::persistent_chat::summary::*;
use openclaw_context_core::utf16::encode as u;
// An entry with only a role and a text.
use support::bare_entry as entry;

const NOW: f64 = 1_778_839_200_000.0; // 2026-05-15T10:00:00Z

fn reply(text: &str, status: &str, session: &str) -> LogEntry {
    LogEntry {
        status: Some(u(status)),
        session: Some(u(session)),
        ..entry(Role::Assistant, text)
    }
}

fn params(entries: Vec<LogEntry>, state: MemoryState) -> SummaryParams {
    SummaryParams {
        entries,
        state,
        current_session: Some(u("ses_B")),
        now_ms: NOW,
        max_chars: DEFAULT_SUMMARY_MAX_CHARS,
    }
}

fn summary(params: &SummaryParams) -> String {
    String::from_utf16(&rebuild_continuity_summary(params)).unwrap()
}

fn texts(items: &[&str]) -> Vec<Vec<u16>> {
    items.iter().map(|item| u(item)).collect()
}

fn status_line(params: &SummaryParams) -> String {
    summary(params).lines().nth(2).unwrap().to_owned()
}

fn full_state() -> MemoryState {
    MemoryState {
        decisions: texts(&["Use Postgres\n  for   storage", "Ship on Friday"]),
        guardrails: texts(&["Never force-push main"]),
        pending_threads: texts(&["Migrate users table"]),
        timers: vec![
            Timer {
                name: u("standup"),
                status: u("pending"),
                due: Some(Timestamp::Text(u("2026-05-15T09:00:00Z"))),
            },
            Timer {
                name: u("deploy"),
                status: u("scheduled"),
                due: Some(Timestamp::Text(u("2026-05-16T09:00:00Z"))),
            },
            Timer {
                name: u("ping"),
                status: u("pending"),
                due: Some(Timestamp::Number(NOW - 5_000.0)),
            },
            Timer {
                name: u("backup"),
                status: u("done"),
                due: Some(Timestamp::Text(u("2026-05-14T09:00:00Z"))),
            },
        ],
        model_notes: texts(&["No image input"]),
        notes: texts(&["Reply in French"]),
    }
}

#[test]
fn full_format_in_order_with_blank_lines() {
    let entries = vec![
        entry(Role::User, "Deploy the\nstaging build"),
        reply("Deployed.", "ok", "ses_B"),
    ];
    let expected = "Current thread / pending next action:\n\
- Latest user request: Deploy the staging build\n\
- Latest assistant status: ok\n\
- Actionable notes: Reply in French\n\
\n\
Active decisions and guardrails:\n\
- Use Postgres for storage\n\
- Ship on Friday\n\
- Never force-push main\n\
\n\
Pending threads / open topics:\n\
- Migrate users table\n\
\n\
Timer status:\n\
- standup: overdue (was due 2026-05-15T09:00:00Z)\n\
- deploy: scheduled (due 2026-05-16T09:00:00Z)\n\
- ping: due now (due 2026-05-15T09:59:55.000Z)\n\
- backup: done (due 2026-05-14T09:00:00Z)\n\
\n\
Model capability notes:\n\
- No image input";
    assert_eq!(summary(&params(entries, full_state())), expected);
}

#[test]
fn empty_sections_are_left_out_except_the_first() {
    let out = summary(&params(vec![], MemoryState::default()));
    assert_eq!(
        out,
        "Current thread / pending next action:\n- Latest user request: none yet\n- Latest assistant status: no turns yet"
    );
    let state = MemoryState {
        model_notes: texts(&["x"]),
        ..MemoryState::default()
    };
    let out = summary(&params(vec![], state));
    assert!(
        out.ends_with("no turns yet\n\nModel capability notes:\n- x"),
        "{out}"
    );
}

#[test]
fn never_contains_a_transcript() {
    let entries: Vec<LogEntry> = (0..40)
        .flat_map(|n| {
            [
                entry(Role::User, &format!("question {n}")),
                reply(&format!("answer {n}"), "ok", "ses_B"),
            ]
        })
        .collect();
    let out = summary(&params(entries, full_state()));
    assert!(!out.contains("Recent log excerpt"));
    assert!(!out.contains("Recent conversation excerpt"));
    assert!(!out.contains("answer"));
    assert!(!out.contains("question 38"));
    assert!(out.contains("- Latest user request: question 39"));
}

#[test]
fn status_is_the_reply_to_the_newest_request_only() {
    let old_failure = vec![
        entry(Role::User, "first"),
        reply("boom", "ACP_TURN_FAILED", "ses_B"),
        entry(Role::User, "second"),
    ];
    assert_eq!(
        status_line(&params(old_failure.clone(), MemoryState::default())),
        "- Latest assistant status: awaiting reply to the latest request"
    );
    let mut answered = old_failure;
    answered.push(reply("fine", "ok", "ses_B"));
    assert_eq!(
        status_line(&params(answered, MemoryState::default())),
        "- Latest assistant status: ok"
    );
}

#[test]
fn a_current_session_failure_is_the_status() {
    let entries = vec![
        entry(Role::User, "go"),
        reply("", "ACP_TURN_FAILED", "ses_B"),
    ];
    assert_eq!(
        status_line(&params(entries, MemoryState::default())),
        "- Latest assistant status: ACP_TURN_FAILED"
    );
}

#[test]
fn a_failure_from_before_the_reload_is_dropped_and_its_request_stays_pending() {
    let entries = vec![
        entry(Role::User, "old question"),
        reply("answer", "ok", "ses_A"),
        entry(Role::User, "build the report"),
        reply("", "ACP_TURN_FAILED", "ses_A"),
    ];
    let out = summary(&params(entries, MemoryState::default()));
    assert!(!out.contains("ACP_TURN_FAILED"), "{out}");
    assert!(out.contains("- Latest user request: build the report"));
    assert!(out.contains("- Latest assistant status: awaiting reply to the latest request"));
    // An ok reply from the old session still answers its request.
    let entries = vec![entry(Role::User, "q"), reply("a", "ok", "ses_A")];
    assert_eq!(
        status_line(&params(entries, MemoryState::default())),
        "- Latest assistant status: ok"
    );
}

#[test]
fn without_a_current_session_failures_cannot_be_dated_and_show() {
    let entries = vec![
        entry(Role::User, "q"),
        reply("", "ACP_TURN_FAILED", "ses_A"),
    ];
    let mut p = params(entries, MemoryState::default());
    p.current_session = None;
    assert_eq!(
        status_line(&p),
        "- Latest assistant status: ACP_TURN_FAILED"
    );
}

#[test]
fn the_newest_reply_of_the_turn_wins_and_missing_status_is_said() {
    let entries = vec![
        entry(Role::User, "q"),
        reply("", "ACP_TURN_FAILED", "ses_B"),
        reply("retry worked", "ok", "ses_B"),
    ];
    assert_eq!(
        status_line(&params(entries, MemoryState::default())),
        "- Latest assistant status: ok"
    );
    let entries = vec![
        entry(Role::User, "q"),
        entry(Role::Assistant, "a"),
        entry(Role::Tool, "t"),
    ];
    assert_eq!(
        status_line(&params(entries, MemoryState::default())),
        "- Latest assistant status: replied (no status recorded)"
    );
}

#[test]
fn several_notes_become_an_indented_list() {
    let state = MemoryState {
        notes: texts(&["a", "b\nc", "a", "  "]),
        ..MemoryState::default()
    };
    let out = summary(&params(vec![], state));
    assert!(
        out.ends_with(
            "- Latest assistant status: no turns yet\n- Actionable notes:\n  - a\n  - b c"
        ),
        "{out}"
    );
}

#[test]
fn timers_whose_due_passed_are_never_pending() {
    let timers = vec![
        Timer {
            name: u("a"),
            status: u("pending"),
            due: Some(Timestamp::Number(1_778_839_100.0)),
        },
        Timer {
            name: u("b"),
            status: u("pending"),
            due: Some(Timestamp::Text(u("2026-05-15T10:00:00Z"))),
        },
        Timer {
            name: u("c"),
            status: u(""),
            due: Some(Timestamp::Text(u("next tuesday"))),
        },
        Timer {
            name: u("d"),
            status: u(""),
            due: None,
        },
        Timer {
            name: u(""),
            status: u("cancelled"),
            due: None,
        },
    ];
    let out = summary(&params(
        vec![],
        MemoryState {
            timers,
            ..MemoryState::default()
        },
    ));
    let timer_lines: Vec<&str> = out
        .split("Timer status:\n")
        .nth(1)
        .unwrap()
        .lines()
        .collect();
    assert_eq!(
        timer_lines,
        [
            "- a: overdue (was due 2026-05-15T09:58:20.000Z)",
            "- b: due now (due 2026-05-15T10:00:00Z)",
            "- c: pending (due next tuesday)",
            "- d: pending",
            "- (unnamed timer): cancelled",
        ]
    );
}

#[test]
fn long_requests_are_cut_at_a_grapheme_boundary() {
    let long = format!(
        "{}{}",
        "x".repeat(ITEM_MAX_CHARS - 2),
        "👨\u{200D}👩\u{200D}👧 tail"
    );
    let out = rebuild_continuity_summary(&params(
        vec![entry(Role::User, &long)],
        MemoryState::default(),
    ));
    let text = String::from_utf16(&out).unwrap();
    let request = text.lines().nth(1).unwrap();
    assert_eq!(
        request,
        format!(
            "- Latest user request: {}\u{2026}",
            "x".repeat(ITEM_MAX_CHARS - 2)
        )
    );
}

#[test]
fn lone_surrogates_survive() {
    let mut user = entry(Role::User, "a");
    user.text = vec![0x61, 0xD800, 0x0A, 0xDC00];
    let out = rebuild_continuity_summary(&params(vec![user], MemoryState::default()));
    let line = b"- Latest user request: a"
        .iter()
        .map(|&b| u16::from(b))
        .chain([0xD800, 0x20, 0xDC00]);
    assert!(out.windows(27).any(|w| w.iter().copied().eq(line.clone())));
}

#[test]
fn budget_shares_sections_and_counts_left_out_items() {
    let many: Vec<Vec<u16>> = (0..200)
        .map(|n| u(&format!("Decision {n}: keep the API stable for clients")))
        .collect();
    let state = MemoryState {
        decisions: many.clone(),
        pending_threads: many.clone(),
        model_notes: texts(&["short"]),
        ..MemoryState::default()
    };
    for max in [300, 1000, 6000] {
        let mut p = params(vec![entry(Role::User, "q")], state.clone());
        p.max_chars = max;
        let out = rebuild_continuity_summary(&p);
        assert!(out.len() <= max, "{max}: {}", out.len());
        let text = String::from_utf16(&out).unwrap();
        assert!(
            text.starts_with("Current thread / pending next action:\n- Latest user request: q\n")
        );
        assert!(
            text.contains("Active decisions and guardrails:\n- Decision 0:"),
            "{text}"
        );
        assert!(text.contains("Pending threads / open topics:\n- Decision 0:"));
        assert!(text.contains("Model capability notes:\n- short"));
        assert!(text.contains(" more)\n\nPending threads"), "{text}");
        assert!(text.ends_with("- short"));
    }
}

#[test]
fn deterministic_bytes() {
    let entries = vec![entry(Role::User, "q"), reply("a", "ok", "ses_B")];
    let first = rebuild_continuity_summary(&params(entries.clone(), full_state()));
    for _ in 0..5 {
        assert_eq!(
            rebuild_continuity_summary(&params(entries.clone(), full_state())),
            first
        );
    }
}

#[test]
fn zero_budget_is_empty() {
    let mut p = params(vec![], full_state());
    p.max_chars = 0;
    assert!(rebuild_continuity_summary(&p).is_empty());
}
