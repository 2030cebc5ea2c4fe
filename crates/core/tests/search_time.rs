//! Time in the search: a query's time words ("yesterday", "in May", "last
//! week", "2026-05-14", "3 days ago", "before May 10") lift the entries of
//! that time, read at the caller's `now` in the caller's time zone; a query
//! of time words alone gives the entries of that time; an entry without a
//! time is never dropped for a time word; ties go to the nearer date; the
//! recall of a reload reads the live message's time words at the turn's time.

mod support;

use std::path::{Path, PathBuf};

use openclaw_context_core::persistent_chat::request::PromptRequest;
use openclaw_context_core::search::{search_log, SearchHit, SearchOptions, Zone};
use openclaw_context_core::store::prepare::TurnFiles;
use openclaw_context_core::store::ChatStore;
use openclaw_context_core::utf16::encode as u;
use support::TempDir;

/// Thursday 2026-05-14, 09:00 UTC.
const NOW: i64 = 1_778_749_200_000;
const HOUR: i64 = 3_600_000;
const DAY: i64 = 24 * HOUR;

fn iso(ms: i64) -> String {
    let days = ms.div_euclid(DAY);
    // Civil from days (Hinnant), for the test's own timestamps.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    let in_day = ms.rem_euclid(DAY);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        in_day / HOUR,
        in_day / 60_000 % 60,
        in_day / 1000 % 60
    )
}

/// A log line; `at` `None`: no `ts`.
fn line(id: &str, text: &str, at: Option<i64>) -> String {
    let ts = at.map_or(String::new(), |ms| format!(",\"ts\":\"{}\"", iso(ms)));
    format!("{{\"role\":\"user\",\"text\":\"{text}\",\"id\":\"{id}\"{ts}}}\n")
}

fn log(dir: &TempDir, lines: &[String]) -> PathBuf {
    dir.file("perpetual-log.jsonl", lines.concat().as_bytes())
}

fn options(zone: Zone) -> SearchOptions {
    SearchOptions {
        now_ms: Some(NOW),
        zone,
        ..SearchOptions::default()
    }
}

fn search(path: &Path, query: &str, options: &SearchOptions) -> Vec<SearchHit> {
    search_log(path, &u(query), options).unwrap()
}

fn ids(hits: &[SearchHit]) -> Vec<String> {
    hits.iter()
        .map(|hit| String::from_utf16(hit.entry.id.as_ref().unwrap()).unwrap())
        .collect()
}

/// The same text on several days, oldest first, with routine entries between.
fn same_text_on(days_before_now: &[i64], text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    for (n, back) in days_before_now.iter().enumerate() {
        let at = NOW - back * DAY;
        lines.push(line(&format!("d{back}"), text, Some(at)));
        lines.push(line(
            &format!("r{n}"),
            "routine note about lunch",
            Some(at + 60_000),
        ));
    }
    lines
}

#[test]
fn yesterday_ranks_yesterday_s_entry_first_among_equal_matches() {
    let dir = TempDir::new("search-time");
    // Newest last: without a time word the newest would win the tie.
    let path = log(
        &dir,
        &same_text_on(&[20, 8, 1, 0], "the staging database moved"),
    );
    let hits = search(
        &path,
        "what did we decide yesterday about the staging database",
        &options(Zone::UTC),
    );
    assert_eq!(ids(&hits)[0], "d1");
    // Without a time word, the newest of the equals.
    assert_eq!(
        ids(&search(&path, "staging database", &options(Zone::UTC)))[0],
        "d0"
    );
    // Without `now`, "yesterday" is no time word (and found in no entry: ignored).
    let timeless = SearchOptions::default();
    assert_eq!(
        ids(&search(&path, "yesterday staging database", &timeless))[0],
        "d0"
    );
}

#[test]
fn in_may_prefers_may_s_entries() {
    let dir = TempDir::new("search-time");
    // 2026-05-14 minus 100 days is February; minus 10, May 4; minus 40, April 4.
    let path = log(
        &dir,
        &same_text_on(&[100, 10, 40], "the payment webhook retries"),
    );
    let hits = search(
        &path,
        "what happened in May with the payment webhook",
        &options(Zone::UTC),
    );
    assert_eq!(ids(&hits)[0], "d10");
    // "May 2026", "2026-05-04" and "last month" name days too.
    assert_eq!(
        ids(&search(
            &path,
            "payment webhook May 2026",
            &options(Zone::UTC)
        ))[0],
        "d10"
    );
    assert_eq!(
        ids(&search(
            &path,
            "payment webhook on 2026-05-04",
            &options(Zone::UTC)
        ))[0],
        "d10"
    );
    assert_eq!(
        ids(&search(
            &path,
            "payment webhook last month",
            &options(Zone::UTC)
        ))[0],
        "d40"
    );
    // "may" as a verb is no time word: the newest of the equals.
    assert_eq!(
        ids(&search(
            &path,
            "the payment webhook may fail",
            &options(Zone::UTC)
        ))[0],
        "d40"
    );
}

#[test]
fn a_better_text_match_outside_the_span_still_ranks() {
    let dir = TempDir::new("search-time");
    let lines = vec![
        line("new", "lunch was good", Some(NOW - DAY)),
        line(
            "old",
            "the payment webhook retries with backoff, decided by the payment team for the webhook",
            Some(NOW - 30 * DAY),
        ),
        line("mid", "the webhook", Some(NOW - DAY)),
    ];
    let path = log(&dir, &lines);
    let hits = search(
        &path,
        "payment webhook retries backoff yesterday",
        &options(Zone::UTC),
    );
    // A lift, not a filter: the entry of yesterday that does not match is no hit,
    // the old entry that matches well still is.
    assert!(ids(&hits).contains(&"old".to_owned()), "{:?}", ids(&hits));
    assert!(!ids(&hits).contains(&"new".to_owned()));
}

#[test]
fn a_date_in_another_time_zone_falls_on_its_day() {
    let dir = TempDir::new("search-time");
    // 02:00 UTC on May 13 is 22:00 on May 12 in New York (EDT, -4);
    // 15:00 UTC on May 12 is 11:00 on May 12 there.
    let lines = vec![
        line("late", "deploy notes", Some(NOW - DAY - 7 * HOUR)),
        line("early", "deploy notes", Some(NOW - 2 * DAY + 6 * HOUR)),
        line("filler", "nothing here", Some(NOW)),
    ];
    let path = log(&dir, &lines);
    let new_york = Zone::parse("America/New_York").unwrap();
    // In UTC "May 13" is the late one's day.
    assert_eq!(
        ids(&search(&path, "deploy notes May 13", &options(Zone::UTC)))[0],
        "late"
    );
    let hits = search(&path, "deploy notes May 12", &options(new_york.clone()));
    assert_eq!(hits[0].score, hits[1].score, "both on May 12 in New York");
    // At 05:00 in New York on May 14 "yesterday" is May 13 there: neither entry's day.
    let in_new_york = search(&path, "deploy notes yesterday", &options(new_york));
    let in_utc = search(&path, "deploy notes yesterday", &options(Zone::UTC));
    assert_eq!(ids(&in_utc)[0], "late");
    assert!(in_new_york[0].score < in_utc[0].score);
    // A fixed offset (minutes east of UTC) reads the same days as the zone in May.
    let fixed = Zone::fixed_minutes(-240).unwrap();
    let hits = search(&path, "deploy notes May 12", &options(fixed));
    assert_eq!(hits[0].score, hits[1].score);
}

#[test]
fn an_entry_without_time_is_not_dropped() {
    let dir = TempDir::new("search-time");
    let lines = vec![
        line("untimed", "the invoice export failed", None),
        line("garbled", "the invoice export failed", None)
            .replace("\"id\"", "\"ts\":\"not a time\",\"id\""),
        line("old", "the invoice export failed", Some(NOW - 300 * DAY)),
        line("filler", "nothing here", Some(NOW)),
    ];
    let path = log(&dir, &lines);
    let hits = ids(&search(
        &path,
        "invoice export yesterday",
        &options(Zone::UTC),
    ));
    assert!(hits.contains(&"untimed".to_owned()), "{hits:?}");
    assert!(hits.contains(&"garbled".to_owned()), "{hits:?}");
    assert!(hits.contains(&"old".to_owned()), "{hits:?}");
}

#[test]
fn ties_go_to_the_nearer_date() {
    let dir = TempDir::new("search-time");
    // The same text on 2025-05-14, 2026-04-04, 2026-05-08 and 2026-05-11.
    let path = log(
        &dir,
        &same_text_on(&[365, 40, 6, 3], "the release checklist"),
    );
    // The routine entry after each takes its share: only the matches are compared.
    let matches = |query: &str| -> Vec<String> {
        let hits = ids(&search(&path, query, &options(Zone::UTC)));
        hits.into_iter().filter(|id| id.starts_with('d')).collect()
    };
    // "in May" (asked on May 14): this May. Its two entries tie (the newer
    // first); then April 4, 27 days before it, above last year's May.
    assert_eq!(
        matches("release checklist in May"),
        ["d3", "d6", "d40", "d365"]
    );
    // Neither is yesterday: three days back is nearer than six.
    assert_eq!(matches("release checklist yesterday")[..2], ["d3", "d6"]);
    // "before May 5": the two before it, newer first, then the nearest after it.
    assert_eq!(
        matches("release checklist before May 5")[..3],
        ["d40", "d365", "d6"]
    );
}

#[test]
fn a_query_of_time_words_alone_gives_the_entries_of_that_time() {
    let dir = TempDir::new("search-time");
    let lines = vec![
        line("a", "first thing", Some(NOW - DAY)),
        line("b", "second thing", Some(NOW - DAY + HOUR)),
        line("c", "today's thing", Some(NOW)),
        line("d", "no time", None),
        line("e", "last week's thing", Some(NOW - 7 * DAY)),
    ];
    let path = log(&dir, &lines);
    assert_eq!(
        ids(&search(
            &path,
            "what happened yesterday?",
            &options(Zone::UTC)
        )),
        ["b", "a"]
    );
    assert_eq!(
        ids(&search(
            &path,
            "What did we talk about last week",
            &options(Zone::UTC)
        )),
        ["e"]
    );
    assert_eq!(
        ids(&search(&path, "2026-05-14", &options(Zone::UTC))),
        ["c"]
    );
    // A word found nowhere beside the time words: nothing, as without them.
    assert!(search(&path, "zyzzyva yesterday", &options(Zone::UTC)).is_empty());
}

#[test]
fn before_and_after_an_event_found_in_the_log() {
    let dir = TempDir::new("search-time");
    let lines = vec![
        line(
            "plan-old",
            "the release checklist plan",
            Some(NOW - 20 * DAY),
        ),
        line("coffee", "coffee", Some(NOW - 20 * DAY + 60_000)),
        line(
            "event",
            "We finished the datacenter migration today.",
            Some(NOW - 10 * DAY),
        ),
        line(
            "plan-new",
            "the release checklist plan",
            Some(NOW - 5 * DAY),
        ),
        line("other", "lunch", Some(NOW - DAY)),
    ];
    let path = log(&dir, &lines);
    let first = |query: &str| ids(&search(&path, query, &options(Zone::UTC)))[0].clone();
    assert_eq!(
        first("release checklist before the datacenter migration"),
        "plan-old"
    );
    assert_eq!(
        first("release checklist after the datacenter migration"),
        "plan-new"
    );
    // Without the event, the newer of the equals.
    assert_eq!(first("release checklist"), "plan-new");
    // The event's words are no text terms: the event's own entry is no hit.
    let hits = ids(&search(
        &path,
        "release checklist before the datacenter migration",
        &options(Zone::UTC),
    ));
    assert!(!hits.contains(&"event".to_owned()), "{hits:?}");
    // Time words alone: the entries before it, newest first.
    assert_eq!(
        ids(&search(
            &path,
            "what happened before the datacenter migration?",
            &options(Zone::UTC)
        )),
        ["coffee", "plan-old"]
    );
    // An event found nowhere lifts nothing.
    assert_eq!(first("release checklist before the zeppelin"), "plan-new");
}

#[test]
fn recall_reads_the_live_message_s_time_words_at_the_turn_s_time() {
    let dir = TempDir::new("search-time-recall");
    let store = ChatStore::open_for_key(&dir.0, &u("agent:codex:acp:time")).unwrap();
    let mut body = String::new();
    for n in 0..300i64 {
        let (text, at) = match n {
            // 2026-05-03T02:00Z.
            40 => (
                "Decision on the staging database: MySQL 8 stays.",
                NOW - 271 * HOUR,
            ),
            // 2026-05-11T20:00Z: May 11 in Los Angeles too (13:00 PDT).
            200 => (
                "Decision on the staging database: SQLite for now.",
                NOW - 61 * HOUR,
            ),
            // 2026-05-12T10:00Z: 03:00 PDT, May 12 in Los Angeles too.
            250 => (
                "Decision on the staging database: Postgres 16.",
                NOW - 47 * HOUR,
            ),
            _ => ("routine note about the build", NOW - (300 - n) * HOUR),
        };
        body.push_str(&line(&format!("m{n}"), text, Some(at)));
    }
    std::fs::write(store.log_path(), body).unwrap();
    let recalled = |now_ms: i64, zone: Zone| {
        let request = PromptRequest {
            user_message: u("What did we decide yesterday about the staging database?"),
            current_session: Some(u("s2")),
            nonce: Some(u("7f3a9c2e41b05d18")),
            recall_entries: Some(1),
            ..PromptRequest::default()
        };
        let files = TurnFiles {
            window: 25,
            now_ms: Some(now_ms),
            zone,
            ..TurnFiles::default()
        };
        store
            .prepare_turn(request, &files)
            .unwrap()
            .report
            .recalled_lines
    };
    // A turn at 2026-05-13T02:00Z: yesterday is May 12 in UTC, May 11 in
    // Los Angeles (where it is 19:00 on May 12).
    let turn = NOW - 31 * HOUR;
    assert_eq!(recalled(turn, Zone::UTC), [251]);
    assert_eq!(
        recalled(turn, Zone::parse("America/Los_Angeles").unwrap()),
        [201]
    );
    // A turn on May 4: yesterday is May 3.
    assert_eq!(recalled(NOW - 10 * DAY, Zone::UTC), [41]);
}
