//! The search index reader over arbitrary bytes (the index file is a cache
//! anyone with the chat folder could have damaged): never panics, and an
//! index it accepts writes back to an equal one and can be ranked over.
#![no_main]

use libfuzzer_sys::fuzz_target;
use openclaw_context_core::search::fuzz_index_bytes;

fuzz_target!(|data: &[u8]| {
    // The first byte picks a query; the rest is the file.
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    let query = ["deploy", "staging database", "数据库", "a b c d e", ""][usize::from(pick) % 5];
    let _ = fuzz_index_bytes(bytes, query);
});
