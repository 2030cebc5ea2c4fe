//! The chat store over a hostile log: arbitrary bytes already in the file
//! (torn lines, garbage, NULs, no final line break), then appends, then the
//! tail read. Never panics; every appended entry reads back exactly (lone
//! surrogates included), whatever was in the file before.
// Built by cargo fuzz (`--cfg fuzzing`) as a libFuzzer target; crates/core/tests/fuzz_seeds.rs
// loads the same file as a module and runs every committed seed through `run`.
#![cfg_attr(fuzzing, no_main)]

use arbitrary::Arbitrary;
use openclaw_context_core::persistent_chat::log::{LogEntry, Role, Timestamp};
use openclaw_context_core::store::ChatStore;

#[derive(Arbitrary, Debug)]
pub struct Input {
    before: Vec<u8>,
    entries: Vec<Entry>,
    limit: u8,
}

#[derive(Arbitrary, Debug)]
pub struct Entry {
    role: u8,
    text: Vec<u16>,
    session: Option<Vec<u16>>,
    id: Option<String>,
    ts: Option<f64>,
}

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|input: Input| run(input));

/// One run of the target on one input (what libFuzzer's bytes decode to).
pub fn run(input: Input) {
    let folder = std::env::temp_dir().join(format!("occn-fuzz-store-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    let store = ChatStore::open_folder(&folder, None).unwrap();
    std::fs::write(store.log_path(), &input.before).unwrap();
    let appended: Vec<LogEntry> = input
        .entries
        .iter()
        .map(|entry| LogEntry {
            role: [Role::User, Role::Assistant, Role::System, Role::Tool]
                [usize::from(entry.role) % 4],
            text: entry.text.clone(),
            ts: entry.ts.filter(|ts| ts.is_finite()).map(Timestamp::Number),
            session: entry.session.clone(),
            status: None,
            id: entry.id.as_ref().map(|id| id.encode_utf16().collect()),
        })
        .collect();
    for entry in &appended {
        store.append_entry(entry, false).unwrap();
    }
    let limit = usize::from(input.limit);
    let tail = store.read_entries(limit).unwrap();
    assert!(tail.entries.len() <= limit);
    // The newest entries are the appended ones, each exactly as given.
    let ours = appended.len().min(limit);
    assert!(tail.entries.len() >= ours);
    let read = &tail.entries[tail.entries.len() - ours..];
    let expected = &appended[appended.len() - ours..];
    for (read, given) in read.iter().zip(expected) {
        assert_eq!(read.role, given.role);
        assert_eq!(read.text, given.text);
        assert_eq!(read.session, given.session);
        assert_eq!(read.id, given.id);
        assert_eq!(read.ts, given.ts);
    }
    // The file ends with a whole line once anything was appended.
    if !appended.is_empty() {
        assert!(std::fs::read(store.log_path()).unwrap().ends_with(b"\n"));
    }
    let _ = std::fs::remove_dir_all(&folder);
}
