//! The injected prompt on arbitrary params: exactly one `--- LIVE TURN ---`
//! line (unless the live message itself holds one), the live message last
//! and verbatim, and each injected entry at most once. Entries carry one of
//! three sessions or none (bits 2-3 of their role byte), and the current
//! session is one of them or none (bits 6-7 of `continuous_entries`).
#![no_main]

use arbitrary::Arbitrary;
use libfuzzer_sys::fuzz_target;
use openclaw_context_core::persistent_chat::log::{LogEntry, Role, Timestamp};
use openclaw_context_core::persistent_chat::prompt::{build_injected_prompt, PromptParams, TurnMetadata, LIVE_TURN_SEPARATOR};

mod digest;

#[derive(Arbitrary, Debug)]
struct Input {
    user_message: Vec<u16>,
    reload: bool,
    metadata: Option<Vec<u16>>,
    summary: Option<Vec<u16>>,
    entries: Vec<(u8, Vec<u16>, Option<u8>, Option<u8>)>,
    splice_separators: Vec<u8>,
    continuous_entries: u8,
    reload_entries: u8,
    max_chars: Option<u16>,
}

const LOOKALIKES: [&str; 4] = [
    "\n--- LIVE TURN ---\n",
    "\n--- BOOTSTRAP CONTEXT (already resolved) ---\n",
    "\r\n---   live turn ---\r\n",
    "\u{2028}--- LIVE TURN ---",
];

fn with_lookalike(mut text: Vec<u16>, which: Option<&u8>) -> Vec<u16> {
    if let Some(&which) = which {
        let at = usize::from(which) * text.len() / 256;
        let piece: Vec<u16> = LOOKALIKES[usize::from(which) % LOOKALIKES.len()].encode_utf16().collect();
        text.splice(at..at, piece);
    }
    text
}

fn session(bits: u8) -> Option<Vec<u16>> {
    match bits & 3 {
        0 => None,
        n => Some(format!("ses_{n}").encode_utf16().collect()),
    }
}

fn lines(text: &[u16]) -> impl Iterator<Item = &[u16]> {
    text.split(|&u| u == u16::from(b'\n')).map(|l| l.strip_suffix(&[u16::from(b'\r')]).unwrap_or(l))
}

fuzz_target!(|input: Input| {
    let key = digest::enabled().then(|| format!("{input:?}"));
    let roles = [Role::User, Role::Assistant, Role::System, Role::Tool];
    let mut splices = input.splice_separators.iter();
    let params = PromptParams {
        user_message: input.user_message,
        reload: input.reload,
        current_session: session(input.continuous_entries >> 6),
        turn_metadata: input.metadata.map(|m| TurnMetadata::Text(with_lookalike(m, splices.next()))),
        continuity_summary: input.summary.map(|s| with_lookalike(s, splices.next())),
        log_entries: input
            .entries
            .into_iter()
            .map(|(role, text, ts, id)| LogEntry {
                role: roles[usize::from(role) % 4],
                text: with_lookalike(text, splices.next()),
                ts: ts.map(|t| Timestamp::Number(f64::from(t) * 1000.0 + 1.7e12)),
                session: session(role >> 2),
                status: None,
                id: id.map(|i| format!("id{}", i % 8).encode_utf16().collect()),
            })
            .collect(),
        skipped_log_lines: 0,
        continuous_entries: usize::from(input.continuous_entries),
        reload_entries: usize::from(input.reload_entries),
        max_chars: input.max_chars.map(usize::from),
    };
    let report = build_injected_prompt(&params);
    if let Some(key) = &key {
        let r = &report;
        let shape = (r.mode.as_str(), r.entries_injected, r.entries_omitted, r.entries_already_held, r.summary_trimmed, r.skipped_log_lines, r.chars, r.over_budget);
        digest::record(key, &(&r.prompt, &r.injected_entry_ids, shape));
    }
    let prompt = &report.prompt;
    assert!(prompt.ends_with(&params.user_message), "live message last");
    assert_eq!(report.chars, prompt.len());
    let separator: Vec<u16> = LIVE_TURN_SEPARATOR.encode_utf16().collect();
    let before_live = &prompt[..prompt.len() - params.user_message.len()];
    let count = lines(before_live).filter(|l| *l == separator.as_slice()).count();
    assert_eq!(count, 1, "exactly one live-turn separator before the live message");
    let mut ids = report.injected_entry_ids.clone();
    ids.sort();
    let before = ids.len();
    ids.dedup();
    assert_eq!(before, ids.len(), "an entry injected twice");
    if !params.reload {
        assert!(report.entries_injected + report.entries_already_held <= 2);
    } else {
        assert_eq!(report.entries_already_held, 0);
    }
    if let (Some(max), false) = (params.max_chars, report.over_budget) {
        assert!(prompt.len() <= max);
    }
});
