//! `<private>…</private>` spans: what the user marked as not to be kept.
//!
//! Tags in any case (`<PRIVATE>`, `</Private>`). A span runs from an
//! opening tag to the closing tag that balances it: nested spans are one
//! span, and an opening tag without its closing one runs to the end of the
//! text. A closing tag outside any span is text like any other.

use super::Span;

pub const KIND: &str = "private";

/// The tags in `bytes`, in order: (start, end, closing). Each `<` found by
/// `memchr` and the few bytes after it compared, so linear in the text
/// however many `<` it holds. ASCII case folding: `private` has no letter
/// with a non-ASCII fold. (A case-insensitive regex had no literal to look
/// for first and ran its automaton over every byte: a third of the mask's
/// time on text with no tag at all.)
fn tags(bytes: &[u8]) -> impl Iterator<Item = (usize, usize, bool)> + '_ {
    const NAME: &[u8] = b"private>";
    memchr::memchr_iter(b'<', bytes).filter_map(move |at| {
        let rest = &bytes[at + 1..];
        let closing = rest.first() == Some(&b'/');
        let name = if closing { &rest[1..] } else { rest };
        let is_tag = name.len() >= NAME.len() && name[..NAME.len()].eq_ignore_ascii_case(NAME);
        let end = at + 1 + usize::from(closing) + NAME.len();
        is_tag.then_some((at, end, closing))
    })
}

/// The private spans of `bytes`, in order, not overlapping.
pub fn spans(bytes: &[u8], out: &mut Vec<Span>) {
    let mut depth = 0usize;
    let mut start = 0;
    for (at, end, closing) in tags(bytes) {
        if !closing {
            if depth == 0 {
                start = at;
            }
            depth += 1;
        } else if depth > 0 {
            depth -= 1;
            if depth == 0 {
                out.push(Span {
                    start,
                    end,
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The tags as the case-insensitive regex the scan replaced finds them.
    fn by_regex(bytes: &[u8]) -> Vec<(usize, usize, bool)> {
        let regex = regex::bytes::Regex::new(r"(?i-u)</?private>").expect("a fixed pattern");
        regex
            .find_iter(bytes)
            .map(|m| (m.start(), m.end(), m.as_bytes()[1] == b'/'))
            .collect()
    }

    #[test]
    fn the_scan_finds_what_the_regex_found() {
        let texts: [&[u8]; 12] = [
            b"",
            b"<",
            b"</",
            b"<private",
            b"</private",
            b"a <private>b</private> c",
            b"<<private>></PrIvAtE>",
            b"<PRIVATE></private></Private>",
            b"<private >x</ private>",
            b"<privatee>x</privat>",
            b"<\xc3\xa9private><private>\xff</private>",
            b"1 < 2 and 3 <4 <private><private></private></private>",
        ];
        for text in texts {
            assert_eq!(tags(text).collect::<Vec<_>>(), by_regex(text), "{text:?}");
        }
    }

    #[test]
    fn nested_and_unclosed_spans() {
        let mut out = Vec::new();
        spans(
            b"a<private>b<PRIVATE>c</private>d</private>e<private>f",
            &mut out,
        );
        let found: Vec<(usize, usize)> = out.iter().map(|s| (s.start, s.end)).collect();
        assert_eq!(found, [(1, 42), (43, 53)]);
    }
}
