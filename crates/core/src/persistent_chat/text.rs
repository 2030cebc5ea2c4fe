//! Small text helpers shared by the summary and the prompt builders.

use crate::utf16;

/// `…`, the mark left where a line was cut.
pub(crate) const ELLIPSIS: u16 = 0x2026;

pub(crate) fn push_str(out: &mut Vec<u16>, text: &str) {
    out.extend(text.encode_utf16());
}

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
