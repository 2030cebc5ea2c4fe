//! JS string semantics on UTF-16 units, on examples, through the crate's
//! public API (the properties are in utf16_props.rs).

use openclaw_context_core::utf16::{
    ascii_positions, ascii_positions_rev, contains, encode, find, find_lf, grapheme_ceil,
    grapheme_floor, grapheme_prefix, grapheme_suffix, line_feeds, line_ranges, line_start,
    push_str, rfind_lf, start_of_line_led_by, surrogate_safe_ceil, surrogate_safe_floor,
    trim_line_end, LF,
};

fn u(text: &str) -> Vec<u16> {
    encode(text)
}

#[test]
fn surrogate_floor_backs_off_inside_a_pair() {
    let text = u("a😀b");
    assert_eq!(surrogate_safe_floor(&text, 2), 1);
    assert_eq!(surrogate_safe_floor(&text, 3), 3);
    assert_eq!(surrogate_safe_floor(&text, 99), 4);
    assert_eq!(surrogate_safe_ceil(&text, 2), 3);
}

#[test]
fn lone_surrogates_are_single_units() {
    let text = vec![0x61, 0xD800, 0x62, 0xDC00];
    assert_eq!(surrogate_safe_floor(&text, 2), 2);
    assert_eq!(grapheme_floor(&text, 2), 2);
    assert_eq!(grapheme_floor(&text, 1), 1);
    assert_eq!(grapheme_prefix(&text, 3), &text[..3]);
}

#[test]
fn grapheme_floor_keeps_zwj_sequences_flags_and_marks_whole() {
    let family = "👨\u{200D}👩\u{200D}👧";
    let text = u(&format!("ab{family}cd"));
    for pos in 3..(2 + u(family).len()) {
        assert_eq!(grapheme_floor(&text, pos), 2, "pos {pos}");
        assert_eq!(grapheme_ceil(&text, pos), 2 + u(family).len(), "pos {pos}");
    }
    let flags = u("x🇫🇷🇩🇪");
    assert_eq!(grapheme_floor(&flags, 3), 1);
    assert_eq!(grapheme_floor(&flags, 6), 5);
    assert_eq!(grapheme_floor(&flags, 7), 5);
    let marks = u("e\u{301}\u{323}x");
    assert_eq!(grapheme_floor(&marks, 1), 0);
    assert_eq!(grapheme_floor(&marks, 2), 0);
    assert_eq!(grapheme_floor(&marks, 3), 3);
}

#[test]
fn grapheme_ceil_finds_the_end_of_a_long_cluster() {
    let mut text = u("a");
    text.extend(std::iter::repeat_n(0x301, 200));
    text.extend(u("b"));
    assert_eq!(grapheme_ceil(&text, 5), 201);
    assert_eq!(grapheme_suffix(&text, 100), &text[201..]);
}

#[test]
fn cuts_after_line_feeds_are_boundaries() {
    let text = u("line one\r\nline two");
    assert_eq!(grapheme_floor(&text, 10), 10);
    assert_eq!(line_ranges(&text).collect::<Vec<_>>(), [0..10, 10..18]);
    assert_eq!(trim_line_end(&text[0..10]), &text[0..8]);
}

#[test]
fn lf_search_sees_only_whole_line_feeds() {
    // U+0A0A and U+0A00 hold a 0x0A byte but are not line feeds.
    let text: Vec<u16> = vec![0x0A0A, 0x0A00, 0x61, LF, 0x0A0A, LF, 0x62];
    assert_eq!(find_lf(&text, 0), Some(3));
    assert_eq!(find_lf(&text, 4), Some(5));
    assert_eq!(find_lf(&text, 6), None);
    assert_eq!(rfind_lf(&text, 7), Some(5));
    assert_eq!(rfind_lf(&text, 5), Some(3));
    assert_eq!(rfind_lf(&text, 3), None);
    assert_eq!(find_lf(&text, 99), None);
}

#[test]
fn lf_searches_agree_with_a_scan() {
    // Line feeds at every distance from the search start (the searches
    // look 64 units ahead in blocks of 16 directly, then ask memchr),
    // among units holding 0x0A bytes.
    for len in [0usize, 1, 15, 16, 17, 47, 63, 64, 65, 80, 97, 129, 200] {
        for lf_at in [
            None,
            Some(0),
            Some(1),
            Some(len / 2),
            Some(len.saturating_sub(1)),
        ] {
            for second in [None, Some(1), Some(17)] {
                let mut text: Vec<u16> = (0..len).map(|i| [0x0A0A, 0x0A00, 0x61][i % 3]).collect();
                if let Some(at) = lf_at.filter(|&at| at < len) {
                    text[at] = LF;
                    if let Some(after) = second.map(|gap| at + gap).filter(|&after| after < len) {
                        text[after] = LF;
                    }
                }
                for end in 0..=len {
                    let expected = text[..end].iter().rposition(|&unit| unit == LF);
                    assert_eq!(
                        rfind_lf(&text, end),
                        expected,
                        "len {len}, lf {lf_at:?}, end {end}"
                    );
                    assert_eq!(line_start(&text, end), expected.map_or(0, |lf| lf + 1));
                    let forward = text[end..]
                        .iter()
                        .position(|&unit| unit == LF)
                        .map(|at| end + at);
                    assert_eq!(find_lf(&text, end), forward);
                    assert_eq!(line_feeds(&text, end).next(), forward);
                }
            }
        }
    }
}

#[test]
fn ascii_searches_see_only_whole_units() {
    // U+2300 and U+2A2A hold '#'/'*' bytes but are not those characters.
    let text: Vec<u16> = vec![0x23, 0x61, 0x2300, 0x2A2A, 0x3C, 0x62, 0x3C00, 0x2A, 0x2323];
    let marks = *b"#<*";
    let rev = |end| ascii_positions_rev(&text, end, marks).collect::<Vec<_>>();
    assert_eq!(rev(9), [7, 4, 0]);
    assert_eq!(rev(7), [4, 0]);
    assert_eq!(rev(0), Vec::<usize>::new());
    assert_eq!(rev(99), [7, 4, 0]);
    for end in 0..=text.len() {
        let expected: Vec<usize> = (0..end)
            .rev()
            .filter(|&at| matches!(text[at], 0x23 | 0x3C | 0x2A))
            .collect();
        assert_eq!(rev(end), expected);
    }
    assert_eq!(ascii_positions(&text, b'#').collect::<Vec<_>>(), [0]);
    assert_eq!(ascii_positions(&text, b'*').collect::<Vec<_>>(), [7]);
}

#[test]
fn a_line_led_by_a_position() {
    let text = u("ab\n  # x\n\u{3000}#\n#");
    assert_eq!(start_of_line_led_by(&text, 5), Some(3));
    assert_eq!(start_of_line_led_by(&text, 7), None);
    assert_eq!(start_of_line_led_by(&text, 1), None);
    assert_eq!(start_of_line_led_by(&text, 0), Some(0));
    assert_eq!(start_of_line_led_by(&text, 10), Some(9));
    assert_eq!(start_of_line_led_by(&text, 12), Some(12));
}

#[test]
fn find_matches_utf16() {
    // A byte-level match across two units is not a match.
    assert_eq!(find(&[0x4241, 0x4443], &[0x4342]), None);
    // An unaligned match overlapping an aligned one does not hide it.
    assert_eq!(find(&[0xAA00, 0xAAAA, 0xAAAA], &[0xAAAA, 0xAAAA]), Some(1));
    assert_eq!(find(&[0x0041, 0x4100, 0x4142], &[0x4142]), Some(2));
    let text = u("id: ses_😀_42 end");
    assert_eq!(find(&text, &u("ses_😀_42")), Some(4));
    assert!(!contains(&text, &u("ses_43")));
    assert_eq!(find(&text, &[]), Some(0));
    assert_eq!(find(&[], &u("x")), None);
    // Long needles go head first: a head seen before the first whole
    // match, a head seen only at odd offsets, a head present and the
    // rest not.
    let long = u("the deploy of billing-api 4.8.2 failed on staging");
    let mut text = u("the deploy of billing-api ran. ");
    text.extend(&long);
    text.extend(u(" and "));
    text.extend(&long);
    assert_eq!(find(&text, &long), Some(31));
    assert_eq!(find(&text[..40], &long), None);
    let mut odd = vec![0x4100];
    odd.extend(std::iter::repeat_n(0x4141, 20));
    assert_eq!(find(&odd, &[0x4141; 18]), Some(1));
    assert_eq!(find(&odd, &[0x4141; 21]), None);
    assert_eq!(find(&u("the deploy of billing-api ran"), &long), None);
}

#[test]
fn push_str_widens_ascii_stretches_and_encodes_other_characters_alone() {
    for text in [
        "",
        "a",
        "é",
        "naïve 漢字 テスト 😀 ok",
        "😀😀",
        "abc\u{10FFFF}",
        "x".repeat(100).as_str(),
    ] {
        let mut out = vec![0x41];
        push_str(&mut out, text);
        let mut expected = vec![0x41];
        expected.extend(text.encode_utf16());
        assert_eq!(out, expected, "{text:?}");
        assert_eq!(encode(text), expected[1..], "{text:?}");
    }
}
