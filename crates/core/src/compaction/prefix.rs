//! Cutting body text short at a boundary: after a whole line or at the end
//! of a word, so that what is kept reads as whole pieces, never as a word or
//! a heading cut in two. Where no boundary fits, nothing is kept: a marker
//! may say that text is missing, but a fragment would still read as text.

use std::ops::Range;

use crate::utf16::{
    find_lf, grapheme_boundaries, grapheme_floor, is_js_whitespace, surrogate_safe_ceil, trim,
    trim_end,
};

/// The longest prefix of `text` of at most `limit` units that ends after a
/// whole line or at the end of a word, without trailing white space; empty
/// when none fits.
///
/// A word ends where white space follows it, on a grapheme boundary, and
/// counts only when its line has, up to there, more than list markers,
/// digits and punctuation (so a bare `-` is not kept). Heading lines (`#`
/// first) are never cut: a fragment of one would look like a heading.
/// `text` itself when it fits.
pub(super) fn boundary_prefix(text: &[u16], limit: usize) -> &[u16] {
    if text.len() <= limit {
        return text;
    }
    // The end of the last whole line that fits (its trailing white space
    // need not), and the line that the limit cuts.
    let mut best = 0;
    let mut line_start = 0;
    let cut_line = loop {
        let line_end = find_lf(text, line_start).unwrap_or(text.len());
        let content_end = line_start + trim_end(&text[line_start..line_end]).len();
        if content_end > limit {
            break line_start..line_end;
        }
        if content_end > line_start {
            best = content_end;
        }
        if line_end == text.len() {
            return &text[..best];
        }
        line_start = line_end + 1;
    };
    if is_heading(&text[cut_line.clone()]) {
        return &text[..best];
    }
    match last_word_end(text, cut_line, limit) {
        Some(end) => &text[..end],
        None => &text[..best],
    }
}

/// A heading line: `#` is its first unit after leading white space (as
/// OpenClaw's section check trims lines before comparing them).
pub(super) fn is_heading(line: &[u16]) -> bool {
    trim(line).first() == Some(&u16::from(b'#'))
}

/// The last end of a word in the line `text[line]` at or before `limit`: a
/// grapheme boundary where white space follows a unit that is not, whose
/// line prefix holds a word unit.
fn last_word_end(text: &[u16], line: Range<usize>, limit: usize) -> Option<usize> {
    let first_word_unit = line.start + text[line.clone()].iter().position(|&u| is_word_unit(u))?;
    let last = limit.min(line.end.saturating_sub(1));
    let mut ends = (first_word_unit + 1..=last)
        .rev()
        .filter(|&p| is_js_whitespace(text[p]) && !is_js_whitespace(text[p - 1]));
    let end = ends.next()?;
    if grapheme_floor(text, end) == end {
        return Some(end);
    }
    // Rare (a prepended mark before the white space): the line's grapheme
    // boundaries up to the limit, found once, not once per word.
    let window_end = surrogate_safe_ceil(text, (last + 2).min(line.end));
    let boundaries = grapheme_boundaries(text, line.start, window_end);
    ends.find(|end| boundaries.binary_search(end).is_ok())
}

/// A unit that makes a word: an ASCII letter, or any non-ASCII unit that
/// is not white space (not a list marker, a digit or punctuation).
pub(super) fn is_word_unit(unit: u16) -> bool {
    match u8::try_from(unit) {
        Ok(byte) if byte.is_ascii() => byte.is_ascii_alphabetic(),
        _ => !is_js_whitespace(unit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::utf16::encode;

    fn cut(text: &str, limit: usize) -> String {
        String::from_utf16_lossy(boundary_prefix(&encode(text), limit))
    }

    #[test]
    fn keeps_whole_lines_then_whole_words() {
        let text = "## Decisions\n- reload pending gateway restart\n## Open TODOs";
        assert_eq!(cut(text, 12), "## Decisions");
        assert_eq!(cut(text, 13), "## Decisions");
        assert_eq!(cut(text, 33), "## Decisions\n- reload pending");
        assert_eq!(cut(text, 36), "## Decisions\n- reload pending");
        assert_eq!(cut(text, 37), "## Decisions\n- reload pending gateway");
        assert_eq!(
            cut(text, 46),
            "## Decisions\n- reload pending gateway restart"
        );
        assert_eq!(cut(text, text.len()), text);
    }

    #[test]
    fn never_cuts_a_heading_or_keeps_a_bare_list_marker() {
        assert_eq!(cut("## Decisions\n- a", 7), "");
        assert_eq!(cut("- 漢字テスト漢字テスト", 6), "");
        assert_eq!(cut("- 42 items", 6), "");
        assert_eq!(cut("ok\n   \n- 42 items here", 12), "ok");
    }

    #[test]
    fn without_a_word_end_keeps_nothing_of_the_line() {
        let url = "https://ci.example.com/builds/8841";
        assert_eq!(cut(url, 20), "");
        assert_eq!(cut("- session_7f3a9c21 pending", 8), "");
        assert_eq!(cut(&format!("ok\n{url}"), 20), "ok");
        let family = "👨\u{200D}👩\u{200D}👧";
        assert_eq!(cut(&format!("a {family}{family}"), 6), "a");
    }

    #[test]
    fn a_word_end_inside_a_grapheme_cluster_is_not_one() {
        // U+0600 (a prepended mark) joins the space after it into one cluster.
        let text = "- ab cd\u{600} ef gh";
        assert_eq!(cut(text, 10), "- ab");
        assert_eq!(cut(text, 11), "- ab cd\u{600} ef");
    }

    #[test]
    fn trailing_blank_space_and_crlf_are_left_out() {
        assert_eq!(cut("- one two\r\n- three", 11), "- one two");
        assert_eq!(cut("- one two   three", 12), "- one two");
        assert_eq!(cut("- one\u{3000}two", 8), "- one");
    }
}
