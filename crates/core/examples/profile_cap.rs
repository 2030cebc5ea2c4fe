//! A fixed workload for profilers: the fixed cap on a body and a suffix
//! given as UTF-16LE files (e.g. dumped from samples/seed-compaction.json or
//! dev/body-heavy.js), 2,000 times, at MAX_CHARS (default 16,000).
//!   cargo run --release -p openclaw_context_core --example profile_cap -- BODY.u16 SUFFIX.u16 [MAX_CHARS]

use openclaw_context_core::compaction::{cap_preserving_suffix, CapOptions};

fn read_utf16(path: &str) -> Vec<u16> {
    let bytes = std::fs::read(path).unwrap_or_else(|err| panic!("{path}: {err}"));
    bytes
        .chunks_exact(2)
        .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
        .collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (Some(body), Some(suffix)) = (args.next(), args.next()) else {
        eprintln!("usage: profile_cap BODY.u16 SUFFIX.u16 [MAX_CHARS]");
        std::process::exit(2);
    };
    let max_chars = match args.next().map(|arg| arg.parse::<f64>()) {
        None => 16_000.0,
        Some(Ok(max)) => max,
        Some(Err(err)) => {
            eprintln!("MAX_CHARS: {err}");
            std::process::exit(2);
        }
    };
    let (body, suffix) = (read_utf16(&body), read_utf16(&suffix));
    let mut total = 0;
    for _ in 0..2000 {
        total += cap_preserving_suffix(&body, &suffix, max_chars, &CapOptions::default())
            .summary
            .len();
    }
    println!("{total}");
}
