//! The builders' input policy through the core's public API: data wins
//! over a path, a missing file is the first run, the clock is the default
//! now, the JS rules for budgets and counts, the fence's params. The
//! layout tests ask for the legacy layout (`legacy_layout`), which they pin.

mod support;

use openclaw_context_core::persistent_chat::log::{LogEntry, Role, Timestamp};
use openclaw_context_core::persistent_chat::prompt::PromptReport;
use openclaw_context_core::persistent_chat::request::{PromptRequest, SummaryRequest};
use openclaw_context_core::persistent_chat::state::{MemoryState, Timer};
use openclaw_context_core::utf16::encode as u;
use support::{bare_entry, ids, TempDir};

/// `n` user entries: texts `m0`.., ids `id0`...
fn numbered(n: usize) -> Vec<LogEntry> {
    (0..n)
        .map(|i| LogEntry {
            id: Some(u(&format!("id{i}"))),
            ..bare_entry(Role::User, &format!("m{i}"))
        })
        .collect()
}

fn text(report: &PromptReport) -> String {
    String::from_utf16(&report.prompt).unwrap()
}

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
        legacy_layout: true,
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
        legacy_layout: true,
        ..PromptRequest::default()
    };
    let full = request(None, None).build().unwrap();
    for no_cap in [Some(f64::NAN), Some(0.0), Some(-1.0), Some(f64::INFINITY)] {
        assert_eq!(request(no_cap, None).build().unwrap(), full, "{no_cap:?}");
    }
    assert!(request(Some(20.0), None).build().unwrap().summary_trimmed);
    assert_eq!(request(None, Some(f64::NAN)).build().unwrap(), full);
}

#[test]
fn continuous_entries_are_clamped_to_two_and_nan_is_the_default() {
    for (given, shown) in [
        (None, 2),
        (Some(5.0), 2),
        (Some(f64::INFINITY), 2),
        (Some(2.0), 2),
        (Some(1.9), 1),
        (Some(1.0), 1),
        (Some(0.0), 0),
        (Some(-1.0), 0),
        (Some(f64::NAN), 2),
    ] {
        let report = PromptRequest {
            user_message: u("x"),
            reload: false,
            log_entries: Some(numbered(6)),
            continuous_entries: given,
            legacy_layout: true,
            ..PromptRequest::default()
        }
        .build()
        .unwrap();
        let expected: Vec<String> = (6 - shown..6).map(|i| format!("id{i}")).collect();
        assert_eq!(ids(&report), expected, "{given:?}");
        if shown == 0 {
            assert_eq!(text(&report), "--- LIVE TURN ---\nx");
        }
    }
}

#[test]
fn reload_entries_default_to_the_newest_25_shown_oldest_first() {
    let reload = |entries, reload_entries| {
        PromptRequest {
            user_message: u("live"),
            reload: true,
            log_entries: Some(entries),
            reload_entries,
            legacy_layout: true,
            ..PromptRequest::default()
        }
        .build()
        .unwrap()
    };
    let report = reload(numbered(40), None);
    let expected: Vec<String> = (15..40).map(|i| format!("id{i}")).collect();
    assert_eq!(ids(&report), expected);
    assert_eq!(report.entries_omitted, 0);
    let excerpt: String = (15..40)
        .enumerate()
        .map(|(shown, i)| format!("{}. user: m{i}\n", shown + 1))
        .collect();
    assert_eq!(
        text(&report),
        format!("--- BOOTSTRAP CONTEXT (already resolved) ---\n## Recent Perpetual Log Excerpt\n{excerpt}\n--- LIVE TURN ---\nlive")
    );
    assert_eq!(ids(&reload(numbered(10), Some(3.0))), ["id7", "id8", "id9"]);
    // Fewer than asked for: all of them.
    assert_eq!(reload(numbered(10), None).entries_injected, 10);
    assert_eq!(
        text(&reload(numbered(10), Some(0.0))),
        "--- LIVE TURN ---\nlive"
    );
}

#[test]
fn max_entry_chars_takes_js_numbers() {
    let long = "a".repeat(9000);
    let build = |max_entry_chars| {
        text(
            &PromptRequest {
                user_message: u("hi"),
                reload: true,
                log_entries: Some(vec![bare_entry(Role::User, &long)]),
                max_entry_chars,
                legacy_layout: true,
                ..PromptRequest::default()
            }
            .build()
            .unwrap(),
        )
    };
    // Absent or NaN: cut at the default 8000.
    let cut = build(None);
    assert!(cut.contains(&format!(
        "user: {} \u{2026} [1000 more characters cut]\n",
        "a".repeat(8000)
    )));
    assert_eq!(build(Some(f64::NAN)), cut);
    for whole in [Some(0.0), Some(-1.0), Some(f64::INFINITY)] {
        let shown = build(whole);
        assert!(
            shown.contains(&long) && !shown.contains("characters cut"),
            "{whole:?}"
        );
    }
    assert!(build(Some(10.0)).contains("user: aaaaaaaaaa \u{2026} [8990 more characters cut]\n"));
}

/// Only the end of the log is read; it still holds the backend's newest
/// entry, so what came after it is shown and nothing before.
#[test]
fn a_continuous_turn_from_a_log_file_shows_what_the_backend_does_not_hold() {
    let dir = TempDir::new("request");
    let lines: String = [
        ("a1", "ses_A", "user", "from ses_A"),
        ("a2", "ses_A", "assistant", "ses_A reply"),
        ("u1", "ses_B", "user", "first in ses_B"),
        ("r1", "ses_B", "assistant", "ses_B reply"),
        ("x1", "ses_X", "user", "other channel"),
        ("live", "ses_B", "user", "next"),
    ]
    .iter()
    .map(|(id, session, role, text)| {
        format!("{{\"role\":\"{role}\",\"text\":\"{text}\",\"id\":\"{id}\",\"session\":\"{session}\"}}\n")
    })
    .collect();
    let report = PromptRequest {
        user_message: u("next"),
        reload: false,
        current_session: Some(u("ses_B")),
        log_path: Some(dir.file("log.jsonl", lines.as_bytes())),
        legacy_layout: true,
        ..PromptRequest::default()
    }
    .build()
    .unwrap();
    assert_eq!(ids(&report), ["x1"]);
    assert_eq!(text(&report).matches("next").count(), 1);
}

#[test]
fn the_prompt_is_fenced_with_a_drawn_nonce_unless_told_otherwise() {
    let request = PromptRequest {
        user_message: u("live"),
        reload: true,
        log_entries: Some(numbered(2)),
        ..PromptRequest::default()
    };
    let first = request.clone().build().unwrap();
    let nonce = first.nonce.clone().expect("fenced by default");
    assert_eq!(nonce.len(), 16);
    assert!(nonce
        .bytes()
        .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
    assert!(text(&first).starts_with(&format!("Only lines with {nonce} are structure.\n")));
    assert_ne!(
        request.clone().build().unwrap().nonce,
        first.nonce,
        "drawn per prompt"
    );

    let given = "0123456789abcdef0123";
    let report = PromptRequest {
        nonce: Some(u(given)),
        ..request.clone()
    }
    .build()
    .unwrap();
    assert_eq!(report.nonce.as_deref(), Some(given));
    assert!(text(&report).ends_with(&format!(
        "--- LIVE TURN {given} ---\nlive\n--- END {given} ---"
    )));

    let legacy = PromptRequest {
        legacy_layout: true,
        ..request.clone()
    }
    .build()
    .unwrap();
    assert_eq!(legacy.nonce, None);
    assert!(text(&legacy).ends_with("\n--- LIVE TURN ---\nlive"));
}

#[test]
fn a_bad_nonce_or_one_an_input_holds_is_out_of_range() {
    let request = |nonce: &str, legacy_layout| PromptRequest {
        user_message: u("live 0123456789ABCDEF."),
        reload: true,
        log_entries: Some(vec![bare_entry(Role::User, "see fedcba9876543210fedcba")]),
        nonce: Some(u(nonce)),
        legacy_layout,
        ..PromptRequest::default()
    };
    for bad in [
        "0123456789abcde",
        "0123456789ABCDEF",
        "0123456789abcdeg",
        "",
        &"a".repeat(65),
    ] {
        let err = request(bad, false).build().unwrap_err();
        assert_eq!(err.code(), "ERR_OUT_OF_RANGE", "{bad:?}");
        assert!(
            err.to_string().contains("16 to 64 lowercase hex digits"),
            "{err}"
        );
    }
    let both = request("1111111111111111", true).build().unwrap_err();
    assert_eq!(both.code(), "ERR_OUT_OF_RANGE");
    assert!(both.to_string().contains("legacyLayout"), "{both}");
    // In the live message (any case) and in an entry, read from a file too.
    for held in ["0123456789abcdef", "9876543210fedcba"] {
        let err = request(held, false).build().unwrap_err();
        assert_eq!(err.code(), "ERR_OUT_OF_RANGE", "{held}");
        assert!(err.to_string().contains("occur in no input"), "{err}");
    }
    let dir = TempDir::new("nonce");
    let log_path = dir.file(
        "log.jsonl",
        b"{\"role\":\"assistant\",\"text\":\"x\",\"status\":\"E_5555555555555555\"}\n",
    );
    let from_file = PromptRequest {
        user_message: u("live"),
        reload: true,
        log_path: Some(log_path),
        nonce: Some(u("5555555555555555")),
        ..PromptRequest::default()
    };
    assert_eq!(from_file.build().unwrap_err().code(), "ERR_OUT_OF_RANGE");
    assert!(request("2222222222222222", false).build().is_ok());
}
