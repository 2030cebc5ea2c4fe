//! JavaScript string semantics on `&[u16]`.
//!
//! Every position here is a UTF-16 code unit index, the same number as a JS
//! `string.length`. Input may hold lone surrogates (JS strings can); they are
//! kept as they are and only ever treated as one-unit characters.

use std::ops::Range;

use unicode_segmentation::UnicodeSegmentation;

pub const LF: u16 = b'\n' as u16;

pub fn is_high_surrogate(unit: u16) -> bool {
    (0xD800..=0xDBFF).contains(&unit)
}

pub fn is_low_surrogate(unit: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&unit)
}

/// True when `pos` falls between the two halves of a surrogate pair.
pub fn splits_surrogate_pair(text: &[u16], pos: usize) -> bool {
    pos > 0 && pos < text.len() && is_high_surrogate(text[pos - 1]) && is_low_surrogate(text[pos])
}

/// The largest end `<= limit` that does not split a surrogate pair.
pub fn surrogate_safe_floor(text: &[u16], limit: usize) -> usize {
    let end = limit.min(text.len());
    if splits_surrogate_pair(text, end) {
        end - 1
    } else {
        end
    }
}

/// The smallest start `>= pos` that does not split a surrogate pair.
pub fn surrogate_safe_ceil(text: &[u16], pos: usize) -> usize {
    let start = pos.min(text.len());
    if splits_surrogate_pair(text, start) {
        start + 1
    } else {
        start
    }
}

/// The start of the line that `text[..pos]` ends in: just after the last
/// LF before `pos`, else 0. Grapheme segmentation can restart there (a
/// break always follows LF).
pub fn line_start(text: &[u16], pos: usize) -> usize {
    rfind_lf(text, pos).map_or(0, |lf| lf + 1)
}

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

/// The largest grapheme cluster boundary `<= pos` (never inside a surrogate
/// pair, a ZWJ emoji sequence, a flag or a letter with its combining marks).
pub fn grapheme_floor(text: &[u16], pos: usize) -> usize {
    let pos = pos.min(text.len());
    if pos == 0 || pos == text.len() || text[pos - 1] == LF {
        return pos;
    }
    let anchor = line_start(text, pos);
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
    let anchor = line_start(text, pos);
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

/// `text`'s bytes in memory order, to search with memchr's vectorised
/// routines (a u16 has no invalid bit patterns, and u8 needs no alignment).
fn as_bytes(text: &[u16]) -> &[u8] {
    // SAFETY: the pointer and length cover exactly `text`'s initialised
    // memory, borrowed for the same lifetime.
    unsafe { std::slice::from_raw_parts(text.as_ptr().cast::<u8>(), std::mem::size_of_val(text)) }
}

/// Where in a unit's bytes its low byte sits.
const LOW_BYTE: usize = if cfg!(target_endian = "little") { 0 } else { 1 };

/// The unit index of a byte position holding a LF's `0x0A`, if it is one.
fn lf_at_byte(text: &[u16], byte: usize) -> Option<usize> {
    (byte % 2 == LOW_BYTE && text[byte / 2] == LF).then_some(byte / 2)
}

/// How far a line-feed search looks by itself before it hands the rest to
/// memchr: lines are mostly short, and memchr's set-up costs more than a
/// short line.
const NEAR: usize = 64;
const BLOCK: usize = 16;

/// Whether a block holds `unit`: one comparison of all its units, which the
/// compiler makes two vector compares and a mask test.
fn block_holds(block: &[u16; BLOCK], unit: u16) -> bool {
    block.iter().fold(false, |any, &u| any | (u == unit))
}

// Not inlined: merged into the block loop, it keeps the compiler from
// vectorising the loop's test.
#[inline(never)]
fn first_in_block(block: &[u16; BLOCK], unit: u16) -> usize {
    block.iter().position(|&u| u == unit).unwrap_or(BLOCK)
}

#[inline(never)]
fn last_in_block(block: &[u16; BLOCK], unit: u16) -> usize {
    block.iter().rposition(|&u| u == unit).unwrap_or(0)
}

/// The first `unit` in `text` (short: up to `NEAR` units), a block at a time.
fn position_near(text: &[u16], unit: u16) -> Option<usize> {
    let (blocks, rest) = text.as_chunks::<BLOCK>();
    for (i, block) in blocks.iter().enumerate() {
        if block_holds(block, unit) {
            return Some(i * BLOCK + first_in_block(block, unit));
        }
    }
    rest.iter()
        .position(|&u| u == unit)
        .map(|at| blocks.len() * BLOCK + at)
}

/// The last `unit` in `text` (short: up to `NEAR` units), a block at a time.
fn rposition_near(text: &[u16], unit: u16) -> Option<usize> {
    let (rest, blocks) = text.as_rchunks::<BLOCK>();
    for (i, block) in blocks.iter().enumerate().rev() {
        if block_holds(block, unit) {
            return Some(rest.len() + i * BLOCK + last_in_block(block, unit));
        }
    }
    rest.iter().rposition(|&u| u == unit)
}

/// The first LF at or after `from`: the next `NEAR` units directly, then
/// memchr's vectorised search over the bytes.
pub fn find_lf(text: &[u16], from: usize) -> Option<usize> {
    let from = from.min(text.len());
    let near_end = (from + NEAR).min(text.len());
    if let Some(at) = position_near(&text[from..near_end], LF) {
        return Some(from + at);
    }
    memchr::memchr_iter(b'\n', as_bytes(&text[near_end..]))
        .find_map(|byte| lf_at_byte(&text[near_end..], byte))
        .map(|unit| near_end + unit)
}

/// Every LF at or after `from`, in order.
pub fn line_feeds(text: &[u16], from: usize) -> impl Iterator<Item = usize> + '_ {
    let mut pos = from.min(text.len());
    std::iter::from_fn(move || {
        let found = find_lf(text, pos);
        pos = found.map_or(text.len(), |lf| lf + 1);
        found
    })
}

/// The last LF before `end`: the `NEAR` units before it directly, then
/// memchr's search backwards.
pub fn rfind_lf(text: &[u16], end: usize) -> Option<usize> {
    let end = end.min(text.len());
    let near_start = end.saturating_sub(NEAR);
    if let Some(at) = rposition_near(&text[near_start..end], LF) {
        return Some(near_start + at);
    }
    let text = &text[..near_start];
    memchr::memrchr_iter(b'\n', as_bytes(text)).find_map(|byte| lf_at_byte(text, byte))
}

/// Every position of the ASCII character `ascii` in `text`, in order (one
/// memchr search over the bytes; a byte match counts only where it is a
/// whole unit).
pub fn ascii_positions(text: &[u16], ascii: u8) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr_iter(ascii, as_bytes(text)).filter_map(move |byte| {
        (byte % 2 == LOW_BYTE && text[byte / 2] == u16::from(ascii)).then_some(byte / 2)
    })
}

/// Every position before `end` of one of three ASCII characters, last
/// first (one memchr search backwards over the bytes; a byte match counts
/// only where it is a whole unit).
pub fn ascii_positions_rev(
    text: &[u16],
    end: usize,
    [a, b, c]: [u8; 3],
) -> impl Iterator<Item = usize> + '_ {
    let text = &text[..end.min(text.len())];
    memchr::memrchr3_iter(a, b, c, as_bytes(text)).filter_map(move |byte| {
        let unit = byte / 2;
        (byte % 2 == LOW_BYTE && u8::try_from(text[unit]).is_ok_and(|u| u == a || u == b || u == c))
            .then_some(unit)
    })
}

/// Where the line holding `pos` starts, when only white space precedes
/// `pos` on it (what a trimmed line's first unit is); else `None`.
pub fn start_of_line_led_by(text: &[u16], pos: usize) -> Option<usize> {
    let mut start = pos.min(text.len());
    while start > 0 && text[start - 1] != LF {
        if !is_js_whitespace(text[start - 1]) {
            return None;
        }
        start -= 1;
    }
    Some(start)
}

/// Each line of `text` with its terminating LF (the last one may lack it).
/// A CR before the LF belongs to the line, so CRLF text comes back unchanged.
pub fn line_ranges(text: &[u16]) -> impl Iterator<Item = Range<usize>> + '_ {
    let mut line_feeds = line_feeds(text, 0);
    let mut start = 0;
    std::iter::from_fn(move || {
        let end = match line_feeds.next() {
            Some(lf) => lf + 1,
            None if start < text.len() => text.len(),
            None => return None,
        };
        let line = start..end;
        start = end;
        Some(line)
    })
}

/// `text` without its line terminator (LF or CRLF).
pub fn trim_line_end(text: &[u16]) -> &[u16] {
    let text = text.strip_suffix(&[LF]).unwrap_or(text);
    text.strip_suffix(&[b'\r' as u16]).unwrap_or(text)
}

pub fn starts_with_ascii(text: &[u16], prefix: &str) -> bool {
    text.len() >= prefix.len()
        && text
            .iter()
            .zip(prefix.bytes())
            .all(|(&unit, byte)| unit == u16::from(byte))
}

pub fn ends_with_ascii(text: &[u16], suffix: &str) -> bool {
    text.len() >= suffix.len() && starts_with_ascii(&text[text.len() - suffix.len()..], suffix)
}

pub fn equals_ascii(text: &[u16], ascii: &str) -> bool {
    text.len() == ascii.len() && starts_with_ascii(text, ascii)
}

/// `text` with ASCII whitespace (and the other JS `trim()` spaces) removed at both ends.
pub fn trim(text: &[u16]) -> &[u16] {
    let start = text
        .iter()
        .position(|&u| !is_js_whitespace(u))
        .unwrap_or(text.len());
    trim_end(&text[start..])
}

/// `text` without the white space (as JS `trimEnd()` sees it) at its end.
pub fn trim_end(text: &[u16]) -> &[u16] {
    let end = text
        .iter()
        .rposition(|&u| !is_js_whitespace(u))
        .map_or(0, |i| i + 1);
    &text[..end]
}

/// JavaScript's `WhiteSpace` and `LineTerminator` code points (what `String.prototype.trim` removes).
pub fn is_js_whitespace(unit: u16) -> bool {
    if unit < 0x80 {
        return matches!(unit, 0x09..=0x0D | 0x20);
    }
    matches!(
        unit,
        0xA0 | 0x1680 | 0x2000..=0x200A | 0x2028 | 0x2029 | 0x202F | 0x205F | 0x3000 | 0xFEFF
    )
}

/// First index of `needle` in `haystack` (an empty needle is found at 0).
///
/// memchr's memmem over the bytes (linear in the worst case; a byte match
/// counts only where it starts a whole unit).
pub fn find(haystack: &[u16], needle: &[u16]) -> Option<usize> {
    if needle.is_empty() {
        return Some(0);
    }
    if needle.len() > haystack.len() {
        return None;
    }
    if needle.len() > FIND_HEAD_FIRST {
        // Building a finder costs time in the needle's length, and a long
        // needle (a log entry looked for in a summary) is usually absent:
        // look for its head first. The first match cannot start before the
        // head's first match, so one more search from there stays linear.
        let from = find_aligned(haystack, &needle[..FIND_HEAD_FIRST])?;
        return find_aligned(&haystack[from..], needle).map(|at| from + at);
    }
    find_aligned(haystack, needle)
}

/// Needles longer than this many units are looked for by their head first.
const FIND_HEAD_FIRST: usize = 16;

fn find_aligned(haystack: &[u16], needle: &[u16]) -> Option<usize> {
    let bytes = as_bytes(haystack);
    let finder = memchr::memmem::Finder::new(as_bytes(needle));
    // Not find_iter: its matches do not overlap, and a match at an odd
    // offset could hide an aligned one that overlaps it.
    let mut from = 0;
    while let Some(at) = finder.find(&bytes[from..]).map(|at| from + at) {
        if at % 2 == 0 {
            return Some(at / 2);
        }
        from = at + 1;
    }
    None
}

pub fn contains(haystack: &[u16], needle: &[u16]) -> bool {
    find(haystack, needle).is_some()
}

/// An ASCII string constant as UTF-16 units, at compile time (`N` is its
/// length: `encode_ascii::<{ TEXT.len() }>(TEXT)`).
pub const fn encode_ascii<const N: usize>(text: &str) -> [u16; N] {
    let bytes = text.as_bytes();
    assert!(bytes.len() == N, "N must be the text's length");
    let mut units = [0u16; N];
    let mut i = 0;
    while i < N {
        assert!(bytes[i].is_ascii(), "the text must be ASCII");
        units[i] = bytes[i] as u16;
        i += 1;
    }
    units
}

/// Encodes a Rust string literal as UTF-16, for building output.
pub fn encode(text: &str) -> Vec<u16> {
    // A str has at least as many bytes as UTF-16 units: one allocation, no
    // growing (`collect` starts from the iterator's small lower bound).
    let mut units = Vec::with_capacity(text.len());
    units.extend(text.encode_utf16());
    units
}
