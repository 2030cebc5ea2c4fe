//! A cursor over ASCII-structured bytes: the one place digits are read, for
//! the JSON reader (numbers) and the timestamp parser (date and time fields,
//! fractions, zone offsets). Numbers with a fraction or an exponent are
//! converted by Rust's `f64` parser, which rounds correctly, as JavaScript's.

pub(crate) struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Cursor { bytes, pos: 0 }
    }

    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    pub(crate) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    pub(crate) fn at_end(&self) -> bool {
        self.pos == self.bytes.len()
    }

    /// The next byte, consumed.
    pub(crate) fn next(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.pos += 1;
        Some(byte)
    }

    /// Consumes `byte` if it comes next.
    pub(crate) fn eat(&mut self, byte: u8) -> bool {
        let next = self.peek() == Some(byte);
        self.pos += usize::from(next);
        next
    }

    /// Consumes the next byte if `wanted` accepts it.
    pub(crate) fn eat_if(&mut self, wanted: impl Fn(u8) -> bool) -> Option<u8> {
        let byte = self.peek().filter(|&byte| wanted(byte))?;
        self.pos += 1;
        Some(byte)
    }

    /// Consumes `bytes` if they come next.
    pub(crate) fn eat_all(&mut self, bytes: &[u8]) -> bool {
        let next = self.bytes[self.pos..].starts_with(bytes);
        if next {
            self.pos += bytes.len();
        }
        next
    }

    /// The run of bytes `wanted` accepts that comes next (maybe empty), consumed.
    pub(crate) fn take_while(&mut self, wanted: impl Fn(u8) -> bool) -> &'a [u8] {
        let start = self.pos;
        while self.peek().is_some_and(&wanted) {
            self.pos += 1;
        }
        &self.bytes[start..self.pos]
    }

    /// The run of ASCII digits that comes next (maybe empty), consumed.
    pub(crate) fn digits(&mut self) -> &'a [u8] {
        self.take_while(|byte| byte.is_ascii_digit())
    }

    /// Exactly `count` digits, as a number; `None` (nothing consumed) if
    /// fewer come next.
    pub(crate) fn fixed_digits(&mut self, count: usize) -> Option<u32> {
        let digits = self.bytes.get(self.pos..self.pos + count)?;
        if !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.pos += count;
        Some(decimal(digits))
    }

    /// The bytes from `start` to here.
    pub(crate) fn since(&self, start: usize) -> &'a [u8] {
        &self.bytes[start..self.pos]
    }

    /// The bytes from here on.
    pub(crate) fn rest(&self) -> &'a [u8] {
        &self.bytes[self.pos..]
    }

    pub(crate) fn advance(&mut self, count: usize) {
        self.pos = (self.pos + count).min(self.bytes.len());
    }
}

/// The value of a few ASCII digits (at most 9: no overflow).
pub(crate) fn decimal(digits: &[u8]) -> u32 {
    digits
        .iter()
        .fold(0, |value, &digit| value * 10 + u32::from(digit - b'0'))
}

/// A decimal number's text (ASCII digits, sign, point, exponent) as the
/// nearest `f64`; `None` if Rust's parser refuses it.
pub(crate) fn to_f64(text: &[u8]) -> Option<f64> {
    std::str::from_utf8(text).ok()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_runs_and_fixed_fields() {
        let mut cursor = Cursor::new(b"2026-05x");
        assert_eq!(cursor.fixed_digits(4), Some(2026));
        assert!(cursor.eat(b'-'));
        assert_eq!(cursor.fixed_digits(3), None);
        assert_eq!(cursor.pos(), 5, "a refused field consumes nothing");
        assert_eq!(cursor.digits(), b"05");
        assert_eq!(cursor.digits(), b"");
        assert_eq!(cursor.rest(), b"x");
        assert_eq!(to_f64(b"-1.5e3"), Some(-1500.0));
        assert_eq!(to_f64(b"1e400"), Some(f64::INFINITY));
        assert_eq!(to_f64(b"x"), None);
    }
}
