//! Lines: finding line feeds (memchr over the bytes, or a short scan near
//! the start), line starts and ranges, positions of ASCII characters.

use std::ops::Range;

use super::{as_bytes, is_js_whitespace, LF};

/// The start of the line that `text[..pos]` ends in: just after the last
/// LF before `pos`, else 0. Grapheme segmentation can restart there (a
/// break always follows LF).
pub fn line_start(text: &[u16], pos: usize) -> usize {
    rfind_lf(text, pos).map_or(0, |lf| lf + 1)
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
