//! `verify` and `restore` judge a backup's members by one rule: a backup
//! that verify passes is one restore applies, and a member restore could
//! not write (a duplicate, a hidden or path-like name, a file of the store's
//! own, chats interleaved) is a problem for both, refused before anything is
//! written. A restored log enters through the store's in door (masked).

#![cfg(unix)]

mod support;

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use openclaw_context_core::archive::{
    backup, restore, verify, BackupOptions, RestoreAction, RestoreOptions,
};
use openclaw_context_core::mask::builtin_masker;
use openclaw_context_core::store::layout::{folder_name, LOG_FILE};
use openclaw_context_core::store::ChatStore;
use openclaw_context_core::utf16::encode as u;
use support::TempDir;

/// A tar member: its path and its bytes (`None`: a folder).
type Member = (String, Option<Vec<u8>>);

/// A state dir with two chats, backed up as a `.tar`; the tar's members.
fn backed_up(dir: &TempDir) -> Vec<Member> {
    let state = dir.0.join("state");
    for (key, text) in [("agent:a", "alpha note"), ("agent:b", "beta note")] {
        let store = ChatStore::open_for_key(&state, &u(key)).unwrap();
        fs::write(
            store.log_path(),
            format!("{{\"role\":\"user\",\"text\":\"{text}\",\"id\":\"m1\"}}\n"),
        )
        .unwrap();
    }
    let out = dir.0.join("b.tar");
    backup(&BackupOptions {
        state_dir: state,
        session_key: None,
        out: out.clone(),
        apply: true,
    })
    .unwrap();
    let mut archive = tar::Archive::new(fs::File::open(&out).unwrap());
    let mut members = Vec::new();
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        let path = entry.path().unwrap().to_string_lossy().into_owned();
        if entry.header().entry_type().is_dir() {
            members.push((path, None));
        } else {
            let mut bytes = Vec::new();
            entry.read_to_end(&mut bytes).unwrap();
            members.push((path, Some(bytes)));
        }
    }
    members
}

fn write_tar(path: &Path, members: &[Member]) {
    let mut builder = tar::Builder::new(fs::File::create(path).unwrap());
    for (name, bytes) in members {
        let mut header = tar::Header::new_gnu();
        match bytes {
            None => {
                header.set_entry_type(tar::EntryType::Directory);
                header.set_size(0);
                header.set_mode(0o700);
            }
            Some(bytes) => {
                header.set_entry_type(tar::EntryType::Regular);
                header.set_size(bytes.len() as u64);
                header.set_mode(0o600);
            }
        }
        // Names the tar crate's path setter refuses (`..`) go in raw.
        let raw = name.as_bytes();
        header.as_old_mut().name[..raw.len()].copy_from_slice(raw);
        header.set_cksum();
        builder
            .append(&header, bytes.as_deref().unwrap_or(&[]))
            .unwrap();
    }
    builder.finish().unwrap();
}

fn restore_options(from: &Path, state: &Path) -> RestoreOptions {
    RestoreOptions {
        from: from.to_owned(),
        state_dir: state.to_owned(),
        apply: true,
        force: false,
        masker: builtin_masker(),
    }
}

fn names_in(path: &Path) -> Vec<String> {
    match fs::read_dir(path) {
        Ok(list) => list
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect(),
        Err(_) => Vec::new(),
    }
}

#[test]
fn a_member_restore_could_not_write_fails_verify_and_restore_writes_nothing() {
    let dir = TempDir::new("restore-members");
    let members = backed_up(&dir);
    let a = folder_name(&u("agent:a"));
    let log_of_a = format!("{a}/{LOG_FILE}");
    let at = |name: &str| {
        members
            .iter()
            .position(|(n, _)| n.trim_end_matches('/') == name)
            .unwrap()
    };
    let manifest_at = at("manifest.json");
    // The manifest listing `folder` with `files` too: a crafted backup is
    // consistent with its own manifest.
    let listing = |members: &mut Vec<Member>, folder: &str, files: &[&str]| {
        let manifest = String::from_utf8(members[manifest_at].1.clone().unwrap()).unwrap();
        const EMPTY: &str = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
        let records: Vec<String> = files
            .iter()
            .map(|name| format!("{{\"name\":\"{name}\",\"size\":0,\"sha256\":\"{EMPTY}\"}}"))
            .collect();
        let folder_json = folder.replace('\\', "\\\\");
        let chat = format!(
            "{{\"folder\":\"{folder_json}\",\"files\":[{}]}}",
            records.join(",")
        );
        let manifest = manifest.replacen("\"chats\":[\n", &format!("\"chats\":[\n{chat},\n"), 1);
        members[manifest_at].1 = Some(manifest.into_bytes());
    };
    let mut cases: Vec<(&str, Vec<Member>)> = Vec::new();
    // The log twice, the first copy with a line more, the last as the
    // manifest says: which one is the backup's?
    let mut duplicate = members.clone();
    let mut longer = members[at(&log_of_a)].1.clone().unwrap();
    longer.extend_from_slice(b"{\"role\":\"user\",\"text\":\"sneaked in\"}\n");
    duplicate.insert(at(&log_of_a), (log_of_a.clone(), Some(longer)));
    cases.push(("duplicate", duplicate));
    for (name, folder) in [("hidden", ".hidden"), ("path-like", "x\\..\\..\\evil")] {
        let mut with = members.clone();
        listing(&mut with, folder, &[LOG_FILE]);
        with.push((format!("{folder}/"), None));
        with.push((format!("{folder}/{LOG_FILE}"), Some(Vec::new())));
        cases.push((name, with));
    }
    // A second chat folder named like one, holding the store's lock file.
    let mut lock = members.clone();
    listing(&mut lock, "c", &["chat.lock"]);
    lock.push(("c/".to_owned(), None));
    lock.push(("c/chat.lock".to_owned(), Some(Vec::new())));
    cases.push(("store file", lock));
    // Chat a's log after chat b's folder.
    let mut interleaved = members.clone();
    let moved = interleaved.remove(at(&log_of_a));
    interleaved.push(moved);
    cases.push(("interleaved", interleaved));

    for (name, tar_members) in cases {
        let tar = dir.0.join(format!("{}.tar", name.replace(' ', "-")));
        write_tar(&tar, &tar_members);
        let checked = verify(&tar).unwrap();
        assert!(!checked.problems.is_empty(), "{name}: verify passed it");
        let state = dir.0.join(format!("restored-{}", name.replace(' ', "-")));
        let report = restore(&restore_options(&tar, &state)).unwrap();
        assert!(
            !report.problems.is_empty() && report.chats.is_empty(),
            "{name}"
        );
        assert!(
            names_in(&state).is_empty(),
            "{name}: {:?}",
            names_in(&state)
        );
        assert!(
            names_in(&dir.0).iter().all(|n| !n.contains("evil")),
            "{name}: wrote outside"
        );
    }
    // The backup as written: verify passes it, and restore applies it.
    let tar = dir.0.join("as-written.tar");
    write_tar(&tar, &members);
    assert_eq!(verify(&tar).unwrap().problems, vec![]);
    let state = dir.0.join("restored");
    let report = restore(&restore_options(&tar, &state)).unwrap();
    assert!(report.problems.is_empty());
    assert!(report
        .chats
        .iter()
        .all(|c| c.action == RestoreAction::Create));
    assert_eq!(report.chats.len(), 2);
}

#[test]
fn a_backup_of_an_unmasked_log_is_restored_masked_and_then_unchanged() {
    let dir = TempDir::new("restore-mask");
    let state = dir.0.join("state");
    let store = ChatStore::open_for_key(&state, &u("agent:a")).unwrap();
    // An earlier writer's line: unmasked.
    let raw = "{\"role\":\"user\",\"text\":\"key ghp_abcdefghijklmnopqrstuvwxyz0123456789 <private>4921</private>\"}\n";
    fs::write(store.log_path(), raw).unwrap();
    let out = dir.0.join("b");
    backup(&BackupOptions {
        state_dir: state.clone(),
        session_key: None,
        out: out.clone(),
        apply: true,
    })
    .unwrap();
    let target: PathBuf = dir.0.join("restored");
    let report = restore(&restore_options(&out, &target)).unwrap();
    assert_eq!(report.chats[0].masked_lines, 1);
    let log = fs::read_to_string(target.join(folder_name(&u("agent:a"))).join(LOG_FILE)).unwrap();
    assert!(!log.contains("ghp_abc") && !log.contains("4921"), "{log}");
    assert!(log.contains("[redacted:github-token] [redacted:private]"));
    // Again: the live log is what the restore writes, so nothing changes.
    let again = restore(&restore_options(&out, &target)).unwrap();
    assert_eq!(again.chats[0].action, RestoreAction::Unchanged);
}
