//! English stemming (Snowball's English, "Porter2", from `rust-stemmers`)
//! and English stop words, with a memo: chat text repeats its words, and
//! the stemmer is the costliest step of indexing.

use foldhash::HashMap;
use rust_stemmers::{Algorithm, Stemmer};

/// Words too common to tell entries apart (the usual English list, as
/// Lucene's and NLTK's, without the words that carry meaning in a chat
/// such as "not" and "again"). Folded text, sorted for a binary search.
const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "all",
    "also",
    "am",
    "an",
    "and",
    "any",
    "are",
    "aren't",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "between",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "doing",
    "down",
    "during",
    "each",
    "few",
    "for",
    "from",
    "further",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "herself",
    "him",
    "himself",
    "his",
    "how",
    "i",
    "i'd",
    "i'll",
    "i'm",
    "i've",
    "if",
    "in",
    "into",
    "is",
    "it",
    "it's",
    "its",
    "itself",
    "just",
    "let's",
    "me",
    "more",
    "most",
    "my",
    "myself",
    "of",
    "off",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "same",
    "she",
    "should",
    "so",
    "some",
    "such",
    "than",
    "that",
    "that's",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "very",
    "was",
    "we",
    "we're",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "why",
    "will",
    "with",
    "would",
    "you",
    "you're",
    "your",
    "yours",
    "yourself",
];

/// How many distinct words the memo keeps before it starts over (bounded
/// memory on a log of random ids).
const MEMO_LIMIT: usize = 1 << 16;

pub(crate) fn is_stop_word(word: &str) -> bool {
    STOP_WORDS.binary_search(&word).is_ok()
}

/// The stemmer and its memo; one per build or query.
pub(crate) struct Stems {
    stemmer: Stemmer,
    memo: HashMap<Box<str>, Option<Box<str>>>,
}

impl Default for Stems {
    fn default() -> Self {
        Stems {
            stemmer: Stemmer::create(Algorithm::English),
            memo: HashMap::default(),
        }
    }
}

impl Stems {
    /// The index term of a folded word: `None` for a stop word, its stem for
    /// an English-looking word (ASCII letters and apostrophes), else the
    /// word itself (numbers, identifiers, other languages).
    pub(crate) fn term<'s>(&'s mut self, folded: &str) -> Option<&'s str> {
        if !self.memo.contains_key(folded) {
            if self.memo.len() >= MEMO_LIMIT {
                self.memo.clear();
            }
            let term = self.compute(folded);
            self.memo.insert(folded.into(), term);
        }
        self.memo.get(folded)?.as_deref()
    }

    pub(crate) fn compute(&self, folded: &str) -> Option<Box<str>> {
        if is_stop_word(folded) {
            return None;
        }
        let english = folded.bytes().all(|b| b.is_ascii_lowercase() || b == b'\'')
            && folded.bytes().any(|b| b != b'\'');
        if !english {
            return Some(folded.into());
        }
        let stem = self.stemmer.stem(folded);
        let stem = stem.trim_matches('\'');
        if stem.is_empty() {
            return None;
        }
        Some(stem.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_sorted_and_folded() {
        assert!(STOP_WORDS.windows(2).all(|pair| pair[0] < pair[1]));
        assert!(STOP_WORDS
            .iter()
            .all(|w| w.chars().all(|c| !c.is_uppercase())));
    }

    #[test]
    fn inflections_share_a_stem() {
        let mut stems = Stems::default();
        let mut term = |w: &str| stems.term(w).map(str::to_owned);
        assert_eq!(term("deployed"), term("deploying"));
        assert_eq!(term("databases"), term("database"));
        assert_eq!(term("migrations"), term("migration"));
        assert_eq!(term("decided"), term("decide"));
        assert_eq!(term("the"), None);
        assert_eq!(term("it's"), None);
        assert_eq!(term("42"), Some("42".to_owned()));
        assert_eq!(term("staging"), Some("stage".to_owned()));
    }
}
