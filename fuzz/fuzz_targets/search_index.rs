//! The search index reader over arbitrary bytes (the index file is a cache
//! anyone with the chat folder could have damaged): never panics, and an
//! index it accepts writes back to an equal one and can be ranked over.
// Built by cargo fuzz (`--cfg fuzzing`) as a libFuzzer target; crates/core/tests/fuzz_seeds.rs
// loads the same file as a module and runs every committed seed through `run`.
#![cfg_attr(fuzzing, no_main)]

use openclaw_context_core::search::fuzz_index_bytes;

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| run(data));

/// One run of the target on one input (what libFuzzer's bytes decode to).
pub fn run(data: &[u8]) {
    // The first byte picks a query; the rest is the file.
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    // The last three have time words (read at a fixed time: the documents' times are ranked
    // too), the last an event searched for first.
    let query = [
        "deploy",
        "staging database",
        "数据库",
        "a b c d e",
        "",
        "what happened yesterday",
        "staging database in May 2026",
        "deploy before the staging database",
    ][usize::from(pick) % 8];
    let _ = fuzz_index_bytes(bytes, query);
}
