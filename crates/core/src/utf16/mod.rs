//! JavaScript string semantics on `&[u16]`.
//!
//! Every position here is a UTF-16 code unit index, the same number as a JS
//! `string.length`. Input may hold lone surrogates (JS strings can); they are
//! kept as they are and only ever treated as one-unit characters.

mod graphemes;
mod lines;
mod search;
mod surrogates;

pub(crate) use graphemes::grapheme_boundaries;
pub use graphemes::{grapheme_ceil, grapheme_floor, grapheme_prefix, grapheme_suffix};
pub use lines::*;
pub use search::{contains, find};
pub use surrogates::*;

pub const LF: u16 = b'\n' as u16;

/// `text`'s bytes in memory order, to search with memchr's vectorised
/// routines (a u16 has no invalid bit patterns, and u8 needs no alignment).
fn as_bytes(text: &[u16]) -> &[u8] {
    // SAFETY: the pointer and length cover exactly `text`'s initialised
    // memory, borrowed for the same lifetime.
    unsafe { std::slice::from_raw_parts(text.as_ptr().cast::<u8>(), std::mem::size_of_val(text)) }
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
    let mut units = Vec::new();
    push_str(&mut units, text);
    units
}

/// Appends `text` as UTF-16. A str has at least as many bytes as UTF-16
/// units: one reservation, no growing. Text is mostly ASCII with a few
/// other characters: each ASCII stretch is widened in a loop the compiler
/// vectorises, each other character encoded alone (`encode_utf16` over the
/// whole text, char by char, was a quarter of a log tail's read, in its
/// JSON strings).
pub fn push_str(out: &mut Vec<u16>, text: &str) {
    out.reserve(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let ascii = rest
            .bytes()
            .position(|byte| byte >= 0x80)
            .unwrap_or(rest.len());
        out.extend(rest.as_bytes()[..ascii].iter().map(|&byte| u16::from(byte)));
        rest = &rest[ascii..];
        let mut chars = rest.chars();
        if let Some(c) = chars.next() {
            let mut pair = [0u16; 2];
            out.extend_from_slice(c.encode_utf16(&mut pair));
            rest = chars.as_str();
        }
    }
}
