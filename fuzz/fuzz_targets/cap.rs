//! The fixed cap on arbitrary UTF-16 (lone surrogates included), with
//! SPEC's invariants as assertions.
// Built by cargo fuzz (`--cfg fuzzing`) as a libFuzzer target; crates/core/tests/fuzz_seeds.rs
// loads the same file as a module and runs every committed seed through `run`.
#![cfg_attr(fuzzing, no_main)]

use arbitrary::Arbitrary;
use openclaw_context_core::compaction::{cap_compaction_summary, cap_preserving_suffix, CapOptions};

mod digest;

#[derive(Arbitrary, Debug)]
pub struct Input {
    body: Vec<u16>,
    suffix: Vec<u16>,
    /// Structure to splice in, so headings and items are common.
    pieces: Vec<(u8, u8)>,
    max_chars: u16,
    fraction: bool,
}

const PIECES: [&str; 12] = [
    "\n## Decisions\n", "\n## Exact identifiers\n", "\n- User: ", "\n- Tool result (exec): ",
    "\n\n## Recent turns preserved verbatim\n", "\n\n## Tool Failures\n", "\n\n<read-files>\na\n</read-files>",
    "\n\n<workspace-critical-rules>\n## Red Lines\n- x\n</workspace-critical-rules>", "😀", "\u{200D}", "\r\n", "e\u{301}",
];

fn lone_surrogates(text: &[u16]) -> usize {
    char::decode_utf16(text.iter().copied()).filter(Result::is_err).count()
}

fn splice(mut text: Vec<u16>, pieces: &[(u8, u8)], which: u8) -> Vec<u16> {
    for &(piece, at) in pieces.iter().filter(|(_, at)| at % 2 == which) {
        let at = usize::from(at) * text.len() / 256;
        let piece: Vec<u16> = PIECES[usize::from(piece) % PIECES.len()].encode_utf16().collect();
        text.splice(at..at, piece);
    }
    text
}

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|input: Input| run(input));

/// One run of the target on one input (what libFuzzer's bytes decode to).
pub fn run(input: Input) {
    let key = digest::enabled().then(|| format!("{input:?}"));
    let body = splice(input.body, &input.pieces, 0);
    let suffix = splice(input.suffix, &input.pieces, 1);
    let max = f64::from(input.max_chars) + if input.fraction { 0.5 } else { 0.0 };
    let report = cap_preserving_suffix(&body, &suffix, max, &CapOptions::default());
    if let Some(key) = &key {
        let r = &report;
        let plain = cap_compaction_summary(&[body.as_slice(), suffix.as_slice()].concat(), max);
        digest::record(key, &(&r.summary, r.body_trimmed, r.suffix_trimmed, r.body_budget, r.suffix_budget, plain));
    }
    let out = &report.summary;
    let total = body.len() + suffix.len();
    if suffix.is_empty() {
        assert_eq!(*out, cap_compaction_summary(&body, max));
        return;
    }
    if max <= 0.0 || total as f64 <= max {
        assert_eq!(*out, [body.as_slice(), suffix.as_slice()].concat());
        return;
    }
    assert!(out.len() as f64 <= max, "{} > {max}", out.len());
    assert!(lone_surrogates(out) <= lone_surrogates(&body) + lone_surrogates(&suffix));
    // ceil(max / 2), but never more than fits (max may be a fraction below 1).
    let floor = ((max / 2.0).ceil() as usize).min(body.len()).min(max as usize);
    assert!(report.body_budget >= floor);
    assert!(report.body_budget + report.suffix_budget <= max as usize);
    // The body comes first and its first line survives whenever it fits.
    if !report.body_trimmed {
        assert!(out.starts_with(&body));
    }
    // What is kept of a cut suffix starts on a line of its own.
    let (out_body, out_suffix) = out.split_at(report.body_len);
    if report.suffix_trimmed && !out_body.is_empty() && !out_suffix.is_empty() {
        assert_eq!(out_suffix[0], u16::from(b'\n'), "body and suffix share a line");
    }
}
