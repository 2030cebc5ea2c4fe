//! The masker: any operator pattern compiles or is refused with a reason,
//! never panics; any text (UTF-16 units, lone surrogates included) is
//! masked without a panic; with the built-in shapes, masking the result
//! again changes nothing. The input: a first line of operator patterns
//! separated by TAB, then the text as UTF-16LE.
#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use openclaw_context_core::mask::Masker;

/// Built once: compiling the automata is most of a run's time.
static BUILTIN: LazyLock<Masker> = LazyLock::new(Masker::default);

mod digest;

fuzz_target!(|data: &[u8]| {
    let (head, body) = match data.iter().position(|&b| b == b'\n') {
        Some(at) => (&data[..at], &data[at + 1..]),
        None => (&[][..], data),
    };
    let patterns: Vec<String> = String::from_utf8_lossy(head)
        .split('\t')
        .filter(|p| !p.is_empty())
        .map(str::to_owned)
        .collect();
    let text: Vec<u16> = body
        .chunks_exact(2)
        .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
        .collect();
    let compiled;
    let masker = if patterns.is_empty() {
        &*BUILTIN
    } else {
        compiled = Masker::new(&patterns);
        &compiled
    };
    for refusal in masker.refused() {
        assert!(!refusal.reason.is_empty() && !refusal.reason.contains('\n'));
    }
    let masked = masker.mask(&text);
    if digest::enabled() {
        digest::record(&(&patterns, &text), &masked);
    }
    let once = BUILTIN.mask(&text);
    assert_eq!(BUILTIN.mask(&once), once);
});
