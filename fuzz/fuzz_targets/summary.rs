//! The continuity summary on arbitrary entries and state: never panics,
//! stays within maxChars and is deterministic.
// Built by cargo fuzz (`--cfg fuzzing`) as a libFuzzer target; crates/core/tests/fuzz_seeds.rs
// loads the same file as a module and runs every committed seed through `run`.
#![cfg_attr(fuzzing, no_main)]

use arbitrary::Arbitrary;
use openclaw_context_core::persistent_chat::log::{LogEntry, Role, Timestamp};
use openclaw_context_core::persistent_chat::state::{MemoryState, Timer};
use openclaw_context_core::persistent_chat::summary::{rebuild_continuity_summary, SummaryParams};

mod digest;

#[derive(Arbitrary, Debug)]
struct Entry {
    role: u8,
    text: Vec<u16>,
    ts: Option<u32>,
    session: Option<u8>,
    failed: bool,
}

#[derive(Arbitrary, Debug)]
pub struct Input {
    entries: Vec<Entry>,
    decisions: Vec<Vec<u16>>,
    notes: Vec<Vec<u16>>,
    timers: Vec<(Vec<u16>, Option<u32>)>,
    current_session: Option<u8>,
    now: u32,
    max_chars: u16,
}

fn units(text: &str) -> Vec<u16> {
    text.encode_utf16().collect()
}

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|input: Input| run(input));

/// One run of the target on one input (what libFuzzer's bytes decode to).
pub fn run(input: Input) {
    let key = digest::enabled().then(|| format!("{input:?}"));
    let roles = [Role::User, Role::Assistant, Role::System, Role::Tool];
    let params = SummaryParams {
        entries: input
            .entries
            .into_iter()
            .map(|e| LogEntry {
                role: roles[usize::from(e.role) % 4],
                text: e.text,
                ts: e.ts.map(|ts| Timestamp::Number(f64::from(ts))),
                session: e.session.map(|s| units(&format!("ses_{}", s % 3))),
                status: Some(units(if e.failed { "ACP_TURN_FAILED" } else { "ok" })),
                id: None,
            })
            .collect(),
        state: MemoryState {
            decisions: input.decisions,
            notes: input.notes,
            timers: input
                .timers
                .into_iter()
                .map(|(name, due)| Timer { name, status: units("pending"), due: due.map(|d| Timestamp::Number(f64::from(d))) })
                .collect(),
            ..MemoryState::default()
        },
        current_session: input.current_session.map(|s| units(&format!("ses_{}", s % 3))),
        now_ms: f64::from(input.now) * 1000.0,
        max_chars: usize::from(input.max_chars),
    };
    let summary = rebuild_continuity_summary(&params);
    if let Some(key) = &key {
        digest::record(key, &summary);
    }
    assert!(summary.len() <= params.max_chars);
    assert_eq!(summary, rebuild_continuity_summary(&params));
}
