//! The shape the store's guarantees rest on, checked in the source: one
//! atomic replace (a temp file or folder, written, synced, renamed) in
//! `store/replace.rs`, over the platform layer (`store/sys.rs`); no other
//! module names a temp file, syncs a file or renames one. A second copy of
//! the sequence is where a rule (the temp name a dead process's clean-up
//! knows, the sync before the rename, the removal on failure) goes missing.

use std::fs;
use std::path::{Path, PathBuf};

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without its comments and its tests.
fn code(path: &Path) -> String {
    let text = fs::read_to_string(path).unwrap();
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether `line` calls `primitive` (not a longer name ending with it).
fn calls(line: &str, primitive: &str) -> bool {
    line.match_indices(primitive).any(|(at, _)| {
        primitive.starts_with('.')
            || !line[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
    })
}

#[test]
fn one_atomic_replace_in_the_core() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    let allowed = ["store/replace.rs", "store/sys.rs"];
    let mut found = Vec::new();
    for path in &files {
        let name = path
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if allowed.contains(&name.as_str()) {
            continue;
        }
        let code = code(path);
        for primitive in [
            "temp_name(",
            "rename_path(",
            ".sync_all(",
            "sync_data(",
            ".rename(",
        ] {
            for (number, line) in code.lines().enumerate() {
                // The one rename that is no replace: an earlier release's
                // chat folder renamed to its new name (`StateDir::rename`).
                if calls(line, primitive) && !line.contains("state.rename(") {
                    found.push(format!("{name}:{}: {}", number + 1, line.trim()));
                }
            }
        }
    }
    // The append's fdatasync is the append's own (store/append.rs).
    found.retain(|line| !line.starts_with("store/append.rs:") || !line.contains("sync_data("));
    assert!(
        found.is_empty(),
        "outside store/replace.rs:\n{}",
        found.join("\n")
    );
}
