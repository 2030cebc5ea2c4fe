//! Searches a perpetual log from the command line, timing each search:
//! `cargo run --release -p openclaw_context_core --example search -- LOG QUERY…`
//! (for profiling the index build and the ranking without Node).

use std::path::Path;
use std::time::Instant;

use openclaw_context_core::search::{search_log, SearchOptions};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(log) = args.next() else {
        eprintln!("usage: search LOG QUERY…");
        std::process::exit(2);
    };
    for query in args {
        let started = Instant::now();
        let hits = match search_log(
            Path::new(&log),
            &query.encode_utf16().collect::<Vec<_>>(),
            &SearchOptions::default(),
        ) {
            Ok(hits) => hits,
            Err(err) => {
                eprintln!("{err}");
                std::process::exit(1);
            }
        };
        let lines: Vec<u64> = hits.iter().map(|hit| hit.line).collect();
        println!(
            "{:.1} ms {query:?} {lines:?}",
            started.elapsed().as_secs_f64() * 1000.0
        );
    }
}
