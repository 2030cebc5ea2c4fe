//! `rebuildPersistentChatContinuitySummary` through the core's public API:
//! the format, the latest status rule, timers against now, the budget, and
//! the request's policy for it (how much of a log path it reads, `maxChars`).

mod support;

use openclaw_context_core::persistent_chat::log::{LogEntry, Role, Timestamp};
use openclaw_context_core::persistent_chat::request::SummaryRequest;
use openclaw_context_core::persistent_chat::state::{MemoryState, Timer};
use openclaw_context_core::persistent_chat::summary::*;
use openclaw_context_core::utf16::encode as u;
// An entry with only a role and a text.
use support::bare_entry as entry;
use support::TempDir;

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
    // A list of blank items is an empty section too.
    let state = MemoryState {
        pending_threads: texts(&["  ", ""]),
        model_notes: texts(&["No tools"]),
        ..MemoryState::default()
    };
    assert_eq!(
        summary(&params(vec![], state)),
        "Current thread / pending next action:\n- Latest user request: none yet\n- Latest assistant status: no turns yet\n\nModel capability notes:\n- No tools"
    );
    // Guardrails alone make the decisions section.
    let state = MemoryState {
        guardrails: texts(&["g"]),
        timers: vec![Timer {
            name: u("x"),
            status: Vec::new(),
            due: None,
        }],
        ..MemoryState::default()
    };
    let out = summary(&params(vec![], state));
    let headers: Vec<&str> = out
        .split("\n\n")
        .map(|section| section.lines().next().unwrap())
        .collect();
    assert_eq!(
        headers,
        [CURRENT_THREAD_HEADER, DECISIONS_HEADER, TIMERS_HEADER]
    );
}

#[test]
fn items_are_one_line_each_and_repeats_and_blanks_are_left_out() {
    let state = MemoryState {
        decisions: texts(&[
            "  Use\r\n\r\nPostgres   for\t\tstorage  ",
            "Two\u{2028}lines",
            "alpha",
            "alpha",
            "   ",
            "",
        ]),
        guardrails: texts(&["A\n\nB"]),
        ..MemoryState::default()
    };
    let out = summary(&params(vec![], state));
    assert_eq!(
        out.split("\n\n").nth(1).unwrap(),
        "Active decisions and guardrails:\n- Use Postgres for storage\n- Two lines\n- alpha\n- A B"
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
    for older in ["ok", "ACP_TURN_FAILED"] {
        let unanswered = vec![
            entry(Role::User, "first"),
            reply("boom", older, "ses_B"),
            entry(Role::User, "second"),
        ];
        let out = summary(&params(unanswered.clone(), MemoryState::default()));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[1], "- Latest user request: second", "{older}");
        assert_eq!(
            lines[2], "- Latest assistant status: awaiting reply to the latest request",
            "{older}"
        );
        assert!(!out.contains("ACP_TURN_FAILED"), "{out}");
        // Once answered, the earlier turn's failure is not shown either.
        let mut answered = unanswered;
        answered.push(reply("fine", "ok", "ses_B"));
        let out = summary(&params(answered, MemoryState::default()));
        assert_eq!(out.lines().nth(2).unwrap(), "- Latest assistant status: ok");
        assert!(!out.contains("ACP_TURN_FAILED"), "{out}");
    }
}

#[test]
fn a_reply_without_a_request_is_none_yet_with_its_status() {
    let out = summary(&params(
        vec![reply("hello", "ok", "ses_B")],
        MemoryState::default(),
    ));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[1], "- Latest user request: none yet");
    assert_eq!(lines[2], "- Latest assistant status: ok");
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
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[1], "- Latest user request: build the report");
    assert_eq!(
        lines[2],
        "- Latest assistant status: awaiting reply to the latest request"
    );
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
fn timers_against_now() {
    let timer = |name: &str, status: &str, due: Option<Timestamp>| Timer {
        name: u(name),
        status: u(status),
        due,
    };
    let text = |due: &str| Some(Timestamp::Text(u(due)));
    let timers = vec![
        timer("overdue", "pending", text("2026-05-15T09:00:00Z")),
        timer("justdue", "pending", text("2026-05-15T10:00:00Z")),
        timer(
            "epoch",
            "pending",
            Some(Timestamp::Number(NOW - 3_600_000.0)),
        ),
        timer("future", "pending", text("2026-05-15T11:00:00Z")),
        timer("nostatus", "", text("2026-05-16T11:00:00Z")),
        timer("finished", "done", text("2026-05-14T09:00:00Z")),
        // A bare string in the state: a name, no status, no due.
        timer("plain string timer", "", None),
    ];
    let lines_at = |now_ms: f64| {
        let mut p = params(
            vec![],
            MemoryState {
                timers: timers.clone(),
                ..MemoryState::default()
            },
        );
        p.now_ms = now_ms;
        let out = summary(&p);
        let section = out.split("Timer status:\n").nth(1).unwrap().to_owned();
        section.lines().map(str::to_owned).collect::<Vec<_>>()
    };
    assert_eq!(
        lines_at(NOW),
        [
            "- overdue: overdue (was due 2026-05-15T09:00:00Z)",
            "- justdue: due now (due 2026-05-15T10:00:00Z)",
            "- epoch: overdue (was due 2026-05-15T09:00:00.000Z)",
            "- future: pending (due 2026-05-15T11:00:00Z)",
            "- nostatus: pending (due 2026-05-16T11:00:00Z)",
            "- finished: done (due 2026-05-14T09:00:00Z)",
            "- plain string timer: pending",
        ]
    );
    // At 2026-05-17T00:00:00Z every timer with a due is past it; the
    // finished one keeps its status.
    let later = lines_at(NOW + 38.0 * 3_600_000.0);
    for line in &later[..5] {
        assert!(line.contains(": overdue (was due "), "{line}");
    }
    assert_eq!(later[5], "- finished: done (due 2026-05-14T09:00:00Z)");
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

/// Many items in every section, for the budget tests.
fn big_state() -> MemoryState {
    let list = |count: usize, name: &str, tail: &str| -> Vec<Vec<u16>> {
        (0..count)
            .map(|n| u(&format!("{name} {n}: {tail}")))
            .collect()
    };
    MemoryState {
        decisions: list(60, "Decision", "keep the public API stable for clients"),
        guardrails: list(10, "Guardrail", "never touch production on Fridays"),
        pending_threads: list(30, "Thread", "follow up on the migration"),
        timers: (0..15)
            .map(|n| Timer {
                name: u(&format!("timer{n}")),
                status: u("pending"),
                due: Some(Timestamp::Number(NOW + (n as f64 - 7.0) * 3_600_000.0)),
            })
            .collect(),
        model_notes: list(12, "Model note", "no image input on this backend"),
        notes: texts(&["Reply in French"]),
    }
}

fn one_turn() -> Vec<LogEntry> {
    vec![
        entry(Role::User, "Please deploy the staging build now"),
        reply("ok", "ok", "ses_B"),
    ]
}

fn capped(entries: Vec<LogEntry>, state: MemoryState, max_chars: usize) -> String {
    let mut p = params(entries, state);
    p.max_chars = max_chars;
    summary(&p)
}

#[test]
fn every_budget_is_kept_and_from_37_units_on_something_shows() {
    let budgets = (1..=400).chain([700, 1000, 2000, 3000, 6000]);
    for max in budgets {
        let out = capped(one_turn(), big_state(), max);
        assert!(out.encode_utf16().count() <= max, "{max}: {out}");
        if max >= 37 {
            assert!(!out.is_empty(), "{max}");
        }
    }
}

#[test]
fn every_section_keeps_items_and_counts_the_ones_it_left_out() {
    let headers = [
        CURRENT_THREAD_HEADER,
        DECISIONS_HEADER,
        PENDING_THREADS_HEADER,
        TIMERS_HEADER,
        MODEL_NOTES_HEADER,
    ];
    let totals = [70, 30, 15, 12];
    let item_names = ["Decision ", "Guardrail ", "Thread ", "timer", "Model note "];
    for max in [400, 1000, 2000, 3000] {
        let out = capped(one_turn(), big_state(), max);
        let sections: Vec<&str> = out.split("\n\n").collect();
        let found: Vec<&str> = sections
            .iter()
            .map(|section| section.lines().next().unwrap())
            .collect();
        assert_eq!(found, headers, "{max}: {out}");
        for (section, total) in sections[1..].iter().zip(totals) {
            let items: Vec<&str> = section.lines().skip(1).collect();
            let more = items
                .last()
                .and_then(|line| line.strip_prefix("- \u{2026} ("))
                .and_then(|rest| rest.strip_suffix(" more)"))
                .map(|count| count.parse::<usize>().unwrap());
            let shown = items.len() - usize::from(more.is_some());
            assert_eq!(shown + more.unwrap_or(0), total, "{max}: {section}");
            assert!(shown > 0, "{max}: {section}");
            for item in &items[..shown] {
                let name = item.strip_prefix("- ").unwrap();
                assert!(
                    item_names.iter().any(|prefix| name
                        .strip_prefix(prefix)
                        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))),
                    "{max}: {item}"
                );
            }
        }
    }
}

#[test]
fn a_cut_never_splits_a_surrogate_pair_or_a_zwj_sequence() {
    let family = "👨\u{200D}👩\u{200D}👧";
    let family_units = family.encode_utf16().count();
    let state = MemoryState {
        decisions: (0..20)
            .map(|n| u(&format!("{n} {}", family.repeat(30))))
            .collect(),
        ..MemoryState::default()
    };
    for max in (40..500).step_by(7) {
        let units = rebuild_continuity_summary(&SummaryParams {
            max_chars: max,
            ..params(vec![], state.clone())
        });
        assert!(units.len() <= max, "{max}");
        // The input holds no lone surrogate: neither may the output.
        let out = String::from_utf16(&units).expect("no lone surrogate");
        for line in out
            .lines()
            .filter(|l| l.starts_with("- ") && l.contains('👨'))
        {
            let body = line
                .trim_start_matches("- ")
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .trim_start_matches(' ')
                .trim_end_matches('\u{2026}');
            assert_eq!(
                body.encode_utf16().count() % family_units,
                0,
                "{max}: {line}"
            );
        }
    }
}

#[test]
fn the_first_section_stays_whenever_its_header_and_a_count_line_fit() {
    for max in 56..=400 {
        let out = capped(one_turn(), big_state(), max);
        assert!(out.starts_with(CURRENT_THREAD_HEADER), "{max}: {out}");
    }
    let small = MemoryState {
        decisions: texts(&["Use Postgres"]),
        model_notes: texts(&["No image input"]),
        ..MemoryState::default()
    };
    let mut p = params(one_turn(), small);
    p.current_session = None;
    p.max_chars = 100;
    assert!(summary(&p).starts_with(CURRENT_THREAD_HEADER));
}

#[test]
fn a_kept_section_never_loses_items_without_saying_how_many() {
    let state = MemoryState {
        decisions: texts(&["Use Postgres"]),
        model_notes: texts(&["No image input"]),
        ..MemoryState::default()
    };
    // From 50 on: below that not even a header and its count line fit.
    for max in 50..=200 {
        let mut p = params(one_turn(), state.clone());
        p.current_session = None;
        p.max_chars = max;
        let out = summary(&p);
        for section in out.split("\n\n") {
            assert!(
                section.lines().count() > 1,
                "{max}: a bare header in {out:?}"
            );
        }
    }
}

/// `n` alternating user and assistant lines of a log, each text starting
/// with its `msg#n` marker.
fn conversation_log(n: usize) -> String {
    (0..n)
        .map(|i| {
            let (role, status) = if i % 2 == 0 {
                ("user", "")
            } else {
                ("assistant", r#","status":"ok""#)
            };
            format!(
                "{{\"role\":\"{role}\",\"text\":\"msg#{i} lorem ipsum\",\"session\":\"ses_B\",\"id\":\"id{i}\"{status}}}\n"
            )
        })
        .collect()
}

/// The `msg#n` markers in `text`, in order.
fn markers(text: &str) -> Vec<usize> {
    text.split("msg#")
        .skip(1)
        .map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().unwrap()
        })
        .collect()
}

#[test]
fn a_log_path_gives_its_newest_request_and_no_transcript() {
    let dir = TempDir::new("summary");
    let log_path = dir.file("log.jsonl", conversation_log(250).as_bytes());
    let request = SummaryRequest {
        log_path: Some(log_path),
        state: Some(full_state()),
        current_session: Some(u("ses_B")),
        now_ms: Some(NOW),
        ..SummaryRequest::default()
    };
    let out = String::from_utf16(&request.rebuild().unwrap()).unwrap();
    // The newest user entry (msg#248), once; no other entry at all.
    assert_eq!(markers(&out), [248], "{out}");
    assert!(!out.contains("Recent log excerpt") && !out.contains("Recent conversation excerpt"));
    // Headers, items and blank lines only: no numbered or bracketed entry lines.
    for line in out.lines() {
        assert!(
            line.is_empty() || line.ends_with(':') || line.starts_with("- "),
            "{line}"
        );
    }
}

#[test]
fn a_log_path_with_garbage_and_a_torn_last_line_reads_its_entries() {
    let dir = TempDir::new("summary");
    let log = concat!(
        "{\"role\":\"user\",\"text\":\"old\"}\n",
        "garbage\n",
        "{\"role\":\"user\",\"text\":\"latest request\"}\n",
        "{\"role\":\"assistant\"}\n",
        "{\"role\":\"assistant\",\"text\":\"half",
    );
    let request = SummaryRequest {
        log_path: Some(dir.file("log.jsonl", log.as_bytes())),
        now_ms: Some(NOW),
        ..SummaryRequest::default()
    };
    let out = String::from_utf16(&request.rebuild().unwrap()).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[1..3],
        [
            "- Latest user request: latest request",
            "- Latest assistant status: awaiting reply to the latest request",
        ]
    );
}

#[test]
fn max_chars_defaults_to_6000_and_infinity_or_non_positive_is_no_cap() {
    let huge = MemoryState {
        decisions: (0..500)
            .map(|n| u(&format!("Decision {n}: {}", "x".repeat(40))))
            .collect(),
        ..MemoryState::default()
    };
    let rebuild = |max_chars: Option<f64>| {
        let request = SummaryRequest {
            state: Some(huge.clone()),
            now_ms: Some(NOW),
            max_chars,
            ..SummaryRequest::default()
        };
        String::from_utf16(&request.rebuild().unwrap()).unwrap()
    };
    let by_default = rebuild(None);
    assert!(by_default.len() <= DEFAULT_SUMMARY_MAX_CHARS && by_default.len() > 5000);
    assert_eq!(rebuild(Some(f64::NAN)), by_default);
    let uncapped = rebuild(Some(f64::INFINITY));
    assert!(uncapped.contains("Decision 499:"));
    assert_eq!(rebuild(Some(0.0)), uncapped);
    assert_eq!(rebuild(Some(-1.0)), uncapped);
}
