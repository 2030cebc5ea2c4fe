//! The perpetual log through the core's public API: parsing a line (fields,
//! aliases, wrong types, lone surrogates, CRLF, BOM) and reading a file's
//! tail (garbage, torn last lines, missing files, FIFOs, large logs).

mod support;

use std::io::Write;

use openclaw_context_core::persistent_chat::log::*;
use openclaw_context_core::utf16::encode as u;
#[cfg(unix)]
use support::make_fifo;
use support::{bare_entry, line, texts, TempDir};

#[test]
fn parses_every_field_and_alias() {
    let full = br#"{"ts":"2026-05-15T10:00:00Z","role":"assistant","text":"hi","session":"ses_1","status":"ok","id":"e1","extra":{"x":[1]}}"#;
    let parsed = parse_log_line(full).unwrap();
    assert_eq!(
        parsed,
        LogEntry {
            role: Role::Assistant,
            text: u("hi"),
            ts: Some(Timestamp::Text(u("2026-05-15T10:00:00Z"))),
            session: Some(u("ses_1")),
            status: Some(u("ok")),
            id: Some(u("e1")),
        }
    );
    let aliased = parse_log_line(
        br#"{"timestamp":1778839200000,"role":"tool","content":"out","sessionId":"s","id":7}"#,
    )
    .unwrap();
    assert_eq!(aliased.text, u("out"));
    assert_eq!(aliased.ts, Some(Timestamp::Number(1_778_839_200_000.0)));
    assert_eq!(aliased.session, Some(u("s")));
    assert_eq!(aliased.id, Some(u("7")));
    assert_eq!(aliased.role.as_str(), "tool");
    let aliased = parse_log_line(
        br#"{"role":"user","content":"via content","timestamp":"2026-05-15T09:00:00Z","sessionId":"ses_9"}"#,
    )
    .unwrap();
    assert_eq!(
        aliased,
        LogEntry {
            ts: Some(Timestamp::Text(u("2026-05-15T09:00:00Z"))),
            session: Some(u("ses_9")),
            ..bare_entry(Role::User, "via content")
        }
    );
}

#[test]
fn text_wins_over_content_and_wrong_typed_optionals_are_absent() {
    let parsed = parse_log_line(
        br#"{"role":"user","text":"a","content":"b","ts":true,"session":5,"status":null}"#,
    )
    .unwrap();
    assert_eq!(parsed, bare_entry(Role::User, "a"));
    let parsed = parse_log_line(br#"{"role":"user","text":null,"content":"b"}"#).unwrap();
    assert_eq!(parsed.text, u("b"));
}

#[test]
fn rejects_lines_that_are_not_entries() {
    for bad in [
        &br#"{"role":"user"}"#[..],
        br#"{"text":"x"}"#,
        br#"{"role":"robot","text":"x"}"#,
        br#"{"role":"User","text":"x"}"#,
        br#"{"role":"user","text":42}"#,
        br#"{"role":"user","text":["x"]}"#,
        br#"["role","user"]"#,
        br#"{"role":"user","text":"x""#,
        b"{\"role\":\"user\",\"text\":\"\xff\"}",
        b"",
    ] {
        assert_eq!(
            parse_log_line(bad),
            None,
            "{}",
            String::from_utf8_lossy(bad)
        );
    }
}

#[test]
fn lone_surrogates_round_trip_exactly() {
    // What JSON.stringify("a\uD800b\uDC00") writes.
    let parsed = parse_log_line(br#"{"role":"user","text":"a\ud800b\udc00\ud83d\ude00"}"#).unwrap();
    assert_eq!(
        parsed.text,
        vec![0x61, 0xD800, 0x62, 0xDC00, 0xD83D, 0xDE00]
    );
}

#[test]
fn crlf_and_bom_are_tolerated_and_inner_cr_kept() {
    let parsed =
        parse_log_line(b"\xEF\xBB\xBF{\"role\":\"user\",\"text\":\"a\\r\\nb\"}\r\n").unwrap();
    assert_eq!(parsed.text, u("a\r\nb"));
}

#[test]
fn timestamps_display_as_written_or_as_iso() {
    assert_eq!(Timestamp::Text(u("yesterday")).display(), u("yesterday"));
    assert_eq!(
        Timestamp::Number(1_778_839_200.0).display(),
        u("2026-05-15T10:00:00.000Z")
    );
    assert_eq!(Timestamp::Number(1e300).display(), u("1e+300"));
    assert_eq!(
        Timestamp::Text(u("2026-05-15T10:00:00Z")).epoch_ms(),
        Some(1_778_839_200_000.0)
    );
}

#[test]
fn reads_the_last_entries_oldest_first() {
    let dir = TempDir::new("log");
    let content: String = (0..100).map(line).collect();
    let path = dir.file("log.jsonl", content.as_bytes());
    let tail = read_log_tail(&path, 3).unwrap();
    assert_eq!(texts(&tail), ["message 97", "message 98", "message 99"]);
    assert_eq!(tail.skipped_lines, 0);
    assert_eq!(read_log_tail(&path, 1000).unwrap().entries.len(), 100);
    assert!(read_log_tail(&path, 0).unwrap().entries.is_empty());
}

#[test]
fn skips_and_counts_garbage_and_a_torn_last_line() {
    let dir = TempDir::new("log");
    let content = format!(
        "{}not json\n{{\"role\":\"user\"}}\n{}{{\"role\":\"user\",\"text\":\"half",
        line(1),
        line(2)
    );
    let path = dir.file("log.jsonl", content.as_bytes());
    let tail = read_log_tail(&path, 10).unwrap();
    assert_eq!(texts(&tail), ["message 1", "message 2"]);
    assert_eq!(tail.skipped_lines, 3);
    // A complete-looking last line without its newline is still torn.
    let path = dir.file(
        "log2.jsonl",
        format!("{}{}", line(1), line(2).trim_end()).as_bytes(),
    );
    let tail = read_log_tail(&path, 10).unwrap();
    assert_eq!(texts(&tail), ["message 1"]);
    assert_eq!(tail.skipped_lines, 1);
}

#[test]
fn skipped_lines_cost_no_entries_and_a_finished_line_is_an_entry() {
    let dir = TempDir::new("log");
    let content = format!(
        "{}this is not json\n{{\"role\":\"user\"\n{{\"role\":\"user\"}}\n{{\"text\":\"no role here\"}}\n\
         {{\"role\":\"robot\",\"text\":\"unknown role\"}}\n{{\"role\":\"user\",\"text\":42}}\n[1,2,3]\n\n{}\
         {{\"role\":\"user\",\"text\":\"half writ",
        line(1),
        line(2)
    );
    let path = dir.file("log.jsonl", content.as_bytes());
    // The limit counts entries: skipped lines do not use it up.
    assert_eq!(
        texts(&read_log_tail(&path, 2).unwrap()),
        ["message 1", "message 2"]
    );
    assert_eq!(
        texts(&read_log_tail(&path, 10).unwrap()),
        ["message 1", "message 2"]
    );
    // Once the writer ends the torn line, it is an entry.
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    file.write_all(b"ten\"}\n").unwrap();
    drop(file);
    assert_eq!(
        texts(&read_log_tail(&path, 10).unwrap()),
        ["message 1", "message 2", "half written"]
    );
}

#[test]
fn counts_only_lines_examined() {
    let dir = TempDir::new("log");
    let content = format!("garbage\n{}{}", line(1), line(2));
    let path = dir.file("log.jsonl", content.as_bytes());
    let tail = read_log_tail(&path, 2).unwrap();
    assert_eq!(tail.skipped_lines, 0);
    assert_eq!(read_log_tail(&path, 3).unwrap().skipped_lines, 1);
}

#[test]
fn crlf_files_read_like_lf_files() {
    let dir = TempDir::new("log");
    let content: String = (0..5).map(|n| line(n).replace('\n', "\r\n")).collect();
    let path = dir.file("log.jsonl", content.as_bytes());
    let tail = read_log_tail(&path, 5).unwrap();
    assert_eq!(tail.entries.len(), 5);
    assert_eq!(tail.skipped_lines, 0);
    // A CR or LF inside a text is kept; the newest line alone reads too.
    let content = "{\"role\":\"user\",\"text\":\"one\"}\r\n\
                   {\"role\":\"assistant\",\"text\":\"two\\r\\nlines\"}\r\n\
                   {\"role\":\"user\",\"text\":\"three\"}\r\n";
    let path = dir.file("log2.jsonl", content.as_bytes());
    let tail = read_log_tail(&path, 10).unwrap();
    assert_eq!(texts(&tail), ["one", "two\r\nlines", "three"]);
    assert_eq!(texts(&read_log_tail(&path, 1).unwrap()), ["three"]);
}

#[test]
fn empty_and_blank_files() {
    let dir = TempDir::new("log");
    for content in ["", "\n", "\n\n  \n", "  "] {
        let path = dir.file("log.jsonl", content.as_bytes());
        let tail = read_log_tail(&path, 5).unwrap();
        assert_eq!(tail, LogTail::default(), "{content:?}");
    }
}

#[test]
fn lone_surrogate_entries_survive_the_file_reader() {
    let dir = TempDir::new("log");
    let path = dir.file("log.jsonl", b"{\"role\":\"user\",\"text\":\"\\udfff\"}\n");
    assert_eq!(
        read_log_tail(&path, 1).unwrap().entries[0].text,
        vec![0xDFFF]
    );
}

#[test]
fn missing_files_throw_enoent_or_read_as_empty() {
    let dir = TempDir::new("log");
    let missing = dir.0.join("none.jsonl");
    assert_eq!(read_log_tail(&missing, 5).unwrap_err().code(), "ENOENT");
    assert_eq!(
        read_log_tail_or_empty(&missing, 5).unwrap(),
        LogTail::default()
    );
}

#[cfg(unix)]
#[test]
fn fifos_and_directories_are_refused_at_once() {
    let dir = TempDir::new("log");
    let fifo = dir.0.join("fifo.jsonl");
    make_fifo(&fifo);
    assert_eq!(read_log_tail(&fifo, 5).unwrap_err().code(), "ENOTREGULAR");
    assert_eq!(
        read_log_tail_or_empty(&fifo, 5).unwrap_err().code(),
        "ENOTREGULAR"
    );
    assert_eq!(read_log_tail(&dir.0, 0).unwrap_err().code(), "ENOTREGULAR");
}

/// Only the end is read: behind the entries lies a 4 GiB hole (a sparse
/// file), one "line" of NULs that a reader going through the file would
/// spend minutes on. No clock: a reader that read it all would hang here.
#[test]
fn large_logs_cost_what_the_tail_costs() {
    let dir = TempDir::new("log");
    let path = dir.0.join("big.jsonl");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(true)
        .open(&path)
        .unwrap();
    file.set_len(4 << 30).unwrap();
    let mut file = std::io::BufWriter::new(
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap(),
    );
    file.write_all(b"\n").unwrap();
    for n in 0..1000 {
        file.write_all(line(n).as_bytes()).unwrap();
    }
    drop(file);
    let tail = read_log_tail(&path, 5).unwrap();
    assert_eq!(
        texts(&tail),
        [
            "message 995",
            "message 996",
            "message 997",
            "message 998",
            "message 999"
        ]
    );
    assert_eq!(tail.skipped_lines, 0);
}

#[test]
fn a_read_with_an_entry_cap_holds_each_text_cut_as_the_builders_cut_it() {
    let dir = TempDir::new("log-entry-cap");
    let long = "x".repeat(3 << 20);
    let log = format!(
        "{{\"role\":\"user\",\"text\":\"{long}\"}}\n{{\"role\":\"user\",\"text\":\"short\"}}\n"
    );
    let path = dir.file("log.jsonl", log.as_bytes());
    let capped = LogReadOptions {
        max_entry_chars: Some(10),
        ..LogReadOptions::default()
    };
    let tail = read_log_tail_with_options(&path, 10, capped).unwrap();
    assert_eq!(
        texts(&tail),
        [
            format!(
                "xxxxxxxxxx \u{2026} [{} more characters cut]",
                (3 << 20) - 10
            ),
            "short".to_owned()
        ]
    );
    let whole = read_log_tail_with_options(&path, 10, LogReadOptions::default()).unwrap();
    assert_eq!(whole.entries[0].text.len(), 3 << 20);
    // The cap as a caller gives it: no cut for NaN, Infinity, <= 0; fractions round down.
    assert_eq!(entry_cap(None), None);
    assert_eq!(entry_cap(Some(f64::NAN)), None);
    assert_eq!(entry_cap(Some(f64::INFINITY)), None);
    assert_eq!(entry_cap(Some(0.0)), None);
    assert_eq!(entry_cap(Some(-1.0)), None);
    assert_eq!(entry_cap(Some(12.9)), Some(12));
    // A missing file: ENOENT, or empty when asked.
    let missing = dir.0.join("missing.jsonl");
    assert!(read_log_tail_with_options(&missing, 10, capped).is_err());
    let empty = LogReadOptions {
        empty_if_missing: true,
        ..capped
    };
    assert_eq!(
        read_log_tail_with_options(&missing, 10, empty).unwrap(),
        LogTail::default()
    );
}
