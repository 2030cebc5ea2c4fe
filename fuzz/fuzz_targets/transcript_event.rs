//! One event of OpenClaw's transcript as `import` reads it (JSON, any
//! bytes): parsed into an entry or refused, never a panic; an entry is a
//! user or assistant message with a text that is not blank, and a live
//! message taken out of an injected prompt is part of the event's text.
// Built by cargo fuzz (`--cfg fuzzing`) as a libFuzzer target; crates/core/tests/fuzz_seeds.rs
// loads the same file as a module and runs every committed seed through `run`.
#![cfg_attr(fuzzing, no_main)]

use openclaw_context_core::archive::import::transcript_entry;
use openclaw_context_core::archive::injected::live_message;
use openclaw_context_core::persistent_chat::log::Role;

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|bytes: &[u8]| run(bytes));

/// One run of the target on one input.
pub fn run(bytes: &[u8]) {
    if let Some((entry, _live)) = transcript_entry(bytes) {
        assert!(matches!(entry.role, Role::User | Role::Assistant));
        assert!(entry.text.iter().any(|&u| !matches!(u, 0x20 | 0x09 | 0x0a | 0x0d)));
        assert!(entry.id.is_some());
    }
    // The injected-prompt reader on the raw bytes as text: never longer than its input.
    let text: Vec<u16> = String::from_utf8_lossy(bytes).encode_utf16().collect();
    if let Some(live) = live_message(&text) {
        assert!(live.len() <= text.len());
    }
}
