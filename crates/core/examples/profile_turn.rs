//! A fixed workload for profilers (`perf record`): `ChatStore::prepare_turn`
//! on a reload, `N` times (default 2,000), on the chat folder `FOLDER` (one
//! that `npm run bench` or a gateway made: a log and a memory state).
//! Prints the mean time per turn.

use std::path::Path;
use std::time::Instant;

use openclaw_context_core::persistent_chat::request::PromptRequest;
use openclaw_context_core::store::prepare::TurnFiles;
use openclaw_context_core::store::ChatStore;

fn units(text: &str) -> Vec<u16> {
    text.encode_utf16().collect()
}

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(folder) = args.next() else {
        eprintln!("usage: profile_turn FOLDER [N]");
        std::process::exit(2);
    };
    let rounds: u32 = args.next().and_then(|n| n.parse().ok()).unwrap_or(2_000);
    let store = match ChatStore::open_folder(Path::new(&folder), None) {
        Ok(store) => store,
        Err(err) => {
            eprintln!("profile_turn: {err}");
            std::process::exit(1);
        }
    };
    let request = PromptRequest {
        user_message: units(
            "Can you re-run the staging migration and tell me if p99 latency is back under 200 ms?",
        ),
        current_session: Some(units("a-new-backend-session")),
        recall_entries: Some(0),
        nonce: Some(units("0123456789abcdef")),
        ..PromptRequest::default()
    };
    let files = TurnFiles {
        window: 25,
        ..TurnFiles::default()
    };
    let started = Instant::now();
    for _ in 0..rounds {
        if let Err(err) = store.prepare_turn(request.clone(), &files) {
            eprintln!("profile_turn: {err}");
            std::process::exit(1);
        }
    }
    let each = started.elapsed() / rounds;
    println!("prepare_turn: {each:?} per reload turn");
}
