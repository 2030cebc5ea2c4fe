//! Text to index terms: UAX #29 word boundaries, case folding, diacritics
//! removed (NFKD, combining marks dropped), English stop words left out and
//! English stemming (`stem`); text in scripts written without spaces (Han,
//! Hiragana, Katakana, Thai, Lao, Khmer, Myanmar) as overlapping character
//! bigrams plus single characters, so a two-character Chinese query finds
//! its entry without a dictionary.
//!
//! The same function reads the log and the query, so both sides agree by
//! construction. Positions are byte ranges of the decoded text (the
//! excerpt turns them into UTF-16 units).

use std::ops::Range;

use unicode_normalization::char::is_combining_mark;
use unicode_normalization::UnicodeNormalization;
use unicode_segmentation::UnicodeSegmentation;

use super::stem::Stems;

/// A longer word (a base64 blob, a minified line) is not a term: it would
/// only grow the index, and no one types it as a query.
pub(crate) const MAX_TERM_BYTES: usize = 96;

/// One term of a text, with the bytes of the text it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Term<'t> {
    pub text: &'t str,
    pub at: Range<usize>,
    /// A single character of a script without spaces (also covered by
    /// its bigrams): a query uses it only when it is all the query has.
    pub unigram: bool,
}

/// Whether `c` belongs to a script written without spaces between words.
pub(crate) fn is_unspaced(c: char) -> bool {
    matches!(c as u32,
        0x0E00..=0x0EFF // Thai, Lao
        | 0x1000..=0x109F // Myanmar
        | 0x1780..=0x17FF // Khmer
        | 0x3005..=0x3007 // ideographic iteration and number marks
        | 0x3040..=0x30FF // Hiragana, Katakana
        | 0x31F0..=0x31FF // Katakana phonetic extensions
        | 0x3400..=0x4DBF // CJK extension A
        | 0x4E00..=0x9FFF // CJK unified ideographs
        | 0xF900..=0xFAFF // CJK compatibility ideographs
        | 0x20000..=0x3FFFF) // CJK extensions B and later
}

/// What the tokeniser finds, before stemming: the indexer maps folded words
/// to term numbers through a memo of its own, the query and the excerpt
/// stem them ([`for_each_term`]).
pub(crate) trait Words {
    /// A word of spaced text, folded (not yet stemmed or checked for stop words).
    fn word(&mut self, folded: &str, at: Range<usize>);
    /// A character (`unigram`) or a pair of characters of a script without spaces.
    fn gram(&mut self, gram: &str, at: Range<usize>, unigram: bool);
}

/// Calls `sink` with every word and character gram of `text`, in order.
pub(crate) fn for_each_word(text: &str, sink: &mut impl Words) {
    let mut folded = String::new();
    let mut rest = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if c.is_ascii() || !is_unspaced(c) {
            continue;
        }
        let mut end = start + c.len_utf8();
        while let Some(&(at, next)) = chars.peek() {
            if !is_unspaced(next) {
                break;
            }
            end = at + next.len_utf8();
            chars.next();
        }
        spaced_words(&text[rest..start], rest, &mut folded, sink);
        unspaced_run(&text[start..end], start, sink);
        rest = end;
    }
    spaced_words(&text[rest..], rest, &mut folded, sink);
}

/// Calls `each` with every term of `text` (words stemmed, stop words left out), in order.
pub(crate) fn for_each_term(text: &str, stems: &mut Stems, each: impl FnMut(Term<'_>)) {
    struct Stemmed<'s, F> {
        stems: &'s mut Stems,
        each: F,
    }
    impl<F: FnMut(Term<'_>)> Words for Stemmed<'_, F> {
        fn word(&mut self, folded: &str, at: Range<usize>) {
            if let Some(text) = self.stems.term(folded) {
                (self.each)(Term {
                    text,
                    at,
                    unigram: false,
                });
            }
        }
        fn gram(&mut self, gram: &str, at: Range<usize>, unigram: bool) {
            (self.each)(Term {
                text: gram,
                at,
                unigram,
            });
        }
    }
    for_each_word(text, &mut Stemmed { stems, each });
}

/// A run of a script without spaces: each character, and each pair of
/// neighbours.
fn unspaced_run(run: &str, base: usize, sink: &mut impl Words) {
    let starts: Vec<usize> = run.char_indices().map(|(at, _)| at).collect();
    let end = |k: usize| starts.get(k + 1).copied().unwrap_or(run.len());
    for (i, &at) in starts.iter().enumerate() {
        sink.gram(&run[at..end(i)], base + at..base + end(i), true);
        if i + 1 < starts.len() {
            sink.gram(&run[at..end(i + 1)], base + at..base + end(i + 1), false);
        }
    }
}

/// Words by UAX #29 (a segment with a letter or a digit is a word), folded.
/// UAX #29 never joins across ASCII white space, so the text is cut there
/// first, and a chunk of ASCII takes [`ascii_words`], the same rules on
/// ASCII without the Unicode tables (the indexer's hottest loop).
fn spaced_words(part: &str, base: usize, folded: &mut String, sink: &mut impl Words) {
    let bytes = part.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        while at < bytes.len() && bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        let start = at;
        while at < bytes.len() && !bytes[at].is_ascii_whitespace() {
            at += 1;
        }
        if start == at {
            continue;
        }
        let chunk = &part[start..at];
        let offset = base + start;
        if chunk.is_ascii() {
            ascii_words(chunk.as_bytes(), |from, to| {
                fold(&chunk[from..to], folded);
                if folded.len() <= MAX_TERM_BYTES {
                    sink.word(folded, offset + from..offset + to);
                }
            });
            continue;
        }
        for (from, word) in chunk.split_word_bound_indices() {
            if !word.chars().any(char::is_alphanumeric) {
                continue;
            }
            fold(word, folded);
            if folded.is_empty() || folded.len() > MAX_TERM_BYTES {
                continue;
            }
            sink.word(folded, offset + from..offset + from + word.len());
        }
    }
}

/// UAX #29's word segments of ASCII text that hold a letter or a digit, as
/// byte ranges. Letters, digits and `_` join (WB5, WB8–WB10, WB13a/b); a
/// `:`, `.` or `'` between two letters joins them (WB6/7); a `,`, `;`, `.`
/// or `'` between two digits joins them (WB11/12).
pub(crate) fn ascii_words(text: &[u8], mut each: impl FnMut(usize, usize)) {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut at = 0;
    while at < text.len() {
        if !word(text[at]) {
            at += 1;
            continue;
        }
        let start = at;
        let mut has_alnum = false;
        loop {
            while at < text.len() && word(text[at]) {
                has_alnum |= text[at] != b'_';
                at += 1;
            }
            // A middle character joins when both neighbours allow it.
            if at + 1 < text.len() {
                let (before, mid, after) = (text[at - 1], text[at], text[at + 1]);
                let letters = before.is_ascii_alphabetic()
                    && after.is_ascii_alphabetic()
                    && matches!(mid, b':' | b'.' | b'\'');
                let digits = before.is_ascii_digit()
                    && after.is_ascii_digit()
                    && matches!(mid, b',' | b';' | b'.' | b'\'');
                if letters || digits {
                    at += 1;
                    continue;
                }
            }
            break;
        }
        if has_alnum {
            each(start, at);
        }
    }
}

/// Lower case, compatibility-decomposed, without combining marks; the
/// apostrophe look-alikes as `'`.
pub(crate) fn fold(word: &str, out: &mut String) {
    out.clear();
    if word.is_ascii() {
        out.extend(word.bytes().map(|b| b.to_ascii_lowercase() as char));
        return;
    }
    for c in word.nfkd() {
        if is_combining_mark(c) {
            continue;
        }
        match c {
            '\u{2019}' | '\u{2018}' | '\u{02BC}' | '\u{FF07}' => out.push('\''),
            c if c.is_ascii() => out.push(c.to_ascii_lowercase()),
            c => out.extend(c.to_lowercase()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn terms(text: &str) -> Vec<String> {
        let mut stems = Stems::default();
        let mut out = Vec::new();
        for_each_term(text, &mut stems, |term| out.push(term.text.to_owned()));
        out
    }

    #[test]
    fn latin_words_are_folded_stemmed_and_stop_words_dropped() {
        assert_eq!(
            terms("The Naïve CAFÉ owners were deploying Überschall-Tests!"),
            ["naiv", "cafe", "owner", "deploy", "uberschal", "test"]
        );
        assert_eq!(terms("ﬁle ＡＢＣ"), ["file", "abc"]);
        assert_eq!(terms("it’s Bob’s"), ["bob"]);
    }

    #[test]
    fn chinese_is_bigrams_and_characters() {
        assert_eq!(
            terms("数据库迁移"),
            ["数", "数据", "据", "据库", "库", "库迁", "迁", "迁移", "移"]
        );
        // Latin inside CJK stays a word.
        assert_eq!(
            terms("部署staging数据库"),
            ["部", "部署", "署", "stage", "数", "数据", "据", "据库", "库"]
        );
    }

    #[test]
    fn japanese_and_thai_runs() {
        assert_eq!(terms("テスト"), ["テ", "テス", "ス", "スト", "ト"]);
        let thai = terms("ภาษาไทย");
        assert!(thai.contains(&"ไท".to_owned()), "{thai:?}");
        assert_eq!(thai.len(), 7 + 6);
    }

    #[test]
    fn emoji_and_punctuation_are_not_words() {
        assert_eq!(terms("🚀 launch🚀day 👍🏽"), ["launch", "day"]);
        assert!(terms("!!! ... 😀😀 ---").is_empty());
    }

    #[test]
    fn identifiers_and_numbers_stay_whole() {
        assert_eq!(
            terms("see src/lib.rs:42 v1.2.3 snake_case INC-2026"),
            [
                "see",
                "src",
                "lib.rs",
                "42",
                "v1.2.3",
                "snake_case",
                "inc",
                "2026"
            ]
        );
    }

    /// The ASCII fast path gives exactly UAX #29's words.
    #[test]
    fn ascii_words_agree_with_uax29() {
        let alphabet = b"ab Z09_:.',;-/!\"\t\n";
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            let len = (state % 24) as usize;
            let text: String = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    alphabet[(state % alphabet.len() as u64) as usize] as char
                })
                .collect();
            let mut fast = Vec::new();
            ascii_words(text.as_bytes(), |from, to| fast.push(&text[from..to]));
            let uax: Vec<&str> = text
                .split_word_bounds()
                .filter(|w| w.chars().any(char::is_alphanumeric))
                .collect();
            assert_eq!(fast, uax, "{text:?}");
        }
    }

    #[test]
    fn ranges_point_at_the_source_words() {
        let text = "Déployé le 数据";
        let mut stems = Stems::default();
        let mut seen = Vec::new();
        for_each_term(text, &mut stems, |term| seen.push(text[term.at].to_owned()));
        assert_eq!(seen, ["Déployé", "le", "数", "数据", "据"]);
    }
}
