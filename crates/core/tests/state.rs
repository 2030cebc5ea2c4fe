//! The memory state file through the core's public API: every list, the
//! aliases, item shapes, bad members, and files missing, empty, corrupt or
//! not regular.

mod support;

use openclaw_context_core::persistent_chat::log::Timestamp;
use openclaw_context_core::persistent_chat::state::*;
use openclaw_context_core::utf16::encode as u;
#[cfg(unix)]
use support::{make_fifo, TempDir};

#[test]
fn reads_every_list_with_aliases_and_item_shapes() {
    let state = parse_state_json(
        br#"{
          "decisions": ["use postgres", {"text": "ship friday", "at": 1}],
          "guardrails": [{"text": "never force-push"}],
          "pending_threads": ["migrate\nusers"],
          "timers": [{"name": "standup", "status": "pending", "due": "2026-05-15T10:00:00Z"},
                     {"name": "backup", "status": "done", "due": 1778839200},
                     "bare"],
          "model_notes": ["no vision"],
          "notes": ["reply in French"],
          "other": true
        }"#,
    )
    .unwrap();
    assert_eq!(state.decisions, [u("use postgres"), u("ship friday")]);
    assert_eq!(state.guardrails, [u("never force-push")]);
    assert_eq!(state.pending_threads, [u("migrate\nusers")]);
    assert_eq!(state.model_notes, [u("no vision")]);
    assert_eq!(state.notes, [u("reply in French")]);
    assert_eq!(state.timers.len(), 3);
    assert_eq!(
        state.timers[0].due,
        Some(Timestamp::Text(u("2026-05-15T10:00:00Z")))
    );
    assert_eq!(
        state.timers[1].due,
        Some(Timestamp::Number(1_778_839_200.0))
    );
    assert_eq!(state.timers[2].name, u("bare"));
}

#[test]
fn camel_case_keys_win_and_bad_members_are_left_out() {
    let state = parse_state_json(
        br#"{"pendingThreads":["a"],"pending_threads":["b"],"modelNotes":["m"],
            "decisions": "not a list", "notes": [1, null, {"x": "y"}, "kept"],
            "timers": [{"status": "pending"}, {"name": "t", "due": false}]}"#,
    )
    .unwrap();
    assert_eq!(state.pending_threads, [u("a")]);
    assert_eq!(state.model_notes, [u("m")]);
    assert!(state.decisions.is_empty());
    assert_eq!(state.notes, [u("kept")]);
    assert_eq!(state.timers.len(), 1);
    assert_eq!(state.timers[0].due, None);
}

#[test]
fn empty_null_and_lone_surrogate_states() {
    assert!(parse_state_json(b"").unwrap().is_empty());
    assert!(parse_state_json(b" \n").unwrap().is_empty());
    assert!(parse_state_json(b"null").unwrap().is_empty());
    assert!(parse_state_json(b"{}").unwrap().is_empty());
    let state = parse_state_json(br#"{"notes":["\ud800"]}"#).unwrap();
    assert_eq!(state.notes, [vec![0xD800]]);
    assert!(parse_state_json(b"[1]").is_err());
    assert!(parse_state_json(b"{")
        .unwrap_err()
        .contains("invalid JSON at byte 1"));
}

#[cfg(unix)]
#[test]
fn state_files_missing_empty_corrupt_or_not_regular() {
    let dir = TempDir::new("state");
    assert!(read_state_file_or_empty(&dir.0.join("none.json"))
        .unwrap()
        .is_empty());
    // An empty file (one being written, or a placeholder) is an empty state.
    let empty = dir.file("empty.json", b"");
    assert!(read_state_file_or_empty(&empty).unwrap().is_empty());
    let good = dir.file("good.json", br#"{"notes":["x"]}"#);
    assert_eq!(read_state_file_or_empty(&good).unwrap().notes, [u("x")]);
    let bad = dir.file("bad.json", b"{\"notes\": [");
    let err = read_state_file_or_empty(&bad).unwrap_err();
    assert_eq!(err.code(), "EINVAL");
    assert_eq!(err.path(), &*bad.to_string_lossy());
    assert!(
        err.to_string()
            .starts_with("EINVAL: memory state file is not valid"),
        "{err}"
    );
    assert_eq!(
        read_state_file_or_empty(&dir.0).unwrap_err().code(),
        "ENOTREGULAR"
    );
    let fifo = dir.0.join("fifo.json");
    make_fifo(&fifo);
    assert_eq!(
        read_state_file_or_empty(&fifo).unwrap_err().code(),
        "ENOTREGULAR"
    );
}
