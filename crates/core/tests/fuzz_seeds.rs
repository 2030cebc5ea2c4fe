//! The fuzz targets' committed inputs, replayed by a plain `cargo test`: every
//! file of `fuzz/seeds/<target>/` (a few seeds per target, and every input a
//! fuzz run ever failed on, kept there as `crash-<sha1>`) goes through the
//! target's own `run`, the code libFuzzer runs (each target file is loaded
//! here as a module), decoded from its bytes as `fuzz_target!` decodes them.
//! The coverage corpus that fuzzing grows lives outside the checkout, in the
//! cache (`scripts/fuzz.sh`).

// Each target is a binary of its own with its own `mod digest` (the same
// file, loaded once per target here), and the targets are fuzz code with
// their own style.
#![allow(clippy::duplicate_mod, clippy::type_complexity)]

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};

use arbitrary::{Arbitrary, Unstructured};

#[path = "../../../fuzz/fuzz_targets/cap.rs"]
#[rustfmt::skip] // fuzz/ is a workspace of its own, with its own style
mod cap;
#[path = "../../../fuzz/fuzz_targets/log_line.rs"]
#[rustfmt::skip]
mod log_line;
#[path = "../../../fuzz/fuzz_targets/mask.rs"]
#[rustfmt::skip]
mod mask;
#[path = "../../../fuzz/fuzz_targets/prompt.rs"]
#[rustfmt::skip]
mod prompt;
#[path = "../../../fuzz/fuzz_targets/search_index.rs"]
#[rustfmt::skip]
mod search_index;
#[path = "../../../fuzz/fuzz_targets/store.rs"]
#[rustfmt::skip]
mod store;
#[path = "../../../fuzz/fuzz_targets/summary.rs"]
#[rustfmt::skip]
mod summary;
#[path = "../../../fuzz/fuzz_targets/tail_reader.rs"]
#[rustfmt::skip]
mod tail_reader;
#[path = "../../../fuzz/fuzz_targets/transcript_event.rs"]
#[rustfmt::skip]
mod transcript_event;

/// Every target this file replays; a target of fuzz/Cargo.toml missing here fails a test.
const TARGETS: [&str; 9] = [
    "cap",
    "log_line",
    "mask",
    "prompt",
    "search_index",
    "store",
    "summary",
    "tail_reader",
    "transcript_event",
];

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

/// The committed inputs of `target`, by name; at least one.
fn seeds(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let dir = fuzz_dir().join("seeds").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|err| panic!("{}: {err}", dir.display()))
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} holds no seed", dir.display());
    files
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap();
            (path, bytes)
        })
        .collect()
}

/// Runs `run` on one input, naming the file when it fails.
fn run_one(path: &Path, run: impl FnOnce()) {
    if catch_unwind(AssertUnwindSafe(run)).is_err() {
        panic!("{} fails its target (see the panic above)", path.display());
    }
}

/// Each seed of `target`, decoded as libfuzzer-sys's `fuzz_target!` decodes a
/// typed input (too short for the type, or not decodable: not run, as there).
/// Returns how many ran.
fn replay<T: for<'a> Arbitrary<'a>>(target: &str, run: fn(T)) -> usize {
    let mut ran = 0;
    for (path, bytes) in seeds(target) {
        if bytes.len() < T::size_hint(0).0 {
            continue;
        }
        let Ok(input) = T::arbitrary_take_rest(Unstructured::new(&bytes)) else {
            continue;
        };
        run_one(&path, || run(input));
        ran += 1;
    }
    ran
}

#[test]
fn cap_seeds() {
    assert!(replay("cap", cap::run) > 0);
}

#[test]
fn log_line_seeds() {
    for (path, bytes) in seeds("log_line") {
        run_one(&path, || log_line::run(&bytes));
    }
}

#[test]
fn mask_seeds() {
    for (path, bytes) in seeds("mask") {
        run_one(&path, || mask::run(&bytes));
    }
}

#[test]
fn search_index_seeds() {
    for (path, bytes) in seeds("search_index") {
        run_one(&path, || search_index::run(&bytes));
    }
}

#[test]
fn store_seeds() {
    assert!(replay("store", store::run) > 0);
}

#[test]
fn prompt_seeds() {
    assert!(replay("prompt", prompt::run) > 0);
}

#[test]
fn summary_seeds() {
    assert!(replay("summary", summary::run) > 0);
}

#[test]
fn tail_reader_seeds() {
    assert!(replay("tail_reader", tail_reader::run) > 0);
}

#[test]
fn transcript_event_seeds() {
    for (path, bytes) in seeds("transcript_event") {
        run_one(&path, || transcript_event::run(&bytes));
    }
}

/// Every target of fuzz/Cargo.toml is replayed here, and every seed folder is a target's.
#[test]
fn every_target_is_replayed() {
    let manifest = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).unwrap();
    let mut bins: Vec<&str> = manifest
        .split("[[bin]]")
        .skip(1)
        .filter_map(|bin| {
            let line = bin
                .lines()
                .find(|line| line.trim_start().starts_with("name"))?;
            line.split('"').nth(1)
        })
        .collect();
    bins.sort_unstable();
    assert_eq!(
        bins, TARGETS,
        "fuzz/Cargo.toml's targets: add each to this file"
    );
    let mut folders: Vec<String> = std::fs::read_dir(fuzz_dir().join("seeds"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort_unstable();
    assert_eq!(folders, TARGETS, "fuzz/seeds/ holds a folder per target");
}
