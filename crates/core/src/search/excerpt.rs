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

/// The UTF-16 position of the match that starts the window holding the
/// most query weight (distinct terms), if any term matches.
fn best_match(text: &[u16], terms: &[QueryTerm], limit: usize) -> Option<usize> {
    let decoded = String::from_utf16_lossy(text);
    let mut stems = Stems::default();
    let mut matches: Vec<(usize, usize)> = Vec::new(); // (byte, term)
    for_each_term(&decoded, &mut stems, |term| {
        if matches.len() < MAX_MATCHES {
            if let Some(number) = terms.iter().position(|t| t.text == term.text) {
                matches.push((term.at.start, number));
            }
        }
    });
    if matches.is_empty() {
        return None;
    }
    // Byte offsets to UTF-16 positions, in one pass (matches ascend).
    let mut units = Vec::with_capacity(matches.len());
    let (mut unit, mut next) = (0usize, 0usize);
    for (byte, c) in decoded.char_indices() {
        while next < matches.len() && matches[next].0 <= byte {
            units.push(unit);
            next += 1;
        }
        unit += c.len_utf16();
    }
    units.resize(matches.len(), unit);
    let window = limit * 3 / 4;
    let mut best = (0f32, units[0]);
    let mut seen = vec![false; terms.len()];
    for (i, &start) in units.iter().enumerate() {
        seen.iter_mut().for_each(|s| *s = false);
        let mut weight = 0f32;
        for (j, &at) in units.iter().enumerate().skip(i) {
            if at >= start + window {
                break;
            }
            let term = matches[j].1;
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
}
