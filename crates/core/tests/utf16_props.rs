//! Property tests of the cut helpers against unicode-segmentation run over
//! the whole string (the helpers only segment a window around the cut).

use openclaw_context_core::utf16::{find, grapheme_ceil, grapheme_floor, surrogate_safe_floor};
use proptest::prelude::*;
use unicode_segmentation::UnicodeSegmentation;

fn text_of_hard_pieces() -> impl Strategy<Value = String> {
    proptest::collection::vec(
        prop_oneof![
            Just("a"),
            Just(" "),
            Just("\n"),
            Just("\r\n"),
            Just("😀"),
            Just("👨\u{200D}👩\u{200D}👧"),
            Just("🇫🇷"),
            Just("🇩🇪"),
            Just("e\u{301}"),
            Just("\u{301}"),
            Just("漢"),
            Just("\u{200D}"),
            Just("क्षि"),
            Just("\u{1F3FB}"),
            // Beside plain characters, the ones that join them: kana and
            // their combining sound mark, a keycap, Hangul jamo.
            Just("か"),
            Just("\u{3099}"),
            Just("#\u{FE0F}\u{20E3}"),
            Just("\u{AC00}"),
            Just("\u{11A8}"),
        ],
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

/// Every grapheme boundary of `text`, in UTF-16 units, end included.
fn boundaries(text: &str) -> Vec<usize> {
    let mut unit_at_byte = vec![0; text.len() + 1];
    let mut units = 0;
    for (byte, ch) in text.char_indices() {
        unit_at_byte[byte] = units;
        units += ch.len_utf16();
    }
    unit_at_byte[text.len()] = units;
    let mut all: Vec<usize> = text
        .grapheme_indices(true)
        .map(|(b, _)| unit_at_byte[b])
        .collect();
    all.push(units);
    all
}

proptest! {
    #[test]
    fn floor_and_ceil_are_true_boundaries(text in text_of_hard_pieces(), pos in 0usize..200) {
        let units: Vec<u16> = text.encode_utf16().collect();
        let pos = pos.min(units.len());
        let all = boundaries(&text);
        let floor = all.iter().rev().find(|&&b| b <= pos).copied();
        let ceil = all.iter().find(|&&b| b >= pos).copied();
        prop_assert_eq!(Some(grapheme_floor(&units, pos)), floor);
        prop_assert_eq!(Some(grapheme_ceil(&units, pos)), ceil);
    }

    #[test]
    fn surrogate_floor_never_splits_a_pair(
        units in proptest::collection::vec(any::<u16>(), 0..50),
        limit in 0usize..60,
    ) {
        let end = surrogate_safe_floor(&units, limit);
        let wanted = limit.min(units.len());
        prop_assert!(end <= wanted && wanted - end <= 1);
        if end > 0 && end < units.len() {
            let split = (0xD800..=0xDBFF).contains(&units[end - 1])
                && (0xDC00..=0xDFFF).contains(&units[end]);
            prop_assert!(!split);
        }
    }

    /// `find` against a scan of every window, over units from a tiny
    /// alphabet whose bytes also match across unit boundaries (0x4141,
    /// 0x4100, 0x0041), with needles long enough to go head first.
    #[test]
    fn find_is_the_first_aligned_window(
        haystack in proptest::collection::vec(prop::sample::select(vec![0x4141u16, 0x4100, 0x0041, 0x0A]), 0..120),
        needle in proptest::collection::vec(prop::sample::select(vec![0x4141u16, 0x4100, 0x0041, 0x0A]), 0..40),
        planted in any::<Option<prop::sample::Index>>(),
    ) {
        // Half the time the needle is planted, so that long needles are found too.
        let mut haystack = haystack;
        if let Some(at) = planted {
            let at = at.index(haystack.len() + 1);
            haystack.splice(at..at, needle.iter().copied());
        }
        let expected = if needle.is_empty() {
            Some(0)
        } else {
            haystack.windows(needle.len()).position(|window| window == &needle[..])
        };
        prop_assert_eq!(find(&haystack, &needle), expected);
    }
}
