//! Grapheme clusters: where a cut may fall so that no user-perceived
//! character is split (a lone surrogate counts as one).

use unicode_segmentation::UnicodeSegmentation;

use super::{find_lf, line_start, surrogate_safe_ceil, LF};

/// Grapheme cluster boundaries within `text[from..to]`, as absolute positions,
/// `from` included. `from` must itself be a boundary.
pub(crate) fn grapheme_boundaries(text: &[u16], from: usize, to: usize) -> Vec<usize> {
    // Decode to a `String` with a byte-offset → unit-offset table. A lone
    // surrogate stands in as U+FFFD, also one unit long, so offsets stay true.
    let mut decoded = String::with_capacity(to - from);
    let mut unit_at_byte = Vec::with_capacity(to - from + 1);
    let mut unit = from;
    for result in char::decode_utf16(text[from..to].iter().copied()) {
        let (ch, units) = match result {
            Ok(ch) => (ch, ch.len_utf16()),
            Err(_) => (char::REPLACEMENT_CHARACTER, 1),
        };
        for _ in 0..ch.len_utf8() {
            unit_at_byte.push(unit);
        }
        decoded.push(ch);
        unit += units;
    }
    unit_at_byte.push(to);
    decoded
        .grapheme_indices(true)
        .map(|(byte, _)| unit_at_byte[byte])
        .collect()
}

/// How far back from a position [`anchor`] looks for two plain characters.
const ANCHOR_SEARCH: usize = 256;

/// Whether no rule of UAX #29 joins this character to its neighbours (its
/// Grapheme_Cluster_Break is Other and it is no Extended_Pictographic):
/// printable ASCII, CJK ideographs, kana without the combining sound marks.
fn plain(unit: u16) -> bool {
    matches!(unit, 0x20..=0x7e | 0x3041..=0x3096 | 0x30a1..=0x30fa | 0x3400..=0x4dbf | 0x4e00..=0x9fff)
}

/// A grapheme boundary at or before `pos` (`0 < pos < text.len()`) to
/// segment from: between two plain characters within [`ANCHOR_SEARCH`] units
/// back, else the line's start (a line feed ends every cluster). Segmenting
/// from the line's start alone made each cut in a long line cost the line.
fn anchor(text: &[u16], pos: usize) -> usize {
    let line = line_start(text, pos);
    let lowest = pos.saturating_sub(ANCHOR_SEARCH).max(line + 1);
    (lowest..=pos)
        .rev()
        .find(|&at| plain(text[at - 1]) && plain(text[at]))
        .unwrap_or(line)
}

/// The largest grapheme cluster boundary `<= pos` (never inside a surrogate
/// pair, a ZWJ emoji sequence, a flag or a letter with its combining marks).
pub fn grapheme_floor(text: &[u16], pos: usize) -> usize {
    let pos = pos.min(text.len());
    if pos == 0 || pos == text.len() || text[pos - 1] == LF {
        return pos;
    }
    let anchor = anchor(text, pos);
    // Whether `pos` is a boundary depends on the character at `pos` too; one
    // full character past it (two units) is enough context.
    let window_end = (pos + 2).min(text.len());
    let window_end = surrogate_safe_ceil(text, window_end);
    grapheme_boundaries(text, anchor, window_end)
        .into_iter()
        .rev()
        .find(|&boundary| boundary <= pos)
        .unwrap_or(anchor)
}

/// The smallest grapheme cluster boundary `>= pos`.
pub fn grapheme_ceil(text: &[u16], pos: usize) -> usize {
    let pos = pos.min(text.len());
    if pos == 0 || pos == text.len() || text[pos - 1] == LF {
        return pos;
    }
    let anchor = anchor(text, pos);
    // A cluster ends at the latest just after the next line feed.
    let line_end = find_lf(text, pos).map_or(text.len(), |lf| lf + 1);
    let mut window_end = (pos + 64).min(line_end);
    loop {
        let end = surrogate_safe_ceil(text, window_end);
        let boundaries = grapheme_boundaries(text, anchor, end);
        // The last boundary of a window that stops short of the line end may
        // not be real (the cluster may go on): only trust earlier ones.
        let trusted = if end < line_end {
            boundaries.len().saturating_sub(1)
        } else {
            boundaries.len()
        };
        if let Some(&boundary) = boundaries[..trusted].iter().find(|&&b| b >= pos) {
            return boundary;
        }
        if end >= line_end {
            return line_end;
        }
        window_end = (window_end + (window_end - anchor)).min(line_end);
    }
}

/// The longest prefix of `text` of at most `limit` units that ends on a
/// grapheme boundary.
pub fn grapheme_prefix(text: &[u16], limit: usize) -> &[u16] {
    if text.len() <= limit {
        return text;
    }
    &text[..grapheme_floor(text, limit)]
}

/// The longest suffix of `text` of at most `limit` units that starts on a
/// grapheme boundary.
pub fn grapheme_suffix(text: &[u16], limit: usize) -> &[u16] {
    if text.len() <= limit {
        return text;
    }
    &text[grapheme_ceil(text, text.len() - limit)..]
}
