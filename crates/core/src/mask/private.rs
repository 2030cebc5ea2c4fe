//! `<private>…</private>` spans: what the user marked as not to be kept.
//!
//! Tags in any case (`<PRIVATE>`, `</Private>`). A span runs from an
//! opening tag to the closing tag that balances it: nested spans are one
//! span, and an opening tag without its closing one runs to the end of the
//! text. A closing tag outside any span is text like any other.

use regex::bytes::Regex;

use super::Span;

pub const KIND: &str = "private";

/// The tags, both kinds; a literal search, linear in the text.
pub fn tags() -> Regex {
    // ASCII case folding: `private` has no letter with a non-ASCII fold.
    Regex::new(r"(?i-u)</?private>").expect("a fixed pattern")
}

/// The private spans of `bytes`, in order, not overlapping.
pub fn spans(tags: &Regex, bytes: &[u8], out: &mut Vec<Span>) {
    let mut depth = 0usize;
    let mut start = 0;
    for tag in tags.find_iter(bytes) {
        let closing = tag.as_bytes().get(1) == Some(&b'/');
        if !closing {
            if depth == 0 {
                start = tag.start();
            }
            depth += 1;
        } else if depth > 0 {
            depth -= 1;
            if depth == 0 {
                out.push(Span {
                    start,
                    end: tag.end(),
                    kind: KIND,
                });
            }
        }
    }
    if depth > 0 {
        out.push(Span {
            start,
            end: bytes.len(),
            kind: KIND,
        });
    }
}
