//! UTF-16 text as WTF-8 bytes, for `regex::bytes`, and the way back from
//! byte offsets to UTF-16 offsets.
//!
//! WTF-8 is UTF-8 that also encodes a lone surrogate (as the three bytes
//! UTF-8 would give its code point), so every JS string has an encoding and
//! the masker returns the text exactly: a lone surrogate is kept, never
//! replaced by U+FFFD. A regex in Unicode mode never matches inside such a
//! sequence (it is not valid UTF-8), and never ends a match inside one.

/// The WTF-8 encoding of `units` (a surrogate pair is one 4-byte sequence).
pub fn encode(units: &[u16]) -> Vec<u8> {
    const RUN: usize = 16;
    let mut bytes = Vec::with_capacity(units.len() + units.len() / 2);
    let mut at = 0;
    while at < units.len() {
        // Chat text is mostly ASCII: 16 units at a time when all are, a
        // test and a copy the compiler vectorises.
        if let Some(run) = units.get(at..at + RUN) {
            if run.iter().fold(0, |any, &unit| any | unit) < 0x80 {
                bytes.extend(run.iter().map(|&unit| unit as u8));
                at += RUN;
                continue;
            }
        }
        let (code, width) = code_point(units, at);
        push(&mut bytes, code);
        at += width;
    }
    bytes
}

/// The code point at `units[at]` and how many units it takes (1 or 2); a
/// lone surrogate is its own code point.
fn code_point(units: &[u16], at: usize) -> (u32, usize) {
    let unit = units[at];
    if (0xD800..0xDC00).contains(&unit) {
        if let Some(&low) = units.get(at + 1) {
            if (0xDC00..0xE000).contains(&low) {
                let code = 0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00);
                return (code, 2);
            }
        }
    }
    (u32::from(unit), 1)
}

fn push(bytes: &mut Vec<u8>, code: u32) {
    // Each `as u8` keeps the low bits on purpose: the masks pick the bits of each byte.
    match code {
        0..=0x7F => bytes.push(code as u8),
        0x80..=0x7FF => bytes.extend([0xC0 | (code >> 6) as u8, 0x80 | (code & 0x3F) as u8]),
        0x800..=0xFFFF => bytes.extend([
            0xE0 | (code >> 12) as u8,
            0x80 | ((code >> 6) & 0x3F) as u8,
            0x80 | (code & 0x3F) as u8,
        ]),
        _ => bytes.extend([
            0xF0 | (code >> 18) as u8,
            0x80 | ((code >> 12) & 0x3F) as u8,
            0x80 | ((code >> 6) & 0x3F) as u8,
            0x80 | (code & 0x3F) as u8,
        ]),
    }
}

/// Maps sorted byte offsets of [`encode`]'s output to UTF-16 offsets, in
/// one walk. An offset inside a code point's bytes (a pattern with `(?-u)`
/// can end there) is moved to that code point's start or end, as `Round`
/// says, so no span splits a code point.
pub struct Offsets<'a> {
    units: &'a [u16],
    /// The code point the walk is at: its first unit and its first byte.
    unit: usize,
    byte: usize,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Round {
    Down,
    Up,
}

impl<'a> Offsets<'a> {
    pub fn new(units: &'a [u16]) -> Self {
        Offsets {
            units,
            unit: 0,
            byte: 0,
        }
    }

    /// The UTF-16 offset of byte offset `target`; targets must not go
    /// backwards by more than the code point the walk is in.
    pub fn unit_at(&mut self, target: usize, round: Round) -> usize {
        while self.unit < self.units.len() {
            let (code, width) = code_point(self.units, self.unit);
            let len = utf8_len(code);
            if self.byte + len > target {
                // `target` is at this code point's start or inside it.
                return if target == self.byte || round == Round::Down {
                    self.unit
                } else {
                    self.unit + width
                };
            }
            self.unit += width;
            self.byte += len;
        }
        self.units.len()
    }
}

fn utf8_len(code: u32) -> usize {
    match code {
        0..=0x7F => 1,
        0x80..=0x7FF => 2,
        0x800..=0xFFFF => 3,
        _ => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn well_formed_text_is_its_utf8() {
        let text = "a é € 😀 end";
        let units: Vec<u16> = text.encode_utf16().collect();
        assert_eq!(encode(&units), text.as_bytes());
    }

    #[test]
    fn lone_surrogates_are_three_bytes_and_map_back() {
        let units = [0x61, 0xD800, 0x62, 0xDC00, 0xD83D, 0xDE00];
        let bytes = encode(&units);
        assert_eq!(
            bytes,
            [0x61, 0xED, 0xA0, 0x80, 0x62, 0xED, 0xB0, 0x80, 0xF0, 0x9F, 0x98, 0x80]
        );
        let mut offsets = Offsets::new(&units);
        assert_eq!(offsets.unit_at(1, Round::Down), 1);
        assert_eq!(offsets.unit_at(2, Round::Down), 1);
        assert_eq!(offsets.unit_at(2, Round::Up), 2);
        assert_eq!(offsets.unit_at(4, Round::Up), 2);
        assert_eq!(offsets.unit_at(8, Round::Down), 4);
        assert_eq!(offsets.unit_at(9, Round::Up), 6);
        assert_eq!(offsets.unit_at(12, Round::Up), 6);
        assert_eq!(offsets.unit_at(99, Round::Up), 6);
    }
}

#[cfg(test)]
mod encode_tests {
    use super::encode;

    /// WTF-8 one code point at a time, as std decodes UTF-16.
    fn reference(units: &[u16]) -> Vec<u8> {
        let mut out = Vec::new();
        for decoded in char::decode_utf16(units.iter().copied()) {
            match decoded {
                Ok(c) => out.extend(c.to_string().as_bytes()),
                Err(lone) => {
                    let s = u32::from(lone.unpaired_surrogate());
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

    #[test]
    fn ascii_runs_of_every_length_around_any_other_unit() {
        let others: [&[u16]; 5] = [&[0xE9], &[0x6F22], &[0xD83D, 0xDE00], &[0xD800], &[0xDC00]];
        for before in 0..40 {
            for other in others {
                for after in [0, 1, 15, 16, 17, 33] {
                    let mut units: Vec<u16> =
                        (0..before).map(|i| u16::from(b'a') + i % 26).collect();
                    units.extend_from_slice(other);
                    units.extend((0..after).map(|i| u16::from(b'0') + i % 10));
                    assert_eq!(encode(&units), reference(&units), "{units:?}");
                }
            }
        }
    }
}
