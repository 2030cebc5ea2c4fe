//! Properties of the masker on generated text made of secret shapes, their
//! near misses, `<private>` tags, placeholders and arbitrary units (lone
//! surrogates included): masking twice gives what masking once gave; the
//! text outside the masked spans comes back unit for unit; no built-in
//! secret shape is left outside a placeholder.

use openclaw_context_core::mask::{Masker, PLACEHOLDER_PATTERN, SHAPES};
use openclaw_context_core::utf16::encode as u;
use std::sync::LazyLock;

use proptest::prelude::*;
use regex::bytes::Regex;

const FRAGMENTS: &[&str] = &[
    "sk-ant-abcdefghijklmnop1234",
    "sk-",
    "ghp_abcdefghijklmnopqrstuvwxyz0123",
    "ghp_",
    "github_pat_",
    "glpat-abcdefghij0123456789",
    "xoxb-1234567890-abc",
    "xapp-",
    "AKIAIOSFODNN7EXAMPLE",
    "AKIA",
    "AIzaSyA-abcdefghijklmnopqrstuvwxyz01234",
    "sk_live_abcdefghijklmnop1234",
    "npm_",
    "npm_abcdefghijklmnopqrstuvwxyz0123456789",
    "eyJhbGciOiJIUzI1",
    ".",
    "eyJzdWIiOiIxMjM0",
    "Bearer ",
    "basic ",
    "Token ",
    "abcdefghijklmnop0123",
    "password",
    "pwd",
    "api_key",
    "secret",
    "token",
    "credentials",
    "=",
    ": ",
    "\"",
    "'",
    "hunter22",
    "https://",
    "u",
    ":",
    "pw12345",
    "@",
    "-----BEGIN PRIVATE KEY-----",
    "-----END PRIVATE KEY-----",
    "\nMIIE\n",
    "<private>",
    "</private>",
    "<PRIVATE>",
    "[redacted:password]",
    "[redacted:",
    "]",
    " ",
    "\n",
    "a",
    "Z",
    "0",
    "_",
    "-",
    "é",
    "😀",
    "custom",
    "redacted",
];

fn text() -> impl Strategy<Value = Vec<u16>> {
    let piece = prop_oneof![
        4 => proptest::sample::select(FRAGMENTS).prop_map(u),
        1 => any::<u16>().prop_map(|unit| vec![unit]),
    ];
    proptest::collection::vec(piece, 0..24).prop_map(|pieces| pieces.concat())
}

/// Compiled once: building the automata is most of a small call's cost.
static MASKER: LazyLock<Masker> =
    LazyLock::new(|| Masker::new(&["/internal-[a-z]+/i", r"employee=(\d{3,})", "redacted"]));
static BUILTIN: LazyLock<Masker> = LazyLock::new(Masker::default);

fn masker() -> &'static Masker {
    &MASKER
}

/// WTF-8, as the masker reads text (for the shape check only).
fn wtf8(units: &[u16]) -> Vec<u8> {
    let mut out = Vec::new();
    for c in char::decode_utf16(units.iter().copied()) {
        match c {
            Ok(c) => out.extend(c.to_string().as_bytes()),
            Err(e) => {
                let s = u32::from(e.unpaired_surrogate());
                out.extend([
                    0xE0 | (s >> 12) as u8,
                    0x80 | ((s >> 6) & 0x3F) as u8,
                    0x80 | (s & 0x3F) as u8,
                ]);
            }
        }
    }
    out
}

/// Whether `out` is `input` with some disjoint runs replaced by placeholders:
/// the pieces between the output's placeholders occur in `input` in order,
/// the first as its start and the last as its end.
fn only_spans_changed(input: &[u16], out: &[u16]) -> bool {
    let holder = Regex::new(PLACEHOLDER_PATTERN).unwrap();
    let bytes = wtf8(out);
    let input_bytes = wtf8(input);
    let mut pieces = Vec::new();
    let mut at = 0;
    for m in holder.find_iter(&bytes) {
        pieces.push(&bytes[at..m.start()]);
        at = m.end();
    }
    pieces.push(&bytes[at..]);
    if pieces.len() == 1 {
        return bytes == input_bytes;
    }
    if !input_bytes.starts_with(pieces[0]) || !input_bytes.ends_with(pieces[pieces.len() - 1]) {
        return false;
    }
    let mut from = pieces[0].len();
    for piece in &pieces[1..pieces.len() - 1] {
        match input_bytes[from..]
            .windows(piece.len().max(1))
            .position(|w| piece.is_empty() || w == *piece)
        {
            Some(found) => from += found + piece.len(),
            None => return false,
        }
    }
    from <= input_bytes.len() - pieces[pieces.len() - 1].len()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn masking_is_idempotent(text in text()) {
        let masker = masker();
        let once = masker.mask(&text);
        prop_assert_eq!(masker.mask(&once), once);
    }

    #[test]
    fn text_outside_the_spans_comes_back_exactly(text in text()) {
        let out = masker().mask(&text);
        prop_assert!(only_spans_changed(&text, &out), "{:?}", String::from_utf16_lossy(&out));
    }

    #[test]
    fn no_builtin_shape_is_left(text in text()) {
        let out = BUILTIN.mask(&text);
        let bytes = wtf8(&out);
        let holders: Vec<(usize, usize)> =
            Regex::new(PLACEHOLDER_PATTERN).unwrap().find_iter(&bytes).map(|m| (m.start(), m.end())).collect();
        let inside = |start: usize, end: usize| {
            let mut covered = start;
            for &(s, e) in &holders {
                if s <= covered && e > covered { covered = e; }
            }
            covered >= end
        };
        for shape in SHAPES {
            let regex = Regex::new(shape.pattern).unwrap();
            for caps in regex.captures_iter(&bytes) {
                let part = caps.get(1).or_else(|| caps.get(0)).unwrap();
                prop_assert!(
                    inside(part.start(), part.end()),
                    "{} left in {:?}", shape.kind, String::from_utf16_lossy(&out)
                );
            }
        }
    }
}
