//! Cutting body text short at a boundary: after a whole line or at the end
//! of a word, so that what is kept reads as whole pieces, never as a word or
//! a heading cut in two.

use crate::utf16::{find_lf, grapheme_floor, is_js_whitespace, trim, trim_end};

/// What to keep when no boundary fits `limit`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum NoBoundary {
    /// Nothing: the caller shows no marker, so a fragment would pass for a
    /// whole piece.
    KeepNothing,
    /// The longest grapheme-safe prefix (a marker follows and says that text
    /// was cut), unless it would end inside a heading line.
    CutAtGrapheme,
}

/// The longest prefix of `text` of at most `limit` units that ends after a
/// whole line or at the end of a word, without trailing white space.
///
/// A word ends where white space follows it, and counts only when its line
/// has, up to there, more than list markers, digits and punctuation (so a
/// bare `-` is not kept). Heading lines (`#` first) are never cut: a
/// fragment of one would look like a heading. `text` itself when it fits.
pub(super) fn boundary_prefix(text: &[u16], limit: usize, no_boundary: NoBoundary) -> &[u16] {
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
    let line = &text[cut_line.clone()];
    if is_heading(line) {
        return &text[..best];
    }
    if let Some(end) = last_word_end(line, limit.saturating_sub(cut_line.start)) {
        let end = grapheme_floor(text, cut_line.start + end);
        return trim_end(&text[..end.max(best)]);
    }
    if best == 0 && no_boundary == NoBoundary::CutAtGrapheme {
        return trim_end(&text[..grapheme_floor(text, limit)]);
    }
    &text[..best]
}

/// A heading line: `#` is its first unit after leading white space (as
/// OpenClaw's section check trims lines before comparing them).
pub(super) fn is_heading(line: &[u16]) -> bool {
    trim(line).first() == Some(&u16::from(b'#'))
}

/// The last end of a word in `line[..=limit]` (a position `p <= limit`
/// where white space follows a unit that is not), whose line prefix holds
/// a unit that is not ASCII punctuation, a digit or white space.
fn last_word_end(line: &[u16], limit: usize) -> Option<usize> {
    let first_word_unit = line.iter().position(|&unit| is_word_unit(unit))?;
    let last = limit.min(line.len().saturating_sub(1));
    (first_word_unit + 1..=last)
        .rev()
        .find(|&p| is_js_whitespace(line[p]) && !is_js_whitespace(line[p - 1]))
}

fn is_word_unit(unit: u16) -> bool {
    match u8::try_from(unit) {
        Ok(byte) if byte.is_ascii() => byte.is_ascii_alphabetic(),
        _ => !is_js_whitespace(unit),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::utf16::encode;

    fn cut(text: &str, limit: usize, no_boundary: NoBoundary) -> String {
        String::from_utf16_lossy(boundary_prefix(&encode(text), limit, no_boundary))
    }

    const NOTHING: NoBoundary = NoBoundary::KeepNothing;
    const GRAPHEME: NoBoundary = NoBoundary::CutAtGrapheme;

    #[test]
    fn keeps_whole_lines_then_whole_words() {
        let text = "## Decisions\n- reload pending gateway restart\n## Open TODOs";
        assert_eq!(cut(text, 12, NOTHING), "## Decisions");
        assert_eq!(cut(text, 13, NOTHING), "## Decisions");
        assert_eq!(cut(text, 33, NOTHING), "## Decisions\n- reload pending");
        assert_eq!(cut(text, 36, NOTHING), "## Decisions\n- reload pending");
        assert_eq!(
            cut(text, 37, NOTHING),
            "## Decisions\n- reload pending gateway"
        );
        assert_eq!(
            cut(text, 46, NOTHING),
            "## Decisions\n- reload pending gateway restart"
        );
        assert_eq!(cut(text, text.len(), NOTHING), text);
    }

    #[test]
    fn never_cuts_a_heading_or_keeps_a_bare_list_marker() {
        assert_eq!(cut("## Decisions\n- a", 7, NOTHING), "");
        assert_eq!(cut("## Decisions\n- a", 7, GRAPHEME), "");
        assert_eq!(cut("- 漢字テスト漢字テスト", 6, NOTHING), "");
        assert_eq!(cut("- 漢字テスト漢字テスト", 6, GRAPHEME), "- 漢字テス");
        assert_eq!(cut("- 42 items", 6, NOTHING), "");
        assert_eq!(cut("ok\n   \n- 42 items here", 12, NOTHING), "ok");
    }

    #[test]
    fn without_a_boundary_keeps_nothing_or_whole_graphemes() {
        let url = "https://ci.example.com/builds/8841";
        assert_eq!(cut(url, 20, NOTHING), "");
        assert_eq!(cut(url, 20, GRAPHEME), "https://ci.example.c");
        let family = "👨\u{200D}👩\u{200D}👧";
        assert_eq!(cut(&format!("a{family}"), 4, GRAPHEME), "a");
    }

    #[test]
    fn trailing_blank_space_and_crlf_are_left_out() {
        assert_eq!(cut("- one two\r\n- three", 11, NOTHING), "- one two");
        assert_eq!(cut("- one two   three", 12, NOTHING), "- one two");
        assert_eq!(cut("- one\u{3000}two", 8, NOTHING), "- one");
    }
}
