//! Neutralising look-alike separators: a line of injected text (metadata,
//! summary, log entry) that reads like one of the builder's separators or
//! headings gets [`QUOTED_MARKER`] in front, so the only real structure of a
//! prompt is the builder's own.

use super::QUOTED_MARKER;
use crate::persistent_chat::text::push_str;
use crate::utf16;

/// Units that end a line for a reader (a model or a terminal), not only LF.
pub(super) fn is_line_break(unit: u16) -> bool {
    // As range tests, branch-free, so that `find_line_break` vectorises:
    // U+000A..U+000D, U+0085, U+2028, U+2029.
    (unit.wrapping_sub(0x0A) < 4) | (unit == 0x85) | (unit.wrapping_sub(0x2028) < 2)
}

/// The index of the first line break in `text`. Tests blocks of units with
/// a loop without early exit (vectorised), and looks inside a block only
/// when it holds a break: entry texts are long and their lines too.
fn find_line_break(text: &[u16]) -> Option<usize> {
    const BLOCK: usize = 32;
    let mut blocks = text.chunks_exact(BLOCK);
    let mut offset = 0;
    for block in &mut blocks {
        let any_break = block
            .iter()
            .fold(0u8, |any, &unit| any | u8::from(is_line_break(unit)));
        if any_break != 0 {
            return block
                .iter()
                .position(|&unit| is_line_break(unit))
                .map(|at| offset + at);
        }
        offset += BLOCK;
    }
    let rest = blocks.remainder();
    rest.iter()
        .position(|&unit| is_line_break(unit))
        .map(|at| offset + at)
}

fn is_invisible(unit: u16) -> bool {
    matches!(unit, 0x00AD | 0x200B..=0x200F | 0x2060..=0x2064 | 0xFEFF)
}

/// The phrases that make a line read like one of the builder's separators or
/// headings, as uppercase ASCII letters and digits.
const STRUCTURE_KEYS: [&str; 4] = [
    "LIVETURN",
    "BOOTSTRAPCONTEXT",
    "ROLLINGCONTINUITYSUMMARY",
    "RECENTPERPETUALLOGEXCERPT",
];

/// A line reads like structure when its letters start with one of
/// [`STRUCTURE_KEYS`] and it starts with punctuation (`---`, `—`, `##`,
/// `===`, `[`…) or is written in capitals (`LIVE TURN`). Prose such as
/// "Live turn handling is broken" does not.
fn is_separator_like(line: &[u16]) -> bool {
    let start = line
        .iter()
        .position(|&unit| !utf16::is_js_whitespace(unit) && !is_invisible(unit));
    let Some(start) = start else { return false };
    let line = &line[start..];
    let ascii_alphanumerics = || {
        line.iter()
            .filter_map(|&unit| u8::try_from(unit).ok())
            .filter(u8::is_ascii_alphanumeric)
    };
    // Only the first letters decide (the longest key has 25): no need to
    // look at the rest of a long line, which is almost every line.
    let mut head = [0u8; 25];
    let mut len = 0;
    for (slot, byte) in head.iter_mut().zip(ascii_alphanumerics()) {
        *slot = byte.to_ascii_uppercase();
        len += 1;
    }
    if !STRUCTURE_KEYS
        .iter()
        .any(|key| head[..len].starts_with(key.as_bytes()))
    {
        return false;
    }
    let starts_with_punctuation =
        char::from_u32(u32::from(line[0])).is_none_or(|c| !c.is_alphanumeric());
    starts_with_punctuation || !ascii_alphanumerics().any(|b| b.is_ascii_lowercase())
}

/// `text` with [`QUOTED_MARKER`] before every line that reads like a separator.
pub(crate) fn neutralise_separators(text: impl AsRef<[u16]>) -> Vec<u16> {
    let text = text.as_ref();
    let mut out = Vec::with_capacity(text.len());
    neutralise_separators_into(&mut out, text);
    out
}

/// [`neutralise_separators`], appending to `out`.
pub(super) fn neutralise_separators_into(out: &mut Vec<u16>, text: &[u16]) {
    out.reserve(text.len());
    let mut line_start = 0;
    while line_start <= text.len() {
        let line_end =
            find_line_break(&text[line_start..]).map_or(text.len(), |offset| line_start + offset);
        if is_separator_like(&text[line_start..line_end]) {
            push_str(out, QUOTED_MARKER);
        }
        let next = (line_end + 1).min(text.len());
        out.extend_from_slice(&text[line_start..next]);
        if line_end == text.len() {
            break;
        }
        line_start = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::utf16::encode as u;

    #[test]
    fn prose_mentioning_the_words_is_left_alone() {
        let text = u("Live turn handling is broken\nthe bootstrap context loader\nLIVE TURN is a section name, Bob");
        assert_eq!(neutralise_separators(&text), text);
        assert_eq!(neutralise_separators(u("a\n---\nb")), u("a\n---\nb"));
        // A bullet that starts with the words reads like a heading: quoted.
        assert_eq!(
            neutralise_separators(u("- LIVE TURN")),
            u("[quoted] - LIVE TURN")
        );
        let once = neutralise_separators(u("--- LIVE TURN ---"));
        assert_eq!(neutralise_separators(&once), once, "idempotent");
    }

    #[test]
    fn find_line_break_finds_the_first_break_of_each_kind_anywhere_in_a_block() {
        let breaks = [0x0Au16, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029];
        let near_misses = [0x09u16, 0x0E, 0x84, 0x86, 0x2027, 0x202A, 0x20, 0x41];
        for len in [0, 1, 31, 32, 33, 64, 95, 100] {
            let plain: Vec<u16> = (0..len)
                .map(|i| near_misses[i % near_misses.len()])
                .collect();
            assert_eq!(find_line_break(&plain), None, "len {len}");
            for at in 0..len {
                for &unit in &breaks {
                    let mut text = plain.clone();
                    text[at] = unit;
                    if at + 3 < len {
                        text[at + 3] = 0x0A;
                    }
                    assert_eq!(
                        find_line_break(&text),
                        Some(at),
                        "len {len}, at {at}, unit {unit:#x}"
                    );
                }
            }
        }
    }
}
