//! `<private>…</private>` spans: what the user marked as not to be kept.
//!
//! Tags in any case (`<PRIVATE>`, `</Private>`), and fail closed: whatever
//! a reader might take for the tag is one. After `<` (and `/` for a closing
//! tag) any ASCII whitespace, then `private`, then `>`, whitespace or `/`;
//! the tag runs to the next `>` (`<private reason="x">`, `< private >`,
//! `</private >`), or to the end of the text when there is none. A span runs
//! from an opening tag to the closing tag that balances it: nested spans are
//! one span, and an opening tag without its closing one runs to the end of
//! the text. A closing tag outside any span is text like any other.

use super::Span;

pub const KIND: &str = "private";

const NAME: &[u8] = b"private";

fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && bytes[at].is_ascii_whitespace() {
        at += 1;
    }
    at
}

/// The tag that starts at the `<` at `at`, if one does: (end, closing).
/// Its `>` is looked for only once the name matched, and a tag without one
/// ends the scan (it runs to the end of the text): linear in the text
/// however many `<` it holds.
fn tag_at(bytes: &[u8], at: usize) -> Option<(usize, bool)> {
    let mut next = skip_space(bytes, at + 1);
    let closing = bytes.get(next) == Some(&b'/');
    if closing {
        next = skip_space(bytes, next + 1);
    }
    let name_end = next + NAME.len();
    if name_end > bytes.len() || !bytes[next..name_end].eq_ignore_ascii_case(NAME) {
        return None;
    }
    match bytes.get(name_end) {
        None => return Some((bytes.len(), closing)),
        Some(b'>') => return Some((name_end + 1, closing)),
        Some(&byte) if byte == b'/' || byte.is_ascii_whitespace() => {}
        Some(_) => return None,
    }
    let end = memchr::memchr(b'>', &bytes[name_end..]).map_or(bytes.len(), |gt| name_end + gt + 1);
    Some((end, closing))
}

/// The tags in `bytes`, in order: (start, end, closing). Each `<` found by
/// `memchr` and the few bytes after it compared, so linear in the text.
/// ASCII case folding: `private` has no letter with a non-ASCII fold. (A
/// case-insensitive regex had no literal to look for first and ran its
/// automaton over every byte: a third of the mask's time on text with no
/// tag at all.)
fn tags(bytes: &[u8]) -> impl Iterator<Item = (usize, usize, bool)> + '_ {
    let mut from = 0;
    std::iter::from_fn(move || {
        while from < bytes.len() {
            let at = from + memchr::memchr(b'<', &bytes[from..])?;
            match tag_at(bytes, at) {
                Some((end, closing)) => {
                    from = end;
                    return Some((at, end, closing));
                }
                None => from = at + 1,
            }
        }
        None
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

    /// The tags as a regex of the same rule finds them (leftmost-first,
    /// not overlapping): the scan is that rule in linear time.
    fn by_regex(bytes: &[u8]) -> Vec<(usize, usize, bool)> {
        let regex = regex::bytes::Regex::new(
            r"(?i-u)<[\t\n\x0C\r ]*(/)?[\t\n\x0C\r ]*private(?:>|[\t\n\x0C\r /][^>]*(?:>|$)|$)",
        )
        .expect("a fixed pattern");
        regex
            .captures_iter(bytes)
            .map(|c| {
                let m = c.get(0).expect("the whole match");
                (m.start(), m.end(), c.get(1).is_some())
            })
            .collect()
    }

    #[test]
    fn the_scan_finds_what_the_rule_says() {
        let texts: [&[u8]; 22] = [
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
            b"<private\t>x</private\n>",
            b"< private>x< / private >",
            b"<private reason=\"x\">secret</private>",
            b"<private/>x",
            b"<private reason=\"no end",
            b"</private attr",
            b"<privateer>x",
            b"<private-x>y",
            b"<private\x0b>y",
            b"<   \r\n PRIVATE\t\t>z</\tPrivate>",
        ];
        for text in texts {
            assert_eq!(tags(text).collect::<Vec<_>>(), by_regex(text), "{text:?}");
        }
    }

    #[test]
    fn whatever_a_reader_takes_for_a_tag_opens_a_span() {
        for text in [
            &b"a <private >secret"[..],
            b"a <private\t>secret",
            b"a < private>secret",
            b"a <private reason=\"x\">secret",
            b"a <Private\n>secret</private>",
        ] {
            let mut out = Vec::new();
            spans(text, &mut out);
            assert_eq!(out.len(), 1, "{text:?}");
            assert_eq!(
                (out[0].start, out[0].end >= text.len() - 9),
                (2, true),
                "{text:?}"
            );
        }
    }

    #[test]
    fn many_unclosed_tags_cost_one_pass() {
        // Each `<private ` without a `>`: the first runs to the end, the scan stops there.
        let text = b"<private ".repeat(200_000);
        let mut out = Vec::new();
        spans(&text, &mut out);
        assert_eq!(out.len(), 1);
        assert_eq!((out[0].start, out[0].end), (0, text.len()));
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
