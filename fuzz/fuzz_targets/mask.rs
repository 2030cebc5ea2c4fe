//! The masker: any operator pattern compiles or is refused with a reason,
//! never panics; any text (UTF-16 units, lone surrogates included) is
//! masked without a panic; with the built-in shapes, masking the result
//! again changes nothing. The input: a first line of operator patterns
//! separated by TAB, then the text as UTF-16LE.
// Built by cargo fuzz (`--cfg fuzzing`) as a libFuzzer target; crates/core/tests/fuzz_seeds.rs
// loads the same file as a module and runs every committed seed through `run`.
#![cfg_attr(fuzzing, no_main)]

use std::sync::LazyLock;

use openclaw_context_core::mask::Masker;

/// Built once: compiling the automata is most of a run's time.
static BUILTIN: LazyLock<Masker> = LazyLock::new(Masker::default);

mod digest;

#[cfg(fuzzing)]
libfuzzer_sys::fuzz_target!(|data: &[u8]| run(data));

/// One run of the target on one input (what libFuzzer's bytes decode to).
pub fn run(data: &[u8]) {
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
}
