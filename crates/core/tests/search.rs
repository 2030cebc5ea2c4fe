//! The search over a perpetual log: tokenisation per script, ranking, the
//! index as a derived cache (every kind of damage rebuilt), a log changed
//! underneath, a writer appending meanwhile, hostile lines, windows.

mod support;

use std::fs::OpenOptions;
use std::io::Write;
use std::path::{Path, PathBuf};

use openclaw_context_core::mask::builtin_masker;
use openclaw_context_core::persistent_chat::Links;
use openclaw_context_core::search::{
    read_log_window, search_log, search_log_or_empty, search_open_log, IndexBeside, SearchHit,
    SearchOptions, Window, WindowAt, INDEX_SUFFIX,
};
use openclaw_context_core::utf16::encode as u;
use support::TempDir;

fn entry(role: &str, text: &str, id: &str) -> String {
    let text = text.replace('\\', "\\\\").replace('"', "\\\"");
    format!("{{\"role\":\"{role}\",\"text\":\"{text}\",\"id\":\"{id}\",\"ts\":\"2026-03-01T10:00:00Z\",\"session\":\"s1\"}}\n")
}

fn log_of(dir: &TempDir, texts: &[(&str, &str)]) -> PathBuf {
    let mut body = String::new();
    for (n, (role, text)) in texts.iter().enumerate() {
        body.push_str(&entry(role, text, &format!("m{n}")));
    }
    dir.file("perpetual-log.jsonl", body.as_bytes())
}

fn search(path: &Path, query: &str) -> Vec<SearchHit> {
    search_log(path, &u(query), &SearchOptions::default()).unwrap()
}

fn ids(hits: &[SearchHit]) -> Vec<String> {
    hits.iter()
        .map(|hit| String::from_utf16(hit.entry.id.as_ref().unwrap()).unwrap())
        .collect()
}

fn index_path(log: &Path) -> PathBuf {
    let mut path = log.as_os_str().to_owned();
    path.push(INDEX_SUFFIX);
    path.into()
}

fn filler(n: usize) -> Vec<(&'static str, String)> {
    (0..n)
        .map(|i| {
            let role = if i % 2 == 0 { "user" } else { "assistant" };
            (
                role,
                format!("routine note {i} about the build and the weekly sync"),
            )
        })
        .collect()
}

fn owned_log(dir: &TempDir, texts: &[(&str, String)]) -> PathBuf {
    let borrowed: Vec<(&str, &str)> = texts.iter().map(|(r, t)| (*r, t.as_str())).collect();
    log_of(dir, &borrowed)
}

#[test]
fn latin_text_matches_without_case_or_accents() {
    let dir = TempDir::new("search");
    let log = log_of(
        &dir,
        &[
            ("user", "We met at the Café Rosé in Zürich"),
            ("assistant", "Noted."),
            ("user", "Nothing else today"),
        ],
    );
    assert_eq!(ids(&search(&log, "cafe ROSE zurich")), ["m0", "m1"]);
    assert_eq!(ids(&search(&log, "ZÜRICH")), ["m0", "m1"]);
}

#[test]
fn a_two_character_chinese_query_finds_its_entry() {
    let dir = TempDir::new("search");
    let log = log_of(
        &dir,
        &[
            ("user", "我们决定把数据库迁移到新的服务器"),
            ("assistant", "好的"),
            ("user", "明天下午开会讨论预算"),
            ("assistant", "收到"),
        ],
    );
    let hits = search(&log, "迁移");
    assert_eq!(ids(&hits)[0], "m0");
    assert_eq!(ids(&search(&log, "预算")[..1]), ["m2"]);
    // One character alone is a term too.
    assert_eq!(ids(&search(&log, "库")[..1]), ["m0"]);
    // A pair that occurs nowhere finds nothing, though its characters do occur.
    assert!(search(&log, "库明").is_empty());
}

#[test]
fn a_query_of_a_hundred_thousand_terms_takes_time_linear_in_them() {
    let dir = TempDir::new("search");
    let log = log_of(
        &dir,
        &[
            ("user", "我们决定把数据库迁移到新的服务器"),
            ("user", "the staging database moves to Postgres"),
            ("user", "unrelated words here"),
        ],
    );
    // Distinct words, then distinct Chinese characters (each with its pairs):
    // comparing each term with the others took minutes at this size.
    let words: String = (0..100_000).map(|i| format!("w{i:x}q ")).collect();
    let chinese: String = (0..100_000u32)
        .map(|i| char::from_u32(0x4E00 + (i * 7919) % 20_000).unwrap_or('中'))
        .collect();
    for (query, id) in [
        (format!("{words} staging"), "m1"),
        (format!("{chinese} 迁移"), "m0"),
    ] {
        let started = std::time::Instant::now();
        let hits = search(&log, &query);
        assert!(
            started.elapsed() < std::time::Duration::from_secs(10),
            "{:?}",
            started.elapsed()
        );
        assert!(ids(&hits).contains(&id.to_owned()), "{:?}", ids(&hits));
    }
}

#[test]
fn japanese_thai_and_emoji() {
    let dir = TempDir::new("search");
    let log = log_of(
        &dir,
        &[
            ("user", "東京でテストを実行しました"),
            ("user", "ภาษาไทยง่ายนิดเดียว"),
            ("user", "🚀 launch day 🎉 is Friday"),
            ("user", "unrelated words here"),
        ],
    );
    assert_eq!(ids(&search(&log, "テスト")[..1]), ["m0"]);
    assert_eq!(ids(&search(&log, "東京")[..1]), ["m0"]);
    assert_eq!(ids(&search(&log, "ไทย")[..1]), ["m1"]);
    assert_eq!(ids(&search(&log, "🚀 LAUNCH")[..1]), ["m2"]);
    assert!(search(&log, "🚀🎉").is_empty(), "emoji alone are no words");
}

#[test]
fn stems_stop_words_and_wordless_queries() {
    let dir = TempDir::new("search");
    let log = log_of(
        &dir,
        &[
            ("user", "We deployed the migrations yesterday"),
            ("assistant", "ok"),
            ("user", "and then there was the other thing"),
        ],
    );
    assert_eq!(ids(&search(&log, "deploying migration")[..1]), ["m0"]);
    assert!(search(&log, "the and then there").is_empty());
    assert!(search(&log, "").is_empty());
    assert!(search(&log, "  ?!…  ").is_empty());
    // Words found nowhere are ignored, not fatal.
    assert_eq!(ids(&search(&log, "deployment zyzzyva")[..1]), ["m0"]);
}

#[test]
fn ranking_prefers_rare_words_and_brings_the_answer_after_the_question() {
    let dir = TempDir::new("search");
    let mut texts = filler(40);
    texts[10] = (
        "user",
        "what should we do about the flaky payment webhook?".into(),
    );
    texts[11] = (
        "assistant",
        "Decision: retry three times with backoff, then page Maria.".into(),
    );
    texts[30] = ("user", "the webhook docs are in the wiki".into());
    let log = owned_log(&dir, &texts);
    let hits = search(&log, "payment webhook");
    assert_eq!(ids(&hits)[..2], ["m10", "m11"]);
    assert!(hits[0].score > hits[1].score);
    assert!(hits.windows(2).all(|pair| pair[0].score >= pair[1].score));
    assert_eq!(hits[0].line, 11);
    assert_eq!(hits[0].entry.session.as_deref(), Some(&u("s1")[..]));
    // A limit is kept.
    let options = SearchOptions {
        limit: 1,
        ..SearchOptions::default()
    };
    assert_eq!(search_log(&log, &u("webhook"), &options).unwrap().len(), 1);
}

#[test]
fn excerpts_are_bounded_and_around_the_match() {
    let dir = TempDir::new("search");
    let long = format!(
        "{} the kestrel plan {}",
        "lorem ipsum ".repeat(300),
        "dolor sit ".repeat(300)
    );
    let log = log_of(&dir, &[("user", &long), ("user", "short kestrel")]);
    let options = SearchOptions {
        excerpt_chars: 80,
        ..SearchOptions::default()
    };
    let hits = search_log(&log, &u("kestrel"), &options).unwrap();
    assert_eq!(hits.len(), 2);
    for hit in &hits {
        assert!(hit.entry.text.len() <= 80);
        assert!(String::from_utf16(&hit.entry.text)
            .unwrap()
            .contains("kestrel"));
    }
}

#[test]
fn the_index_is_written_private_and_reused_and_deleting_it_loses_nothing() {
    let dir = TempDir::new("search");
    let log = owned_log(&dir, &filler(50));
    let first = search(&log, "note 7");
    let index = index_path(&log);
    let written = std::fs::read(&index).unwrap();
    assert!(written.starts_with(b"OCCNSRCH"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&index).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    std::fs::remove_file(&index).unwrap();
    assert_eq!(search(&log, "note 7"), first);
}

/// Each kind of damage to the index file: the next search in a fresh
/// process (a new log path, so this process's cache does not hold it) reads
/// it, sees the damage, rebuilds, and answers as an undamaged index.
#[test]
fn a_damaged_index_is_rebuilt() {
    type Damage = Box<dyn Fn(&mut Vec<u8>)>;
    let damages: Vec<(&str, Damage)> = vec![
        (
            "truncated",
            Box::new(|b: &mut Vec<u8>| b.truncate(b.len() / 2)),
        ),
        ("empty", Box::new(|b: &mut Vec<u8>| b.clear())),
        (
            "flipped byte",
            Box::new(|b: &mut Vec<u8>| {
                let at = b.len() / 3;
                b[at] ^= 0x40
            }),
        ),
        (
            "foreign version",
            Box::new(|b: &mut Vec<u8>| b[8] = b[8].wrapping_add(1)),
        ),
        (
            "garbage",
            Box::new(|b: &mut Vec<u8>| b.iter_mut().for_each(|x| *x = 0xA5)),
        ),
        (
            "appended",
            Box::new(|b: &mut Vec<u8>| b.extend_from_slice(b"tail")),
        ),
    ];
    for (what, damage) in damages {
        let dir = TempDir::new("search-damage");
        let mut texts = filler(60);
        texts[20] = ("user", "the osprey deadline is Friday".into());
        let log = owned_log(&dir, &texts);
        let expected = search(&log, "osprey deadline");
        // Move the log and its index to a path this process has not cached.
        let moved = dir.0.join("moved.jsonl");
        std::fs::rename(&log, &moved).unwrap();
        let mut bytes = std::fs::read(index_path(&log)).unwrap();
        std::fs::remove_file(index_path(&log)).unwrap();
        damage(&mut bytes);
        std::fs::write(index_path(&moved), &bytes).unwrap();
        assert_eq!(search(&moved, "osprey deadline"), expected, "{what}");
        let rebuilt = std::fs::read(index_path(&moved)).unwrap();
        assert!(rebuilt.starts_with(b"OCCNSRCH"), "{what}: rewritten");
        assert_ne!(rebuilt, bytes, "{what}");
    }
}

#[test]
fn a_log_rewritten_underneath_is_never_answered_from_the_old_index() {
    let dir = TempDir::new("search");
    let mut texts = filler(80);
    texts[5] = ("user", "the albatross contract is signed".into());
    let log = owned_log(&dir, &texts);
    assert_eq!(ids(&search(&log, "albatross")), ["m5", "m6"]);
    // Shorter, another prefix.
    std::fs::write(&log, entry("user", "a pelican arrived", "p0")).unwrap();
    assert!(search(&log, "albatross").is_empty());
    assert_eq!(ids(&search(&log, "pelican")), ["p0"]);
    // Longer, another prefix.
    let mut texts = filler(200);
    texts[150] = ("user", "the heron budget".into());
    let body: String = texts
        .iter()
        .enumerate()
        .map(|(n, (r, t))| entry(r, t, &format!("h{n}")))
        .collect();
    std::fs::write(&log, body).unwrap();
    assert!(search(&log, "pelican").is_empty());
    assert_eq!(ids(&search(&log, "heron")), ["h150", "h151"]);
}

#[test]
fn an_index_of_a_log_a_rewrite_replaced_meanwhile_is_not_left_beside_the_new_one() {
    // A search by path holds no chat lock: a forget can rename its rewritten
    // log over the path while the search still reads the old one. The index
    // of the old log (the forgotten words) must not stay in the folder.
    let dir = TempDir::new("search-replaced");
    let path = log_of(
        &dir,
        &[
            ("user", "the launch codename is bluebird"),
            ("assistant", "noted, the plan stands"),
        ],
    );
    let old = std::fs::File::open(&path).unwrap();
    let rewritten = dir.file(
        "rewritten",
        entry("assistant", "noted, the plan stands", "m1").as_bytes(),
    );
    std::fs::rename(&rewritten, &path).unwrap();
    let index = IndexBeside::for_log(&path, Links::Refuse);
    let hits = search_open_log(
        &old,
        &index,
        &u("bluebird"),
        &SearchOptions::default(),
        &builtin_masker(),
    )
    .unwrap();
    assert_eq!(
        ids(&hits)[0],
        "m0",
        "answered from the log the caller opened"
    );
    let mut names: Vec<_> = std::fs::read_dir(&dir.0)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["perpetual-log.jsonl"], "no index, no temp file");
    // The log the path names gets its index, and the forgotten word is gone.
    assert!(search(&path, "bluebird").is_empty());
    assert!(index_path(&path).exists());
}

#[test]
fn a_symlinked_log_searched_with_links_followed_keeps_its_index() {
    // The default (`refuseLinks` off) follows a link at the log's path; the
    // index beside the link is kept for the next process, as for any log.
    let dir = TempDir::new("search-linked");
    let log = owned_log(&dir, &filler(5));
    let linked = dir.0.join("linked.jsonl");
    std::os::unix::fs::symlink(&log, &linked).unwrap();
    assert!(!search(&linked, "note").is_empty());
    assert!(index_path(&linked).exists());
}

#[test]
fn a_rewrite_that_keeps_both_ends_is_caught_by_the_hit_check() {
    let dir = TempDir::new("search");
    let mut texts = filler(400);
    texts[200] = ("user", "the condor plan".into());
    let log = owned_log(&dir, &texts);
    assert_eq!(ids(&search(&log, "condor")), ["m200", "m201"]);
    // Same length, same first and last 4 KiB, another word in the middle.
    let bytes = std::fs::read(&log).unwrap();
    let text = String::from_utf8(bytes.clone()).unwrap();
    let changed = text.replacen("the condor plan", "the vulture pla", 1);
    assert_eq!(changed.len(), bytes.len());
    std::fs::write(&log, changed).unwrap();
    assert!(search(&log, "condor").is_empty());
    assert_eq!(ids(&search(&log, "vulture")), ["m200", "m201"]);
}

#[test]
fn an_entry_appended_after_a_search_is_found_by_the_next() {
    let dir = TempDir::new("search");
    let log = owned_log(&dir, &filler(30));
    assert!(search(&log, "flamingo").is_empty());
    let mut file = OpenOptions::new().append(true).open(&log).unwrap();
    file.write_all(entry("user", "a flamingo", "new").as_bytes())
        .unwrap();
    // An append in progress (no newline yet) is not read.
    file.write_all(b"{\"role\":\"user\",\"text\":\"flamingo too\"")
        .unwrap();
    assert_eq!(ids(&search(&log, "flamingo")), ["new"]);
    file.write_all(b",\"id\":\"later\"}\n").unwrap();
    assert_eq!(ids(&search(&log, "flamingo")), ["later", "new"]);
}

#[test]
fn a_writer_appending_during_searches_never_yields_a_wrong_hit() {
    let dir = TempDir::new("search");
    let log = owned_log(&dir, &filler(100));
    let writer_log = log.clone();
    let writer = std::thread::spawn(move || {
        let mut file = OpenOptions::new().append(true).open(&writer_log).unwrap();
        for n in 0..400 {
            let line = entry(
                "user",
                &format!("swallow sighting number {n}"),
                &format!("w{n}"),
            );
            // Two writes: a reader may see half a line.
            let (a, b) = line.split_at(line.len() / 2);
            file.write_all(a.as_bytes()).unwrap();
            file.write_all(b.as_bytes()).unwrap();
        }
    });
    let options = SearchOptions {
        limit: 100,
        ..SearchOptions::default()
    };
    while !writer.is_finished() {
        for hit in search_log(&log, &u("swallow sighting"), &options).unwrap() {
            let id = String::from_utf16(hit.entry.id.as_ref().unwrap()).unwrap();
            let n: usize = id.strip_prefix('w').unwrap().parse().unwrap();
            let text = format!("swallow sighting number {n}");
            assert!(String::from_utf16(&hit.entry.text).unwrap() == text);
            assert_eq!(hit.line, 101 + n as u64);
        }
    }
    writer.join().unwrap();
    let hits = search_log(&log, &u("swallow 399"), &options).unwrap();
    assert_eq!(ids(&hits[..1]), ["w399"]);
}

#[test]
fn hostile_lines_are_skipped_as_the_log_reader_skips_them() {
    let dir = TempDir::new("search");
    let mut body = String::new();
    body.push_str(&entry("user", "first gannet", "a"));
    body.push_str("not json at all gannet\n");
    body.push_str("{\"role\":\"hacker\",\"text\":\"gannet\"}\n");
    body.push('\n');
    body.push_str("{\"role\":\"user\",\"text\":\"\\ud800 lone gannet\",\"id\":\"b\"}\n");
    body.push_str("{\"role\":\"user\",\"text\":\"gannet\",\"id\":\"c\",\"id\":\"d\"}\n");
    // A line over the 8 MiB cap, full of the word: skipped unread.
    body.push_str(&format!(
        "{{\"role\":\"user\",\"text\":\"{}\"}}\n",
        "gannet ".repeat(1_300_000)
    ));
    body.push_str(&entry("user", "last gannet", "e"));
    let log = dir.file("perpetual-log.jsonl", body.as_bytes());
    let hits = search(&log, "gannet");
    let mut found = ids(&hits);
    found.sort();
    assert_eq!(found, ["a", "b", "d", "e"]);
    let last = hits
        .iter()
        .find(|h| h.entry.id.as_deref() == Some(&u("e")[..]))
        .unwrap();
    assert_eq!(last.line, 8);
}

#[cfg(unix)]
#[test]
fn fifos_and_links_are_refused_at_once() {
    let dir = TempDir::new("search");
    let fifo = dir.0.join("pipe.jsonl");
    support::make_fifo(&fifo);
    let err = search_log(&fifo, &u("x"), &SearchOptions::default()).unwrap_err();
    assert_eq!(err.code(), "ENOTREGULAR");
    // At the index path.
    let log = owned_log(&dir, &filler(5));
    std::fs::remove_file(index_path(&log)).ok();
    support::make_fifo(&index_path(&log));
    let err = search_log(&log, &u("note"), &SearchOptions::default()).unwrap_err();
    assert_eq!(err.code(), "ENOTREGULAR");
    std::fs::remove_file(index_path(&log)).unwrap();
    let elsewhere = dir.file("elsewhere", b"");
    std::os::unix::fs::symlink(&elsewhere, index_path(&log)).unwrap();
    let err = search_log(&log, &u("note"), &SearchOptions::default()).unwrap_err();
    assert_eq!(err.code(), "ENOTREGULAR");
    assert_eq!(
        std::fs::read(&elsewhere).unwrap(),
        b"",
        "the link target is untouched"
    );
    // A symlinked log with refuseLinks.
    let linked = dir.0.join("linked.jsonl");
    std::os::unix::fs::symlink(&log, &linked).unwrap();
    let options = SearchOptions {
        links: Links::Refuse,
        ..SearchOptions::default()
    };
    assert_eq!(
        search_log(&linked, &u("note"), &options)
            .unwrap_err()
            .code(),
        "ENOTREGULAR"
    );
}

#[test]
fn a_missing_log_is_enoent_or_empty() {
    let dir = TempDir::new("search");
    let missing = dir.0.join("none.jsonl");
    let err = search_log(&missing, &u("x"), &SearchOptions::default()).unwrap_err();
    assert_eq!(err.code(), "ENOENT");
    assert!(
        search_log_or_empty(&missing, &u("x"), &SearchOptions::default())
            .unwrap()
            .is_empty()
    );
}

#[test]
fn windows_by_line_and_by_id() {
    let dir = TempDir::new("search");
    let mut body = String::new();
    for n in 0..20 {
        body.push_str(&entry("user", &format!("entry {n}"), &format!("m{n}")));
        if n == 9 {
            body.push_str("garbage line\n");
        }
    }
    let log = dir.file("perpetual-log.jsonl", body.as_bytes());
    let window = |at: WindowAt, before, after| {
        read_log_window(&log, &Window::around(at, before, after), Links::Follow)
            .unwrap()
            .into_iter()
            .map(|item| (item.line, String::from_utf16(&item.entry.text).unwrap()))
            .collect::<Vec<_>>()
    };
    assert_eq!(
        window(WindowAt::Id(u("m5")), 1, 2),
        [
            (5, "entry 4".into()),
            (6, "entry 5".into()),
            (7, "entry 6".into()),
            (8, "entry 7".into())
        ]
    );
    // Line 11 is the garbage line: its neighbours.
    assert_eq!(
        window(WindowAt::Line(11), 1, 1),
        [(10, "entry 9".into()), (12, "entry 10".into())]
    );
    assert_eq!(window(WindowAt::Line(1), 3, 0), [(1, "entry 0".into())]);
    assert_eq!(window(WindowAt::Id(u("m19")), 0, 50).len(), 1);
    assert_eq!(window(WindowAt::Id(u("m0")), 0, 500).len(), 20);
    assert!(window(WindowAt::Id(u("nope")), 5, 5).is_empty());
}

/// An index file another user owns (planted in a shared folder) is refused,
/// never read. Needs root to give a file away; skipped otherwise.
#[cfg(unix)]
#[test]
fn an_index_of_another_user_is_refused() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: chown needs root");
        return;
    }
    let dir = TempDir::new("search");
    let log = owned_log(&dir, &filler(5));
    std::fs::write(index_path(&log), b"planted").unwrap();
    std::os::unix::fs::chown(index_path(&log), Some(4242), Some(4242)).unwrap();
    let err = search_log(&log, &u("note"), &SearchOptions::default()).unwrap_err();
    assert_eq!(err.code(), "ENOTREGULAR");
    assert!(err.to_string().contains("another user"), "{err}");
}

#[test]
fn a_private_span_opened_before_the_excerpt_never_leaves_a_hit() {
    // An older release's log, an import or the runtime's files can hold a
    // `<private>` span whose opening tag is far before the words a search
    // matches: the hit is masked whole, then cut.
    let dir = TempDir::new("search-private");
    let filler = "a quiet afternoon of routine work ".repeat(200);
    let text = format!(
        "<private>{filler} the vault combination is 4921-7733 zebrafish </private> and then lunch"
    );
    let log = log_of(&dir, &[("user", &text), ("assistant", "noted")]);
    let options = SearchOptions {
        excerpt_chars: 120,
        ..SearchOptions::default()
    };
    let hits = search_log(&log, &u("vault combination zebrafish lunch"), &options).unwrap();
    assert!(!hits.is_empty());
    for hit in &hits {
        let text = String::from_utf16_lossy(&hit.entry.text);
        assert!(
            !text.contains("4921") && !text.contains("zebrafish"),
            "{text}"
        );
    }
    let window = read_log_window(
        &log,
        &Window::around(WindowAt::Line(1), 0, 1),
        Links::Follow,
    )
    .unwrap();
    let text = String::from_utf16_lossy(&window[0].entry.text);
    assert!(
        text.starts_with("[redacted:private] and then lunch"),
        "{text}"
    );
}

#[test]
fn a_window_entry_is_masked_whole_then_cut_to_its_cap() {
    // A token right at the cut: cut first, its start would no longer match
    // the pattern and would leave in clear.
    let dir = TempDir::new("search-window-cap");
    let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
    let long = format!("{} {token} and more", "x".repeat(7_989));
    let huge = "word ".repeat(200_000);
    let log = log_of(&dir, &[("user", &long), ("assistant", &huge)]);
    let read = |max_entry_chars| {
        let window = Window {
            max_entry_chars,
            ..Window::around(WindowAt::Line(1), 0, 1)
        };
        read_log_window(&log, &window, Links::Follow).unwrap()
    };
    let window = read(8_000);
    let first = String::from_utf16_lossy(&window[0].entry.text);
    assert!(!first.contains("ghp_abc"), "{}", &first[7_980..]);
    assert!(
        first.contains("more characters cut]"),
        "{}",
        &first[7_980..]
    );
    // Never more than the cap and its note, whatever the line weighs.
    assert!(window[1].entry.text.len() < 8_000 + 64);
    let small = read(100);
    assert!(small[1].entry.text.len() < 100 + 64);
    // The cap's ceiling holds whatever is asked.
    let most = read(usize::MAX);
    assert!(most[1].entry.text.len() < 65_536 + 64);
}
