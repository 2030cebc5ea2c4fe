//! Export, backup and verify through the core's public API: exact lines and
//! Markdown, time filters, the store's refusals (FIFO, symlink, hard link,
//! someone else's log) without hanging, a backup taken during 1,000
//! concurrent appends, and verify naming a flipped byte, a truncated file
//! and a missing chat.

#![cfg(unix)]

mod support;

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use openclaw_context_core::archive::{
    backup, export_log, export_to_file, parse_bound, verify, BackupOptions, Chat, ExportFormat,
    ExportOptions, VerifiedKind,
};
use openclaw_context_core::mask::builtin_masker;
use openclaw_context_core::persistent_chat::log::{parse_log_line, LogEntry, Role, Timestamp};
use openclaw_context_core::store::layout::{folder_name, LOG_FILE, SUMMARY_FILE};
use openclaw_context_core::store::ChatStore;
use openclaw_context_core::utf16::encode as u;
use support::{make_fifo, TempDir};

const KEY: &str = "agent:codex:acp:archive";

fn entry(n: usize, ts: &str) -> LogEntry {
    LogEntry {
        role: if n.is_multiple_of(2) {
            Role::User
        } else {
            Role::Assistant
        },
        text: u(&format!("message {n}")),
        ts: Some(Timestamp::Text(u(ts))),
        session: Some(u("s1")),
        status: None,
        id: Some(u(&format!("m{n}"))),
    }
}

/// A state dir with one chat of `lines` and its summary; the chat's folder.
fn chat_with(state: &Path, key: &str, lines: &str) -> PathBuf {
    let store = ChatStore::open_for_key(state, &u(key)).unwrap();
    fs::write(store.log_path(), lines).unwrap();
    store.replace_summary(&u("summary")).unwrap();
    store.folder().to_owned()
}

const LOG: &str = concat!(
    "{\"role\":\"user\",\"text\":\"hi\",\"ts\":\"2026-05-14T23:59:59Z\"}\n",
    "not an entry\n",
    "{\"role\":\"assistant\",\"text\":\"```\\n# not a heading\\n````\",\"ts\":\"2026-05-15T10:00:00Z\",\"status\":\"ACP_TURN_FAILED\"}\n",
    "{\"role\":\"user\",\"text\":\"late\",\"ts\":1778900000000}\n",
    "{\"role\":\"user\",\"text\":\"torn"
);

fn export(chat: &Chat, options: ExportOptions) -> (String, u64, u64) {
    let mut out = Vec::new();
    let report = export_log(chat, &options, &builtin_masker(), &mut out).unwrap();
    (
        String::from_utf8(out).unwrap(),
        report.exported,
        report.torn_bytes,
    )
}

#[test]
fn jsonl_is_the_logs_exact_whole_lines_filtered_by_time() {
    let dir = TempDir::new("export");
    let folder = chat_with(&dir.0, KEY, LOG);
    let by_key = Chat::Key {
        state_dir: dir.0.clone(),
        key: u(KEY),
    };
    let (text, exported, torn) = export(&by_key, ExportOptions::default());
    // The whole lines that are entries: the line that is none is left out.
    let whole = LOG[..LOG.rfind('\n').unwrap() + 1].replace("not an entry\n", "");
    let whole = whole.as_str();
    assert_eq!(text, whole);
    assert_eq!((exported, torn), (3, 27));
    let by_log = Chat::Log(folder.join(LOG_FILE));
    assert_eq!(export(&by_log, ExportOptions::default()).0, whole);

    let since = parse_bound("2026-05-15").unwrap();
    let until = parse_bound("1778900000000").unwrap();
    let options = ExportOptions {
        since: Some(since),
        until: Some(until),
        ..ExportOptions::default()
    };
    let (text, exported, _) = export(&by_log, options);
    assert_eq!(exported, 1);
    assert_eq!(text, whole.lines().nth(1).unwrap().to_owned() + "\n");
    let options = ExportOptions {
        since: Some(until),
        ..ExportOptions::default()
    };
    assert_eq!(
        export(&by_log, options).0,
        whole.lines().nth(2).unwrap().to_owned() + "\n"
    );
}

#[test]
fn what_an_export_carries_is_masked_and_a_clean_line_is_byte_for_byte() {
    // A log an older release, the runtime or an import wrote unmasked.
    let dir = TempDir::new("export-mask");
    let clean = "{\"role\":\"user\",\"text\":\"plain words\",\"ts\":\"2026-05-14T10:00:00Z\",\"extra\":1}\n";
    let log = format!(
        "{clean}{}{}",
        "{\"ts\":\"2026-05-14T10:01:00Z\",\"role\":\"user\",\"text\":\"deploy with ghp_abcdefghijklmnopqrstuvwxyz0123456789 now\",\"id\":\"m1\"}\n",
        "{\"ts\":\"2026-05-14T10:02:00Z\",\"role\":\"user\",\"text\":\"the vault is < private reason=x>4921-7733</private> ok\"}\n",
    );
    chat_with(&dir.0, KEY, &log);
    let chat = Chat::Key {
        state_dir: dir.0.clone(),
        key: u(KEY),
    };
    for format in [ExportFormat::Jsonl, ExportFormat::Markdown] {
        let mut out = Vec::new();
        let options = ExportOptions {
            format,
            ..ExportOptions::default()
        };
        let report = export_log(&chat, &options, &builtin_masker(), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(report.masked, 2);
        assert!(
            !text.contains("ghp_abc") && !text.contains("4921"),
            "{text}"
        );
        assert!(text.contains("[redacted:github-token]"), "{text}");
        assert!(text.contains("[redacted:private] ok"), "{text}");
        if format == ExportFormat::Jsonl {
            assert!(text.starts_with(clean), "{text}");
            assert!(text.contains("\"id\":\"m1\""), "{text}");
        }
    }
}

#[test]
fn markdown_has_days_times_roles_failures_and_fenced_text() {
    let dir = TempDir::new("export-md");
    chat_with(&dir.0, KEY, LOG);
    let chat = Chat::Key {
        state_dir: dir.0.clone(),
        key: u(KEY),
    };
    let options = ExportOptions {
        format: ExportFormat::Markdown,
        ..ExportOptions::default()
    };
    let (md, exported, _) = export(&chat, options);
    assert_eq!(exported, 3);
    assert!(
        md.contains("\n## 2026-05-14\n\n**23:59:59** user\n\n```text\nhi\n```\n"),
        "{md}"
    );
    assert!(md.contains(
        "\n## 2026-05-15\n\n**10:00:00** assistant — **failed** (status ` ACP_TURN_FAILED `)\n\n`````text\n```\n# not a heading\n````\n`````\n"
    ), "{md}");
    assert!(md.contains("\n## 2026-05-16\n"), "{md}");
    assert!(!md.contains("torn"));
}

#[test]
fn an_export_file_is_private_atomic_and_never_written_through_a_link_or_fifo() {
    let dir = TempDir::new("export-out");
    let folder = chat_with(
        &dir.0.join("state"),
        KEY,
        "{\"role\":\"user\",\"text\":\"a\"}\n",
    );
    let chat = Chat::Log(folder.join(LOG_FILE));
    let out = dir.0.join("out.jsonl");
    fs::write(&out, "old").unwrap();
    fs::set_permissions(&out, fs::Permissions::from_mode(0o644)).unwrap();
    export_to_file(&chat, &ExportOptions::default(), &builtin_masker(), &out).unwrap();
    assert_eq!(
        fs::read_to_string(&out).unwrap(),
        "{\"role\":\"user\",\"text\":\"a\"}\n"
    );
    assert_eq!(fs::metadata(&out).unwrap().mode() & 0o777, 0o600);

    let target = dir.0.join("target");
    fs::write(&target, "keep").unwrap();
    let link = dir.0.join("link.jsonl");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let err =
        export_to_file(&chat, &ExportOptions::default(), &builtin_masker(), &link).unwrap_err();
    assert_eq!(err.code(), "ENOTREGULAR");
    assert!(err.to_string().contains("link.jsonl"), "{err}");
    assert_eq!(fs::read_to_string(&target).unwrap(), "keep");
    let fifo = dir.0.join("fifo.jsonl");
    make_fifo(&fifo);
    let err =
        export_to_file(&chat, &ExportOptions::default(), &builtin_masker(), &fifo).unwrap_err();
    assert!(err.to_string().contains("FIFO"), "{err}");
    // Never into the chat's own folder: it could replace the log.
    for inside in [folder.join(LOG_FILE), folder.join("export.md")] {
        let err = export_to_file(&chat, &ExportOptions::default(), &builtin_masker(), &inside)
            .unwrap_err();
        assert!(err.to_string().contains("in the chat's folder"), "{err}");
    }
    assert_eq!(
        fs::read_to_string(folder.join(LOG_FILE)).unwrap(),
        "{\"role\":\"user\",\"text\":\"a\"}\n"
    );
    // No temp file is left behind.
    let names: Vec<_> = fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 5, "{names:?}");
}

#[test]
fn a_fifo_symlink_hard_linked_or_foreign_log_is_refused_naming_it() {
    let dir = TempDir::new("export-refused");
    let folder = chat_with(
        &dir.0.join("state"),
        KEY,
        "{\"role\":\"user\",\"text\":\"a\"}\n",
    );
    let fifo = folder.join("fifo.jsonl");
    make_fifo(&fifo);
    let link = folder.join("link.jsonl");
    std::os::unix::fs::symlink(folder.join(LOG_FILE), &link).unwrap();
    let hard = folder.join("hard.jsonl");
    fs::hard_link(folder.join(LOG_FILE), &hard).unwrap();
    for (path, words) in [(&fifo, "FIFO"), (&link, "symlink"), (&hard, "hard-linked")] {
        let err = export_log(
            &Chat::Log(path.clone()),
            &ExportOptions::default(),
            &builtin_masker(),
            &mut Vec::new(),
        )
        .unwrap_err();
        assert_eq!(err.code(), "ENOTREGULAR", "{err}");
        assert!(err.to_string().contains(words), "{err}");
        assert!(err.to_string().contains(&*path.to_string_lossy()), "{err}");
    }
    // SAFETY: geteuid cannot fail.
    if unsafe { libc::geteuid() } == 0 {
        let theirs = folder.join("theirs.jsonl");
        fs::write(&theirs, "{\"role\":\"user\",\"text\":\"a\"}\n").unwrap();
        std::os::unix::fs::lchown(&theirs, Some(4242), None).unwrap();
        let err = export_log(
            &Chat::Log(theirs),
            &ExportOptions::default(),
            &builtin_masker(),
            &mut Vec::new(),
        )
        .unwrap_err();
        assert!(err.to_string().contains("owned by uid 4242"), "{err}");
    }
    let err = export_log(
        &Chat::Key {
            state_dir: dir.0.join("state"),
            key: u("no such chat"),
        },
        &ExportOptions::default(),
        &builtin_masker(),
        &mut Vec::new(),
    )
    .unwrap_err();
    assert_eq!(err.code(), "ENOENT");
}

fn options(state: &Path, out: &Path, apply: bool) -> BackupOptions {
    BackupOptions {
        state_dir: state.to_owned(),
        session_key: None,
        out: out.to_owned(),
        apply,
    }
}

#[test]
fn a_backup_during_1000_appends_holds_every_earlier_entry_and_no_torn_line() {
    for out_name in ["backup", "backup.tar"] {
        let dir = TempDir::new("backup-race");
        let state = dir.0.join("state");
        let store = ChatStore::open_for_key(&state, &u(KEY)).unwrap();
        chat_with(
            &state,
            "agent:other",
            "{\"role\":\"user\",\"text\":\"other\"}\n",
        );
        let done = Arc::new(AtomicUsize::new(0));
        let writer = {
            let (store, done) = (store.clone(), done.clone());
            std::thread::spawn(move || {
                for n in 0..1000 {
                    store
                        .append_entry(&entry(n, "2026-05-15T10:00:00Z"), true)
                        .unwrap();
                    done.fetch_add(1, Ordering::SeqCst);
                }
            })
        };
        while done.load(Ordering::SeqCst) < 200 {
            std::thread::yield_now();
        }
        let before = done.load(Ordering::SeqCst);
        let out = dir.0.join(out_name);
        let report = backup(&options(&state, &out, true)).unwrap();
        writer.join().unwrap();
        assert!(report.written && report.refused.is_empty(), "{report:?}");
        let chat = report
            .chats
            .iter()
            .find(|c| c.folder == folder_name(&u(KEY)))
            .unwrap();
        let log = &chat.files[0];
        assert_eq!(log.name, LOG_FILE);
        let entries = log.entries.unwrap() as usize;
        assert!(entries >= before, "{entries} < {before}");
        assert_eq!(log.lines, log.entries);
        eprintln!("{out_name}: {before} appended before, {entries} copied of 1000");

        let checked = verify(&out).unwrap();
        assert_eq!(checked.problems, vec![], "{out_name}");
        assert_eq!((checked.chats, checked.files), (2, 3));
        if out_name == "backup" {
            assert_eq!(fs::metadata(&out).unwrap().mode() & 0o777, 0o700);
            let copy = out.join(&chat.folder).join(LOG_FILE);
            assert_eq!(fs::metadata(&copy).unwrap().mode() & 0o777, 0o600);
            let bytes = fs::read(&copy).unwrap();
            assert!(bytes.ends_with(b"\n"));
            for (n, line) in bytes
                .split(|b| *b == b'\n')
                .filter(|l| !l.is_empty())
                .enumerate()
            {
                let parsed = parse_log_line(line).expect("every line whole");
                assert_eq!(
                    String::from_utf16_lossy(&parsed.text),
                    format!("message {n}")
                );
            }
        } else {
            assert_eq!(fs::metadata(&out).unwrap().mode() & 0o777, 0o600);
        }
    }
}

#[test]
fn a_dry_run_writes_nothing_and_an_existing_out_is_refused() {
    let dir = TempDir::new("backup-dry");
    let state = dir.0.join("state");
    chat_with(&state, KEY, "{\"role\":\"user\",\"text\":\"a\"}\n{\"ro");
    let out = dir.0.join("b");
    let report = backup(&options(&state, &out, false)).unwrap();
    assert!(!report.written && !out.exists());
    assert_eq!(report.chats.len(), 1);
    assert_eq!(report.chats[0].files[0].left_out_bytes, 4);
    fs::create_dir(&out).unwrap();
    let err = backup(&options(&state, &out, true)).unwrap_err();
    assert_eq!(err.code(), "EEXIST");
    // Never into the state dir or a chat folder.
    let err = backup(&options(&state, &state.join("b.tar"), true)).unwrap_err();
    assert!(
        err.to_string()
            .contains("in the state dir or a chat folder"),
        "{err}"
    );
    assert_eq!(fs::read_dir(&state).unwrap().count(), 1);
}

#[test]
fn verify_names_a_flipped_byte_a_truncated_file_a_missing_chat_and_an_extra_file() {
    let dir = TempDir::new("verify");
    let state = dir.0.join("state");
    let a = chat_with(
        &state,
        "agent:a",
        "{\"role\":\"user\",\"text\":\"a\"}\n{\"role\":\"user\",\"text\":\"b\"}\n",
    );
    let b = chat_with(&state, "agent:b", "{\"role\":\"user\",\"text\":\"c\"}\n");
    let (a, b) = (
        a.file_name().unwrap().to_owned(),
        b.file_name().unwrap().to_owned(),
    );
    let out = dir.0.join("backup");
    backup(&options(&state, &out, true)).unwrap();
    assert!(verify(&out).unwrap().problems.is_empty());

    // A flipped byte in a's summary, a truncated log of a, b gone, one file too many.
    let summary = out.join(&a).join(SUMMARY_FILE);
    let mut bytes = fs::read(&summary).unwrap();
    bytes[0] ^= 1;
    fs::write(&summary, bytes).unwrap();
    let log = out.join(&a).join(LOG_FILE);
    let bytes = fs::read(&log).unwrap();
    fs::write(&log, &bytes[..bytes.len() - 5]).unwrap();
    fs::remove_dir_all(out.join(&b)).unwrap();
    fs::write(out.join(&a).join("stray.txt"), "x").unwrap();

    let checked = verify(&out).unwrap();
    assert_eq!(checked.kind, VerifiedKind::BackupFolder);
    let named = |kind: &str| -> Vec<String> {
        checked
            .problems
            .iter()
            .filter(|p| p.kind == kind)
            .map(|p| p.path.clone())
            .collect()
    };
    assert_eq!(
        named("checksum"),
        vec![summary.to_string_lossy().into_owned()]
    );
    assert_eq!(named("size"), vec![log.to_string_lossy().into_owned()]);
    assert_eq!(named("torn"), vec![log.to_string_lossy().into_owned()]);
    assert_eq!(named("entries"), vec![log.to_string_lossy().into_owned()]);
    assert_eq!(
        named("missing-chat"),
        vec![out.join(&b).to_string_lossy().into_owned()]
    );
    assert_eq!(
        named("extra"),
        vec![out
            .join(&a)
            .join("stray.txt")
            .to_string_lossy()
            .into_owned()]
    );
    assert!(checked
        .problems
        .iter()
        .any(|p| p.what.starts_with("truncated")));

    // The tar form: a flipped byte in the data is named by its entry.
    let tar = dir.0.join("backup.tar");
    backup(&options(&state, &tar, true)).unwrap();
    let mut bytes = fs::read(&tar).unwrap();
    let at = bytes.windows(3).position(|w| w == b"\"c\"").unwrap();
    bytes[at + 1] = b'd';
    fs::write(&tar, bytes).unwrap();
    let checked = verify(&tar).unwrap();
    assert_eq!(checked.kind, VerifiedKind::BackupTar);
    assert_eq!(checked.problems.len(), 1, "{:?}", checked.problems);
    assert_eq!(checked.problems[0].kind, "checksum");
    assert!(checked.problems[0]
        .path
        .ends_with(&format!("{}/{LOG_FILE}", b.to_string_lossy())));
}

#[test]
fn verify_of_a_state_dir_names_torn_unsafe_and_refused_files_without_hanging() {
    let dir = TempDir::new("verify-live");
    let state = dir.0.join("state");
    let clean = chat_with(
        &state,
        "agent:clean",
        "{\"role\":\"user\",\"text\":\"a\"}\n",
    );
    fs::set_permissions(&clean, fs::Permissions::from_mode(0o700)).unwrap();
    fs::set_permissions(clean.join(LOG_FILE), fs::Permissions::from_mode(0o600)).unwrap();
    fs::set_permissions(clean.join(SUMMARY_FILE), fs::Permissions::from_mode(0o600)).unwrap();
    let checked = verify(&state).unwrap();
    assert_eq!(checked.kind, VerifiedKind::StateDir);
    assert_eq!(checked.problems, vec![]);

    let torn = chat_with(
        &state,
        "agent:torn",
        "{\"role\":\"user\",\"text\":\"a\"}\ngarbage\n{\"ro",
    );
    let fifo = chat_with(&state, "agent:fifo", "");
    fs::remove_file(fifo.join(LOG_FILE)).unwrap();
    make_fifo(&fifo.join(LOG_FILE));
    let linked = chat_with(&state, "agent:link", "");
    fs::remove_file(linked.join(SUMMARY_FILE)).unwrap();
    std::os::unix::fs::symlink("/etc/hostname", linked.join(SUMMARY_FILE)).unwrap();
    let checked = verify(&state).unwrap();
    let has = |path: PathBuf, kind: &str| {
        checked
            .problems
            .iter()
            .any(|p| p.path == path.to_string_lossy() && p.kind == kind)
    };
    assert!(has(torn.join(LOG_FILE), "torn"), "{:?}", checked.problems);
    assert!(
        has(torn.join(LOG_FILE), "invalid-lines"),
        "{:?}",
        checked.problems
    );
    assert!(has(fifo.join(LOG_FILE), "type"), "{:?}", checked.problems);
    assert!(
        has(linked.join(SUMMARY_FILE), "type"),
        "{:?}",
        checked.problems
    );
    // And a backup leaves the refused chats out, naming them.
    let report = backup(&options(&state, &dir.0.join("b"), false)).unwrap();
    let refused: Vec<_> = report.refused.iter().map(|r| r.path.clone()).collect();
    assert_eq!(
        refused,
        vec![fifo.join(LOG_FILE), linked.join(SUMMARY_FILE)]
    );
}
