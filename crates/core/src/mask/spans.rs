//! From the matches found to the text written: overlapping spans become
//! one, placeholders already in the text stay as they are, and each span is
//! replaced by its placeholder in the UTF-16 text.

use regex::bytes::Regex;

use super::private;
use super::wtf8::{Offsets, Round};
use super::Span;

/// What a placeholder looks like: `[redacted:` a type `]`.
pub const PLACEHOLDER_PATTERN: &str = r"\[redacted:[a-z0-9-]{1,40}\]";

pub fn placeholders() -> Regex {
    Regex::new(PLACEHOLDER_PATTERN).expect("a fixed pattern")
}

/// The spans to replace: `found` sorted, each grown to hold whole any
/// placeholder it overlaps (a placeholder is never cut), those that lie
/// within placeholders already there left out (masking again changes
/// nothing), and overlapping ones merged. A merged span names the private
/// type if one of its parts is private, else its first part's type.
pub fn settle(mut found: Vec<Span>, placeholders: &[(usize, usize)]) -> Vec<Span> {
    found.retain(|span| span.start < span.end);
    found.sort_by_key(|span| (span.start, std::cmp::Reverse(span.end)));
    let mut settled: Vec<Span> = Vec::with_capacity(found.len());
    for mut span in found {
        if within_placeholders(&span, placeholders) {
            continue;
        }
        // The placeholders it overlaps, whole: they are sorted and disjoint.
        let first = placeholders.partition_point(|&(_, end)| end <= span.start);
        for &(start, end) in &placeholders[first..] {
            if start >= span.end {
                break;
            }
            span.start = span.start.min(start);
            span.end = span.end.max(end);
        }
        match settled.last_mut() {
            Some(last) if span.start < last.end => {
                last.end = last.end.max(span.end);
                if span.kind == private::KIND {
                    last.kind = private::KIND;
                }
            }
            _ => settled.push(span),
        }
    }
    settled
}

/// Whether every byte of `span` is in a placeholder (adjacent ones count
/// as one run).
fn within_placeholders(span: &Span, placeholders: &[(usize, usize)]) -> bool {
    let first = placeholders.partition_point(|&(_, end)| end <= span.start);
    let mut covered = span.start;
    for &(start, end) in &placeholders[first..] {
        if start > covered {
            return false;
        }
        covered = covered.max(end);
        if covered >= span.end {
            return true;
        }
    }
    false
}

/// `text` with each span (byte offsets of its WTF-8 encoding, sorted and
/// disjoint) replaced by `[redacted:TYPE]`.
pub fn apply(text: &[u16], spans: &[Span]) -> Vec<u16> {
    if spans.is_empty() {
        return text.to_vec();
    }
    let mut out = Vec::with_capacity(text.len());
    let mut offsets = Offsets::new(text);
    let mut at = 0;
    for span in spans {
        let start = offsets.unit_at(span.start, Round::Down).max(at);
        let end = offsets.unit_at(span.end, Round::Up).max(start);
        out.extend_from_slice(&text[at..start]);
        out.extend("[redacted:".encode_utf16());
        out.extend(span.kind.encode_utf16());
        out.push(u16::from(b']'));
        at = end;
    }
    out.extend_from_slice(&text[at..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(start: usize, end: usize, kind: &'static str) -> Span {
        Span { start, end, kind }
    }

    #[test]
    fn overlapping_spans_merge_and_private_wins() {
        let found = vec![
            span(5, 9, "token"),
            span(0, 6, "password"),
            span(7, 12, "private"),
        ];
        assert_eq!(settle(found, &[]), vec![span(0, 12, "private")]);
        let found = vec![span(0, 3, "a"), span(3, 5, "b")];
        assert_eq!(settle(found, &[]), vec![span(0, 3, "a"), span(3, 5, "b")]);
    }

    #[test]
    fn placeholders_are_kept_whole_and_not_masked_again() {
        let holders = [(10, 20), (20, 30)];
        assert_eq!(settle(vec![span(12, 28, "custom")], &holders), vec![]);
        assert_eq!(settle(vec![span(10, 20, "password")], &holders), vec![]);
        assert_eq!(
            settle(vec![span(5, 12, "custom")], &holders),
            vec![span(5, 20, "custom")]
        );
        assert_eq!(
            settle(vec![span(25, 31, "custom")], &holders),
            vec![span(20, 31, "custom")]
        );
    }
}
