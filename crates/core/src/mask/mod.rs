//! Secret masking in linear time, on UTF-16 text.
//!
//! Every pattern (the built-in shapes of [`builtin`], the operator's of
//! [`operator`]) is a `regex` pattern: finite automata, no backtracking,
//! so one search is linear in the text whatever the pattern or the text. A
//! `RegexSet` says in one pass which patterns occur; only those are searched
//! again for their matches. The text is searched as WTF-8 ([`wtf8`]), so it
//! comes back exactly (lone surrogates included) but for the masked spans.
//!
//! Each masked span becomes a typed placeholder, `[redacted:TYPE]`
//! (`[redacted:github-token]`, `[redacted:password]`, `[redacted:custom]` for
//! an operator's pattern): it does not look like a value, so a model never
//! takes it for the credential. `<private>…</private>` spans ([`private`])
//! become `[redacted:private]`, tags and all. Placeholders already in the
//! text are left as they are: masking twice gives what masking once gave.

mod builtin;
mod operator;
mod private;
mod spans;
mod wtf8;

use regex::bytes::{Regex, RegexBuilder, RegexSet, RegexSetBuilder};

pub use builtin::SHAPES;
pub use operator::{Refusal, MAX_PATTERNS, MAX_SOURCE_CHARS};
pub use spans::PLACEHOLDER_PATTERN;

/// The most passes over one text (see [`Masker::mask`]).
pub const MAX_PASSES: usize = 4;

/// The type of the placeholder of an operator pattern's match.
pub const CUSTOM_KIND: &str = "custom";

/// A span of the WTF-8 text to mask, and the type its placeholder names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
    pub kind: &'static str,
}

struct Pattern {
    regex: Regex,
    kind: &'static str,
    /// Only the first capturing group is masked.
    grouped: bool,
}

/// The masker: the built-in shapes and the operator's patterns, compiled
/// once, used from any thread.
pub struct Masker {
    set: RegexSet,
    patterns: Vec<Pattern>,
    placeholders: Regex,
    refused: Vec<Refusal>,
    accepted: Vec<String>,
}

impl Masker {
    /// The built-in shapes and the operator's `patterns` (JS `source` or
    /// `/source/flags`). A pattern that cannot be used is in
    /// [`Masker::refused`] with its reason; the others apply.
    pub fn new<S: AsRef<str>>(patterns: &[S]) -> Masker {
        let mut compiled = Vec::new();
        let mut refused = Vec::new();
        for (index, pattern) in patterns.iter().enumerate() {
            let pattern = pattern.as_ref();
            let result = if index >= MAX_PATTERNS {
                Err(format!("more than {MAX_PATTERNS} patterns"))
            } else {
                operator::compile(pattern)
            };
            match result {
                Ok(pattern) => compiled.push(pattern),
                Err(reason) => refused.push(Refusal {
                    pattern: pattern.to_owned(),
                    reason,
                }),
            }
        }
        let mut sources: Vec<String> = SHAPES.iter().map(|s| s.pattern.to_owned()).collect();
        let mut list: Vec<Pattern> = SHAPES
            .iter()
            .map(|shape| {
                let regex = RegexBuilder::new(shape.pattern)
                    .build()
                    .expect("a built-in pattern compiles");
                let grouped = regex.captures_len() > 1;
                Pattern {
                    regex,
                    kind: shape.kind,
                    grouped,
                }
            })
            .collect();
        let mut accepted: Vec<String> = compiled.iter().map(|c| c.source.clone()).collect();
        for pattern in compiled {
            sources.push(pattern.regex.as_str().to_owned());
            list.push(Pattern {
                regex: pattern.regex,
                kind: CUSTOM_KIND,
                grouped: pattern.grouped,
            });
        }
        let set = match build_set(&sources) {
            Ok(set) => set,
            Err(reason) => {
                // Each pattern compiled alone: only their sum can be too large.
                for source in accepted.drain(..) {
                    refused.push(Refusal {
                        pattern: source,
                        reason: reason.clone(),
                    });
                }
                list.truncate(SHAPES.len());
                sources.truncate(SHAPES.len());
                build_set(&sources).expect("the built-in patterns compile together")
            }
        };
        Masker {
            set,
            patterns: list,
            placeholders: spans::placeholders(),
            refused,
            accepted,
        }
    }

    /// [`Masker::new`] for patterns given as UTF-16 (JS strings): one with a
    /// lone surrogate is refused (a pattern is Unicode text).
    pub fn from_utf16(patterns: &[Vec<u16>]) -> Masker {
        let mut valid = Vec::new();
        let mut invalid = Vec::new();
        for pattern in patterns {
            match String::from_utf16(pattern) {
                Ok(text) => valid.push(text),
                Err(_) => invalid.push(Refusal {
                    pattern: String::from_utf16_lossy(pattern),
                    reason: "it has a lone surrogate".into(),
                }),
            }
        }
        let mut masker = Masker::new(&valid);
        masker.refused.extend(invalid);
        masker
    }

    /// The operator patterns not used, each with its reason, in the order given.
    pub fn refused(&self) -> &[Refusal] {
        &self.refused
    }

    /// The operator patterns in use, in the order given.
    pub fn accepted(&self) -> &[String] {
        &self.accepted
    }

    /// `text` with every secret span and `<private>` span replaced by its
    /// placeholder; every other unit exactly as it was.
    ///
    /// A placeholder can make a shape that needs a word boundary match where
    /// it did not (`xsk-…` with the `x` masked by an operator pattern): the
    /// text is masked again while that changes it, up to [`MAX_PASSES`]
    /// times in all, so that masking the result again changes nothing. Text
    /// with nothing to mask takes one pass, each pass is linear.
    pub fn mask(&self, text: &[u16]) -> Vec<u16> {
        let mut bytes = wtf8::encode(text);
        let mut spans = self.spans(&bytes);
        if spans.is_empty() {
            return text.to_vec();
        }
        let mut out = spans::apply(text, &spans);
        for _ in 1..MAX_PASSES {
            bytes = wtf8::encode(&out);
            spans = self.spans(&bytes);
            if spans.is_empty() {
                break;
            }
            out = spans::apply(&out, &spans);
        }
        out
    }

    /// The spans to mask in `bytes` (WTF-8), sorted, not overlapping, none
    /// of them inside a placeholder already there.
    fn spans(&self, bytes: &[u8]) -> Vec<Span> {
        let mut found = Vec::new();
        private::spans(bytes, &mut found);
        for index in self.set.matches(bytes).iter() {
            let pattern = &self.patterns[index];
            if pattern.grouped {
                for captures in pattern.regex.captures_iter(bytes) {
                    let part = captures.get(1).or_else(|| captures.get(0));
                    if let Some(part) = part {
                        found.push(Span {
                            start: part.start(),
                            end: part.end(),
                            kind: pattern.kind,
                        });
                    }
                }
            } else {
                for found_match in pattern.regex.find_iter(bytes) {
                    found.push(Span {
                        start: found_match.start(),
                        end: found_match.end(),
                        kind: pattern.kind,
                    });
                }
            }
        }
        if found.is_empty() {
            // Nothing to mask: the placeholders already there need no search.
            return found;
        }
        let placeholders: Vec<(usize, usize)> = self
            .placeholders
            .find_iter(bytes)
            .map(|m| (m.start(), m.end()))
            .collect();
        spans::settle(found, &placeholders)
    }
}

/// One `RegexSet` of every pattern in use. Each operator pattern is bounded
/// on its own; the set holds them all.
fn build_set(sources: &[String]) -> Result<RegexSet, String> {
    RegexSetBuilder::new(sources)
        .size_limit(operator::SIZE_LIMIT.saturating_mul(sources.len() + 1))
        .dfa_size_limit(operator::DFA_SIZE_LIMIT.saturating_mul(4))
        .build()
        .map_err(|error| match error {
            regex::Error::CompiledTooBig(limit) => {
                format!("with the other patterns, larger than {limit} bytes once compiled")
            }
            other => other
                .to_string()
                .lines()
                .last()
                .unwrap_or_default()
                .to_owned(),
        })
}

impl std::fmt::Debug for Masker {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Masker")
            .field("accepted", &self.accepted)
            .field("refused", &self.refused)
            .finish_non_exhaustive()
    }
}

impl Default for Masker {
    fn default() -> Self {
        Masker::new::<&str>(&[])
    }
}

/// The built-in patterns' masker, compiled once per process and shared.
pub fn builtin_masker() -> std::sync::Arc<Masker> {
    masker_for(&[])
}

/// The masker for the operator's `patterns` (UTF-16, as [`Masker::from_utf16`]
/// takes them), compiled once per pattern list and shared: a chat store is
/// opened on every turn, and compiling the set each time would cost more
/// than the turn. The last few lists are kept.
pub fn masker_for(patterns: &[Vec<u16>]) -> std::sync::Arc<Masker> {
    type Kept = Vec<(Vec<Vec<u16>>, std::sync::Arc<Masker>)>;
    static KEPT: std::sync::Mutex<Kept> = std::sync::Mutex::new(Vec::new());
    let mut kept = KEPT.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, masker)) = kept.iter().find(|(list, _)| list == patterns) {
        return masker.clone();
    }
    let masker = std::sync::Arc::new(Masker::from_utf16(patterns));
    if kept.len() >= 4 {
        kept.remove(0);
    }
    kept.push((patterns.to_vec(), masker.clone()));
    masker
}
