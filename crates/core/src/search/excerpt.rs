//! The excerpt of a hit: at most `limit` UTF-16 units of the entry's text
//! around its best match (where the most of the query's weight lies within
//! one excerpt's length), cut on grapheme boundaries, with `…` where text
//! was left out.

use super::rank::QueryTerm;
use super::stem::Stems;
use super::tokenize::for_each_term;
use crate::utf16::{grapheme_ceil, grapheme_floor};

/// At most this many matches are weighed (a long entry repeating a term).
const MAX_MATCHES: usize = 256;
const ELLIPSIS: u16 = 0x2026;

pub(crate) fn excerpt(text: &[u16], terms: &[QueryTerm], limit: usize) -> Vec<u16> {
    if text.len() <= limit {
        return text.to_vec();
    }
    let center = best_match(text, terms, limit).unwrap_or(0);
    // A little context before the match, the rest after it.
    let mut start = center.saturating_sub(limit / 4);
    start = start.min(text.len() - limit);
    let marks = limit >= 16;
    let mut budget = limit;
    if marks && start > 0 {
        budget -= 1;
    }
    if marks && start + budget < text.len() {
        budget -= 1;
    }
    let from = grapheme_ceil(text, start);
    let to = grapheme_floor(text, from + budget).max(from);
    let mut out = Vec::with_capacity(limit);
    if marks && from > 0 {
        out.push(ELLIPSIS);
    }
    out.extend_from_slice(&text[from..to]);
    if marks && to < text.len() {
        out.push(ELLIPSIS);
    }
    out
}

/// At most this many units of an entry are tokenized to find its best match:
/// a multi-megabyte entry costs about what a 256 Ki-unit one does.
const SCANNED_UNITS: usize = 1 << 18;
/// The entry is looked at a chunk at a time (cut after a space or line feed
/// near this length), and a chunk of ASCII text is tokenized only when it
/// holds one of the query's terms' first letters, in any case.
const CHUNK_UNITS: usize = 1 << 15;
const PREFIX_BYTES: usize = 3;

/// The UTF-16 position of the match that starts the window holding the
/// most query weight (distinct terms), if any term matches within the
/// first [`SCANNED_UNITS`] units of the chunks that could hold one.
fn best_match(text: &[u16], terms: &[QueryTerm], limit: usize) -> Option<usize> {
    if terms.is_empty() {
        return None;
    }
    // A term's first letters: its stem is its word folded (lowercase ASCII
    // for an ASCII word) with a suffix changed, so an ASCII chunk without
    // them holds no match. A term that is not ASCII is only ever in a chunk
    // that is not either, and such a chunk is always tokenized.
    let prefixes: Vec<&[u8]> = terms
        .iter()
        .filter(|term| !term.text.is_empty() && term.text.is_ascii())
        .map(|term| &term.text.as_bytes()[..term.text.len().min(PREFIX_BYTES)])
        .collect();
    let mut stems = Stems::default();
    let mut units: Vec<(usize, usize)> = Vec::new(); // (unit position, term)
    let (mut start, mut scanned) = (0, 0);
    while start < text.len() && scanned < SCANNED_UNITS && units.len() < MAX_MATCHES {
        let end = chunk_end(text, start);
        let chunk = &text[start..end];
        if !chunk.iter().all(|&unit| unit < 0x80) || holds_any(chunk, &prefixes) {
            scanned += chunk.len();
            matches_in(chunk, start, terms, &mut stems, &mut units);
        }
        start = end;
    }
    units.truncate(MAX_MATCHES);
    let first = units.first()?.0;
    let window = limit * 3 / 4;
    let mut best = (0f32, first);
    let mut seen = vec![false; terms.len()];
    for (i, &(start, _)) in units.iter().enumerate() {
        seen.iter_mut().for_each(|s| *s = false);
        let mut weight = 0f32;
        for &(at, term) in units.iter().skip(i) {
            if at >= start + window {
                break;
            }
            if !seen[term] {
                seen[term] = true;
                weight += terms[term].idf;
            }
        }
        if weight > best.0 {
            best = (weight, start);
        }
    }
    Some(best.1)
}

/// Where the chunk from `start` ends: just after the last space or line
/// feed of its last 256 units (a word is not cut in two), else at its length.
fn chunk_end(text: &[u16], start: usize) -> usize {
    let end = (start + CHUNK_UNITS).min(text.len());
    if end == text.len() {
        return end;
    }
    text[end.saturating_sub(256).max(start)..end]
        .iter()
        .rposition(|&unit| unit == u16::from(b' ') || unit == u16::from(b'\n'))
        .map_or(end, |at| end.saturating_sub(256).max(start) + at + 1)
}

/// Whether the ASCII `chunk` holds one of `prefixes`, ignoring ASCII case.
fn holds_any(chunk: &[u16], prefixes: &[&[u8]]) -> bool {
    let lower: Vec<u8> = chunk
        .iter()
        .map(|&unit| (unit as u8).to_ascii_lowercase())
        .collect();
    prefixes
        .iter()
        .any(|prefix| memchr::memmem::find(&lower, prefix).is_some())
}

/// The query terms' matches in `chunk` (at `offset` in the text), as UTF-16
/// positions in the text, added to `units` in order.
fn matches_in(
    chunk: &[u16],
    offset: usize,
    terms: &[QueryTerm],
    stems: &mut Stems,
    units: &mut Vec<(usize, usize)>,
) {
    let decoded = String::from_utf16_lossy(chunk);
    let mut matches: Vec<(usize, usize)> = Vec::new(); // (byte, term)
    for_each_term(&decoded, stems, |term| {
        if units.len() + matches.len() < MAX_MATCHES {
            if let Some(number) = terms.iter().position(|t| t.text == term.text) {
                matches.push((term.at.start, number));
            }
        }
    });
    // Byte offsets to UTF-16 positions, in one pass (matches ascend). A lone
    // surrogate decodes to U+FFFD, one unit as it was.
    let (mut unit, mut next) = (offset, 0usize);
    for (byte, c) in decoded.char_indices() {
        while next < matches.len() && matches[next].0 <= byte {
            units.push((unit, matches[next].1));
            next += 1;
        }
        unit += c.len_utf16();
    }
    units.extend(matches[next..].iter().map(|&(_, term)| (unit, term)));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::utf16::encode;

    fn term(text: &str) -> QueryTerm {
        QueryTerm {
            text: text.into(),
            number: 0,
            idf: 1.0,
        }
    }

    #[test]
    fn short_text_is_whole_and_long_text_is_cut_around_the_match() {
        let text = encode("short");
        assert_eq!(excerpt(&text, &[term("short")], 10), text);
        let long = format!(
            "{} the staging database moved {}",
            "x ".repeat(500),
            "y ".repeat(500)
        );
        let cut = String::from_utf16(&excerpt(&encode(&long), &[term("databas")], 60)).unwrap();
        assert!(cut.contains("database"), "{cut}");
        assert!(cut.starts_with('…') && cut.ends_with('…'), "{cut}");
        assert!(cut.encode_utf16().count() <= 60);
    }

    #[test]
    fn cuts_never_split_a_grapheme() {
        let long = "👍🏽".repeat(100);
        for limit in [1, 7, 16, 33] {
            let cut = excerpt(&encode(&long), &[], limit);
            assert!(cut.len() <= limit);
            let text = String::from_utf16(&cut).unwrap().replace('…', "");
            assert_eq!(text.chars().count() % 2, 0, "{text}");
        }
    }

    #[test]
    fn a_match_deep_in_a_multi_megabyte_entry_is_found_in_any_case() {
        let filler = "lorem ipsum dolor sit amet ".repeat(40_000); // about 1 M units
        for word in ["Database", "DATABASES", "database"] {
            let long = format!("{filler}{word} moved to staging {filler}");
            let cut = String::from_utf16(&excerpt(&encode(&long), &[term("databas")], 80)).unwrap();
            assert!(cut.contains(word), "{word}: {cut}");
        }
        let cjk = format!(
            "{}会议纪要{}",
            "天气很好。".repeat(100_000),
            "天气很好。".repeat(10)
        );
        let cut = String::from_utf16(&excerpt(&encode(&cjk), &[term("会议")], 40)).unwrap();
        // Past the scanned budget of a text that is all non-ASCII: the start.
        assert!(cut.starts_with("天气"), "{cut}");
        let near = format!(
            "{}会议纪要{}",
            "天气很好。".repeat(1_000),
            "天气很好。".repeat(1_000)
        );
        let cut = String::from_utf16(&excerpt(&encode(&near), &[term("会议")], 40)).unwrap();
        assert!(cut.contains("会议"), "{cut}");
    }
}
