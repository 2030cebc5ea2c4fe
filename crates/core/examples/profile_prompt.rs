//! A fixed workload for profilers (`valgrind --tool=callgrind`): the reload
//! prompt with a continuity summary and 30 log entries, 200 times
//! (`continuous` as the first argument: the continuous-session prompt).
//! Given `LOG.jsonl SUMMARY.txt MESSAGE.txt`, the reload prompt from those
//! (e.g. the inputs of `npm run bench`) instead. `OCCN_LEGACY=1`: the
//! legacy layout (what the fence costs, by `perf stat -e instructions:u`).

use openclaw_context_core::persistent_chat::log::{read_log_tail, LogEntry, Role, Timestamp};
use openclaw_context_core::persistent_chat::prompt::{
    build_injected_prompt, Fence, PromptParams, DEFAULT_MAX_ENTRY_CHARS,
};
use openclaw_context_core::persistent_chat::state::MemoryState;
use openclaw_context_core::persistent_chat::summary::{rebuild_continuity_summary, SummaryParams};

fn fence() -> Fence {
    match std::env::var("OCCN_LEGACY") {
        Ok(value) if value == "1" => Fence::Legacy,
        _ => Fence::Drawn,
    }
}

fn units(text: &str) -> Vec<u16> {
    text.encode_utf16().collect()
}

fn main() {
    let entries: Vec<LogEntry> = (0..30)
        .map(|i| LogEntry {
            role: if i % 2 == 0 {
                Role::User
            } else {
                Role::Assistant
            },
            text: units(&format!("message {i} {}", "x".repeat(200))),
            ts: Some(Timestamp::Number(
                1_747_303_200_000.0 + f64::from(i) * 1000.0,
            )),
            session: Some(units("ses_1")),
            status: (i % 2 == 1).then(|| units("ok")),
            id: Some(units(&format!("e{i}"))),
        })
        .collect();
    let summary = rebuild_continuity_summary(&SummaryParams {
        entries: entries.clone(),
        state: MemoryState {
            decisions: (0..40)
                .map(|i| units(&format!("Decision {i}: keep the queue client pinned at 4.8.{i} until the fallback window ends")))
                .collect(),
            guardrails: (0..10).map(|i| units(&format!("Guardrail {i}: never deploy without a green canary"))).collect(),
            pending_threads: (0..10).map(|i| units(&format!("Thread {i}: backfill of failed invoices"))).collect(),
            notes: (0..5).map(|i| units(&format!("Note {i}: reply in English"))).collect(),
            ..MemoryState::default()
        },
        current_session: None,
        now_ms: 1_747_303_500_000.0,
        max_chars: 6000,
    });
    let args: Vec<String> = std::env::args().skip(1).collect();
    let params = if let [log, summary, message] = &args[..] {
        let read = |path: &str| {
            std::fs::read_to_string(path).unwrap_or_else(|err| panic!("{path}: {err}"))
        };
        PromptParams {
            user_message: units(&read(message)),
            reload: true,
            current_session: None,
            turn_metadata: None,
            continuity_summary: Some(units(&read(summary))),
            log_entries: read_log_tail(std::path::Path::new(log), 100)
                .unwrap_or_else(|err| panic!("{log}: {err}"))
                .entries,
            skipped_log_lines: 0,
            continuous_entries: 2,
            reload_entries: 25,
            refresh: false,
            refresh_entries: 10,
            max_chars: None,
            max_entry_chars: Some(DEFAULT_MAX_ENTRY_CHARS),
            fence: fence(),
        }
    } else {
        synthetic(entries, summary)
    };
    let mut total = 0;
    for _ in 0..200 {
        total += build_injected_prompt(&params).expect("builds").prompt.len();
    }
    println!("{total}");
}

fn synthetic(entries: Vec<LogEntry>, summary: Vec<u16>) -> PromptParams {
    PromptParams {
        user_message: units("hi"),
        reload: std::env::args().nth(1).as_deref() != Some("continuous"),
        current_session: None,
        turn_metadata: None,
        continuity_summary: Some(summary),
        log_entries: entries,
        skipped_log_lines: 0,
        continuous_entries: 2,
        reload_entries: 25,
        refresh: false,
        refresh_entries: 10,
        max_chars: None,
        max_entry_chars: Some(DEFAULT_MAX_ENTRY_CHARS),
        fence: fence(),
    }
}
