//! A fixed workload for profilers (`perf record`): the last `LIMIT` entries
//! (default 26, a reload's window) of the log `LOG.jsonl`, read `N` times
//! (default 5,000). Prints the mean time per read.

use std::path::Path;
use std::time::Instant;

use openclaw_context_core::persistent_chat::log::read_log_tail;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(log) = args.next() else {
        eprintln!("usage: profile_tail LOG.jsonl [LIMIT] [N]");
        std::process::exit(2);
    };
    let limit: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(26);
    let rounds: u32 = args.next().and_then(|n| n.parse().ok()).unwrap_or(5_000);
    let started = Instant::now();
    let mut entries = 0;
    for _ in 0..rounds {
        match read_log_tail(Path::new(&log), limit) {
            Ok(tail) => entries += tail.entries.len(),
            Err(err) => {
                eprintln!("profile_tail: {log}: {err}");
                std::process::exit(1);
            }
        }
    }
    let each = started.elapsed() / rounds;
    println!("read_log_tail: {each:?} per read of {limit} entries ({entries} in all)");
}
