//! Reads a log's tail over and over while another thread rewrites the file in
//! place (truncate, then one write of another version, as a pruning script's
//! `open(path, "w")` does) and counts entries that were never written: lines
//! glued from two versions of the file.
//!
//! Races for `REWRITE_RACE_SECONDS` (5 by default) on tmpfs when there is
//! one: there a read is copied page by page and a rewrite can land between
//! two pages of one read. A reader that only checked lines across its own
//! block reads let dozens of glued lines through a minute there.
//!
//! `REWRITE_RACE_SECONDS=120 cargo test --release -p openclaw_context_core --test rewrite_race -- --nocapture`

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use openclaw_context_core::persistent_chat::log::read_log_tail;

const VERSIONS: usize = 8;
const LINES: usize = 120;

/// Version `version` of the log: lines whose ids and texts differ between
/// versions, 10 to 8,000 chars long, so a tail spans several block reads.
fn version(version: usize) -> Vec<u8> {
    let mut seed = 0x9E37_79B9_7F4A_7C15_u64 ^ (version as u64 + 1);
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut out = String::new();
    for line in 0..LINES {
        let len = 10 + (next() % 8000) as usize;
        let filler: String = (0..len)
            .map(|k| char::from(b'a' + ((k + version * 7 + line) % 26) as u8))
            .collect();
        out.push_str(&format!(
            "{{\"role\":\"user\",\"text\":\"v{version}-{line} {filler}\",\"id\":\"v{version}-{line}\"}}\n"
        ));
    }
    out.into_bytes()
}

#[test]
fn a_log_rewritten_in_place_never_yields_an_entry_that_was_not_written() {
    let seconds: u64 = std::env::var("REWRITE_RACE_SECONDS")
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(5);
    let shm = std::path::Path::new("/dev/shm");
    let base = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    let dir = base.join(format!("occn-rewrite-race-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join("log.jsonl");
    let versions: Vec<Vec<u8>> = (0..VERSIONS).map(version).collect();
    let written: HashSet<(String, String)> = versions
        .iter()
        .flat_map(|bytes| {
            String::from_utf8_lossy(bytes)
                .lines()
                .map(id_and_text)
                .collect::<Vec<_>>()
        })
        .collect();
    std::fs::write(&path, &versions[0]).expect("first version");

    let stop = AtomicBool::new(false);
    let rewrites = AtomicUsize::new(0);
    let (mut reads, mut entries, mut skipped) = (0usize, 0usize, 0usize);
    let mut never_written = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(seconds);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut k = 1;
            while !stop.load(Ordering::Relaxed) {
                std::fs::write(&path, &versions[k % VERSIONS]).expect("rewrite");
                k += 1;
                rewrites.fetch_add(1, Ordering::Relaxed);
            }
        });
        while Instant::now() < deadline {
            let tail = read_log_tail(&path, 25).expect("read");
            reads += 1;
            skipped += tail.skipped_lines;
            for entry in &tail.entries {
                entries += 1;
                let id = String::from_utf16_lossy(entry.id.as_deref().unwrap_or(&[]));
                let text = String::from_utf16_lossy(&entry.text);
                if !written.contains(&(id.clone(), text)) {
                    never_written.push(id);
                }
            }
        }
        stop.store(true, Ordering::Relaxed);
    });
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "rewrite race on {}, {seconds} s: {reads} reads, {entries} entries, {} never written, \
         {skipped} lines skipped; {} rewrites",
        base.display(),
        never_written.len(),
        rewrites.load(Ordering::Relaxed)
    );
    assert!(entries > 0, "no entry was read");
    assert!(
        never_written.is_empty(),
        "{} entries were never written, e.g. {:?}",
        never_written.len(),
        &never_written[..never_written.len().min(3)]
    );
}

/// The id and text of a line as [`version`] writes it.
fn id_and_text(line: &str) -> (String, String) {
    let field = |name: &str| {
        line.split(&format!("\"{name}\":\""))
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap_or("")
            .to_owned()
    };
    (field("id"), field("text"))
}
