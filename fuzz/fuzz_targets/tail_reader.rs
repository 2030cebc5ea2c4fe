//! The tail reader over arbitrary file bytes: never panics, and returns
//! exactly the last `limit` entries of the file's whole lines.
// Built by cargo fuzz (`--cfg fuzzing`) as a libFuzzer target; crates/core/tests/fuzz_seeds.rs
// loads the same file as a module and runs every committed seed through `run`.
#![cfg_attr(fuzzing, no_main)]

use std::io::Write;

use arbitrary::Arbitrary;
use openclaw_context_core::persistent_chat::log::{parse_log_line, read_log_tail};

mod digest;

#[derive(Arbitrary, Debug)]
pub struct Input {
    limit: u8,
    lines: Vec<Line>,
}

#[derive(Arbitrary, Debug)]
enum Line {
    Entry { role: u8, text: String, id: Option<u8> },
    Raw(Vec<u8>),
}

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|input: Input| run(input));

/// One run of the target on one input (what libFuzzer's bytes decode to).
pub fn run(input: Input) {
    let mut bytes = Vec::new();
    for line in &input.lines {
        match line {
            Line::Entry { role, text, id } => {
                let role = ["user", "assistant", "system", "tool", "nobody"][usize::from(*role) % 5];
                let text = text.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n");
                let id = id.map_or(String::new(), |id| format!(",\"id\":\"{id}\""));
                bytes.extend(format!("{{\"role\":\"{role}\",\"text\":\"{text}\"{id}}}\n").bytes());
            }
            Line::Raw(raw) => bytes.extend_from_slice(raw),
        }
    }
    let mut file = tempfile();
    file.1.write_all(&bytes).unwrap();
    let limit = usize::from(input.limit);
    let tail = read_log_tail(&file.0, limit).unwrap();
    if digest::enabled() {
        let entries: Vec<_> = tail.entries.iter().map(digest::entry).collect();
        digest::record(&(&bytes, limit), &(entries, tail.skipped_lines, tail.oversized_lines));
    }
    assert!(tail.entries.len() <= limit);
    // Exactly the last `limit` entries of the whole lines (a torn last line is
    // not one): a file nobody writes to must read the same when checked again.
    let whole_lines = bytes.split_inclusive(|&b| b == b'\n').filter(|l| l.ends_with(b"\n"));
    let entries: Vec<_> = whole_lines.filter_map(parse_log_line).collect();
    assert_eq!(tail.entries, entries[entries.len().saturating_sub(limit)..]);
    let _ = std::fs::remove_file(&file.0);
}

fn tempfile() -> (std::path::PathBuf, std::fs::File) {
    let path = std::env::temp_dir().join(format!("occn-fuzz-tail-{}.jsonl", std::process::id()));
    let file = std::fs::File::create(&path).unwrap();
    (path, file)
}
