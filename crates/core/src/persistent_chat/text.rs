//! Small text helpers shared by the summary and the prompt builders.

use std::borrow::Cow;

use crate::utf16;

/// `…`, the mark left where a line was cut.
pub(crate) const ELLIPSIS: u16 = 0x2026;

pub(crate) use crate::utf16::push_str;

/// `text` on one line: every run of whitespace (line breaks included, as in
/// JavaScript's `/\s+/`) becomes one space, and the ends are trimmed. Other
/// units, lone surrogates included, are kept as they are.
pub(crate) fn collapse_whitespace(text: &[u16]) -> Vec<u16> {
    // Most text has nothing to collapse: one pass to check, one copy.
    let is_space = |unit: u16| unit == u16::from(b' ');
    let clean = !text.first().is_some_and(|&u| utf16::is_js_whitespace(u))
        && !text.last().is_some_and(|&u| utf16::is_js_whitespace(u))
        && text.windows(2).all(|pair| {
            !utf16::is_js_whitespace(pair[0])
                || (is_space(pair[0]) && !utf16::is_js_whitespace(pair[1]))
        });
    if clean {
        return text.to_vec();
    }
    // Collapsing never lengthens text: a prefix of its length is all of it.
    collapse_whitespace_prefix(text, text.len())
}

/// The first `max` units of `collapse_whitespace(text)`, without
/// collapsing the rest.
pub(crate) fn collapse_whitespace_prefix(text: &[u16], max: usize) -> Vec<u16> {
    let mut out = Vec::with_capacity(max);
    let mut pending_space = false;
    for &unit in text {
        if out.len() == max {
            break;
        }
        if utf16::is_js_whitespace(unit) {
            pending_space = !out.is_empty();
        } else {
            if pending_space {
                out.push(u16::from(b' '));
                pending_space = false;
                if out.len() == max {
                    break;
                }
            }
            out.push(unit);
        }
    }
    out
}

/// `blocks` joined with a blank line between each two.
pub(crate) fn join_with_blank_lines(blocks: Vec<Vec<u16>>) -> Vec<u16> {
    let separators = 2 * blocks.len().saturating_sub(1);
    let mut out = Vec::with_capacity(blocks.iter().map(Vec::len).sum::<usize>() + separators);
    for (index, block) in blocks.iter().enumerate() {
        if index > 0 {
            push_str(&mut out, "\n\n");
        }
        out.extend_from_slice(block);
    }
    out
}

/// `text` cut to at most `max` units on a grapheme boundary, with `…` where
/// it was cut.
pub(crate) fn cut_with_ellipsis(text: &[u16], max: usize) -> Vec<u16> {
    if text.len() <= max {
        return text.to_vec();
    }
    if max == 0 {
        return Vec::new();
    }
    let mut out = utf16::grapheme_prefix(text, max - 1).to_vec();
    out.push(ELLIPSIS);
    out
}

/// What an entry's cut text ends with: ` … [N more characters cut]`.
const CUT_MARK_START: &str = " \u{2026} [";
const CUT_MARK_END: &str = " more characters cut]";
/// `N` has at most this many digits (a `u64`'s count always fits).
const CUT_COUNT_MAX_DIGITS: usize = 19;

/// An entry's text under the `maxEntryChars` rule: whole when it has at
/// most `max` units, else its first `max` units (cut at a grapheme
/// boundary) and ` … [N more characters cut]`, `N` the units left out. The
/// prompt builders show entries so, and the tail reader keeps them so when
/// asked (`readPersistentChatLogEntries`' `maxEntryChars`).
///
/// A text this rule already cut (a kept part, then its mark) counts as the
/// text it was cut from: it is left as it is when its kept part has at most
/// `max` units, else the kept part is cut again and the counts add up. So
/// entries read with a cap and then shown with the same or a smaller one
/// read exactly as entries read whole and shown with that one.
pub(crate) fn shown_text(text: &[u16], max: Option<usize>) -> Cow<'_, [u16]> {
    let Some(max) = max else {
        return Cow::Borrowed(text);
    };
    if text.len() <= max {
        return Cow::Borrowed(text);
    }
    let (whole, cut_before) = match already_cut(text) {
        Some((kept, _)) if kept.len() <= max => return Cow::Borrowed(text),
        Some((kept, count)) => (kept, count),
        None => (text, 0),
    };
    let kept = utf16::grapheme_prefix(whole, max);
    let cut = cut_before.saturating_add(whole.len() - kept.len());
    let mut out = Vec::with_capacity(kept.len() + 40);
    out.extend_from_slice(kept);
    push_str(&mut out, CUT_MARK_START);
    push_str(&mut out, &cut.to_string());
    push_str(&mut out, CUT_MARK_END);
    Cow::Owned(out)
}

/// `text` as [`shown_text`] leaves a cut text: the kept part and the count
/// of units cut (a decimal `N` without leading zeros), or `None`.
fn already_cut(text: &[u16]) -> Option<(&[u16], usize)> {
    let rest = strip_ascii_suffix(text, CUT_MARK_END)?;
    let digits = rest
        .iter()
        .rev()
        .take(CUT_COUNT_MAX_DIGITS + 1)
        .take_while(|&&unit| (u16::from(b'0')..=u16::from(b'9')).contains(&unit))
        .count();
    if digits == 0 || digits > CUT_COUNT_MAX_DIGITS {
        return None;
    }
    let (rest, number) = rest.split_at(rest.len() - digits);
    if number[0] == u16::from(b'0') {
        return None;
    }
    let count = number.iter().try_fold(0usize, |count, &digit| {
        count
            .checked_mul(10)?
            .checked_add(usize::from(digit - u16::from(b'0')))
    })?;
    let kept = strip_ascii_suffix(rest, CUT_MARK_START)?;
    Some((kept, count))
}

/// `text` without `suffix` at its end (`suffix` as UTF-16), or `None`.
fn strip_ascii_suffix<'t>(text: &'t [u16], suffix: &str) -> Option<&'t [u16]> {
    let suffix: Vec<u16> = suffix.encode_utf16().collect();
    text.ends_with(&suffix)
        .then(|| &text[..text.len() - suffix.len()])
}

/// [`collapse_whitespace`] then [`cut_with_ellipsis`].
pub(crate) fn one_line(text: &[u16], max: usize) -> Vec<u16> {
    cut_with_ellipsis(&collapse_whitespace(text), max)
}

/// JavaScript's `String(number)` (`Number#toString`): shortest round-trip
/// digits, exponent notation outside 1e-7..1e21, `-0` as `0`.
pub(crate) fn js_number_to_string(value: f64) -> String {
    ryu_js::Buffer::new().format(value).to_owned()
}

/// A stable 64-bit FNV-1a hash of UTF-16 parts (separated so that
/// ("ab","c") and ("a","bc") differ). Used for synthetic entry keys.
pub(crate) fn fnv1a(parts: &[&[u16]]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for &unit in part.iter() {
            for byte in unit.to_le_bytes() {
                hash ^= u64::from(byte);
                hash = hash.wrapping_mul(0x0100_0000_01b3);
            }
        }
        hash ^= 0xFF;
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// `text` starts with `prefix` (lower-case ASCII), ignoring ASCII case.
pub(crate) fn starts_with_ascii_ignore_case(text: &[u16], prefix: &str) -> bool {
    text.len() >= prefix.len()
        && text
            .iter()
            .zip(prefix.bytes())
            .all(|(&unit, byte)| u8::try_from(unit).is_ok_and(|b| b.to_ascii_lowercase() == byte))
}

/// `text` without trailing line breaks and blank lines (blocks are joined
/// by the builder; other units stay).
pub(crate) fn trim_end_lines(text: &[u16]) -> &[u16] {
    let end = text
        .iter()
        .rposition(|&unit| !utf16::is_js_whitespace(unit))
        .map_or(0, |last| last + 1);
    // Keep trailing spaces of the last line's content, drop only line ends.
    let line_end = text[end..]
        .iter()
        .position(|&unit| matches!(unit, 0x0A | 0x0D))
        .map_or(text.len(), |offset| end + offset);
    &text[..line_end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::utf16::encode as u;

    fn shown(text: &str, max: usize) -> String {
        String::from_utf16_lossy(&shown_text(&u(text), Some(max)))
    }

    #[test]
    fn shown_text_cuts_at_a_grapheme_boundary_and_counts_what_it_left_out() {
        assert_eq!(shown("abcdef", 6), "abcdef");
        assert_eq!(
            shown("abcdefgh", 6),
            "abcdef \u{2026} [2 more characters cut]"
        );
        // e + combining acute is one grapheme: not split.
        assert_eq!(
            shown("abcde\u{301}fg", 5),
            "abcd \u{2026} [4 more characters cut]"
        );
        assert_eq!(
            String::from_utf16_lossy(&shown_text(&u("abcdefgh"), None)),
            "abcdefgh"
        );
    }

    #[test]
    fn shown_text_leaves_a_cut_text_as_cut_and_adds_the_counts_when_cut_again() {
        let original = "abcdefghijklmnopqrstuvwxyz";
        let once = shown(original, 20);
        assert_eq!(
            once,
            "abcdefghijklmnopqrst \u{2026} [6 more characters cut]"
        );
        // The same cap: unchanged (not "… [N more characters cut]" cut again).
        assert_eq!(shown(&once, 20), once);
        // A smaller cap: as one cut of the original.
        assert_eq!(shown(&once, 10), shown(original, 10));
        assert_eq!(
            shown(&once, 10),
            "abcdefghij \u{2026} [16 more characters cut]"
        );
        // Not a mark: a leading zero, no digits, too many digits, another text.
        for text in [
            "abcdefghijklmnopqrst \u{2026} [06 more characters cut]",
            "abcdefghijklmnopqrst \u{2026} [ more characters cut]",
            "abcdefghijklmnopqrst \u{2026} [12345678901234567890 more characters cut]",
            "abcdefghijklmnopqrst ... [6 more characters cut]",
        ] {
            assert_eq!(
                shown(text, 20),
                format!(
                    "abcdefghijklmnopqrst \u{2026} [{} more characters cut]",
                    text.chars().count() - 20
                )
            );
        }
    }

    proptest::proptest! {
        /// Cutting at `first`, then at any `second <= first`, gives one cut
        /// at `second`: graphemes of several units, lone surrogates and text
        /// that already ends like a mark included.
        #[test]
        fn shown_text_twice_is_shown_text_once(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "a", "e\u{301}", "\u{1F469}\u{200D}\u{1F4BB}", "\u{1F1EB}\u{1F1F7}", "\n", "\r\n",
                    " \u{2026} [", " more characters cut]", "7", "0",
                ]),
                0..60,
            ),
            lone in proptest::option::of(0usize..60),
            first in 1usize..80,
            smaller in 0usize..80,
        ) {
            let mut text = u(&parts.concat());
            if let Some(at) = lone {
                text.insert(at.min(text.len()), 0xD800);
            }
            let second = smaller.min(first).max(1);
            let once = shown_text(&text, Some(first)).into_owned();
            proptest::prop_assert_eq!(
                shown_text(&once, Some(second)).into_owned(),
                shown_text(&text, Some(second)).into_owned()
            );
        }
    }

    #[test]
    fn collapses_whitespace_runs_and_line_breaks() {
        assert_eq!(
            collapse_whitespace(&u("  a \r\n\t b\u{a0}\u{2028}c  ")),
            u("a b c")
        );
        assert_eq!(collapse_whitespace(&u(" \n ")), u(""));
        let lone = vec![0xD800, 0x20, 0x20, 0xDC00];
        assert_eq!(collapse_whitespace(&lone), vec![0xD800, 0x20, 0xDC00]);
    }

    #[test]
    fn cuts_keep_graphemes_whole() {
        let family = "👨\u{200D}👩\u{200D}👧";
        let text = u(&format!("ab{family}cd"));
        for max in 3..=10 {
            let cut = cut_with_ellipsis(&text, max);
            assert!(cut.len() <= max);
            assert_eq!(cut, [u("ab"), vec![ELLIPSIS]].concat(), "max {max}");
        }
        assert_eq!(
            cut_with_ellipsis(&text, 11),
            [u(&format!("ab{family}")), vec![ELLIPSIS]].concat()
        );
        assert_eq!(cut_with_ellipsis(&text, 99), text);
        assert_eq!(cut_with_ellipsis(&text, 0), u(""));
        assert_eq!(
            cut_with_ellipsis(&u("🇫🇷🇩🇪"), 5),
            [u("🇫🇷"), vec![ELLIPSIS]].concat()
        );
    }

    #[test]
    fn numbers_print_like_javascript() {
        let cases = [
            (0.0, "0"),
            (-0.0, "0"),
            (1.0, "1"),
            (-1.5, "-1.5"),
            (0.1 + 0.2, "0.30000000000000004"),
            (123456789012.0, "123456789012"),
            (1e21, "1e+21"),
            (1.5e21, "1.5e+21"),
            (1e20, "100000000000000000000"),
            (1e-6, "0.000001"),
            (1e-7, "1e-7"),
            (1.25e-7, "1.25e-7"),
            (f64::MAX, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
            (f64::NAN, "NaN"),
            (f64::NEG_INFINITY, "-Infinity"),
            (1778839200000.0, "1778839200000"),
        ];
        for (value, expected) in cases {
            assert_eq!(js_number_to_string(value), expected, "{value:?}");
        }
    }

    #[test]
    fn fnv_separates_parts() {
        assert_ne!(fnv1a(&[&u("ab"), &u("c")]), fnv1a(&[&u("a"), &u("bc")]));
        assert_eq!(fnv1a(&[&u("x")]), fnv1a(&[&u("x")]));
    }
}
