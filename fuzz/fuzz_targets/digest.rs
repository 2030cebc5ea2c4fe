//! `OCCN_FUZZ_DIGEST=FILE`: every run of a target appends one line to FILE,
//! `<hash of the input> <hash of what the target computed>`, so that two
//! builds can be compared on a corpus (scripts/differential/corpus.sh).
//! Without the variable nothing is computed.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::io::Write;

/// Whether digests are being recorded (checked before building the key).
pub fn enabled() -> bool {
    std::env::var_os("OCCN_FUZZ_DIGEST").is_some()
}

/// Appends the digest line of one run. `input` and `output` are formatted
/// with `Debug`: give plain values (tuples of texts and numbers), not the
/// core's structs, so a renamed field does not change the digest.
pub fn record(input: &impl std::fmt::Debug, output: &impl std::fmt::Debug) {
    let Some(path) = std::env::var_os("OCCN_FUZZ_DIGEST") else {
        return;
    };
    let hash = |value: &dyn std::fmt::Debug| {
        let mut hasher = DefaultHasher::new();
        format!("{value:?}").hash(&mut hasher);
        hasher.finish()
    };
    let line = format!("{:016x} {:016x}\n", hash(input), hash(output));
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(path).expect("digest file");
    file.write_all(line.as_bytes()).expect("digest write");
}

/// An entry as plain values (see [`record`]).
#[allow(dead_code)] // not every target reads entries
pub fn entry(entry: &openclaw_context_core::persistent_chat::log::LogEntry) -> impl std::fmt::Debug + '_ {
    use openclaw_context_core::persistent_chat::log::Timestamp;
    let ts = entry.ts.as_ref().map(|ts| match ts {
        Timestamp::Text(text) => (Some(text), None),
        Timestamp::Number(number) => (None, Some(number.to_bits())),
    });
    (entry.role.as_str(), &entry.text, ts, &entry.session, &entry.status, &entry.id)
}
