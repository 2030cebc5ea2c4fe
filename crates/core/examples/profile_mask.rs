//! A fixed workload for profilers: `Masker::mask` on the text of FILE
//! (e.g. a chat folder's `last-injected-preprompt.txt`), `N` times.

use std::time::Instant;

use openclaw_context_core::mask::builtin_masker;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(file) = args.next() else {
        eprintln!("usage: profile_mask FILE [N]");
        std::process::exit(2);
    };
    let rounds: u32 = args.next().and_then(|n| n.parse().ok()).unwrap_or(2_000);
    let text: Vec<u16> = match std::fs::read_to_string(&file) {
        Ok(text) => text.encode_utf16().collect(),
        Err(err) => {
            eprintln!("profile_mask: {file}: {err}");
            std::process::exit(1);
        }
    };
    let masker = builtin_masker();
    let started = Instant::now();
    let mut kept = 0;
    for _ in 0..rounds {
        kept += masker.mask(&text).len();
    }
    let each = started.elapsed() / rounds;
    println!("mask: {each:?} per text of {} units ({kept})", text.len());
}
