//! A small, strict JSON reader whose strings are UTF-16.
//!
//! Why not `serde_json`: JavaScript's `JSON.stringify` writes a lone surrogate
//! as an escape such as `"\ud800"`. serde_json 1.0.154 accepts that only when
//! it deserializes into bytes (WTF-8); a `String`, `serde_json::Value` or
//! `deserialize_any` (needed for `ts`, which is a string *or* a number)
//! refuses it, so a real log line would be dropped. Reading JSON into UTF-16
//! directly keeps every string exactly as `JSON.parse` would, and gives
//! `JSON.parse`'s other rules for free: duplicate keys, last one wins.
//!
//! The grammar is RFC 8259 (what `JSON.parse` accepts), raw text must be
//! valid UTF-8, and nesting is capped so hostile input cannot exhaust the stack.

/// Deeper nesting than this is refused (a log entry or memory state is flat).
const MAX_DEPTH: usize = 256;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(Vec<u16>),
    Array(Vec<Json>),
    /// Members in source order, duplicates included; see [`Json::get`].
    Object(Vec<(Vec<u16>, Json)>),
}

impl Json {
    /// The value of member `key`; the last one when the key repeats, as in `JSON.parse`.
    pub(crate) fn get(&self, key: &str) -> Option<&Json> {
        let Json::Object(members) = self else {
            return None;
        };
        members
            .iter()
            .rev()
            .find(|(name, _)| name.iter().copied().eq(key.encode_utf16()))
            .map(|(_, value)| value)
    }

    /// `read` of the first of `names` whose member `read` accepts: a field
    /// and its aliases, a member of the wrong type counting as absent.
    pub(crate) fn first<'a, T>(
        &'a self,
        names: &[&str],
        read: impl Fn(&'a Json) -> Option<T>,
    ) -> Option<T> {
        names.iter().find_map(|name| self.get(name).and_then(&read))
    }

    pub(crate) fn as_text(&self) -> Option<&[u16]> {
        match self {
            Json::String(text) => Some(text),
            _ => None,
        }
    }
}

/// Where and why the input stopped being JSON.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct JsonError {
    pub offset: usize,
    pub reason: &'static str,
}

/// Parses one JSON document; only whitespace may surround it.
pub(crate) fn parse(input: &[u8]) -> Result<Json, JsonError> {
    let mut parser = Parser { input, pos: 0 };
    parser.skip_whitespace();
    let value = parser.value(0)?;
    parser.skip_whitespace();
    if parser.pos != input.len() {
        return Err(parser.error("unexpected text after the JSON value"));
    }
    Ok(value)
}

struct Parser<'a> {
    input: &'a [u8],
    pos: usize,
}

impl Parser<'_> {
    fn error(&self, reason: &'static str) -> JsonError {
        JsonError {
            offset: self.pos,
            reason,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.input.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    fn expect_literal(&mut self, literal: &[u8], value: Json) -> Result<Json, JsonError> {
        if self.input[self.pos..].starts_with(literal) {
            self.pos += literal.len();
            Ok(value)
        } else {
            Err(self.error("invalid literal"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error("nesting too deep"));
        }
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => self.string().map(Json::String),
            Some(b't') => self.expect_literal(b"true", Json::Bool(true)),
            Some(b'f') => self.expect_literal(b"false", Json::Bool(false)),
            Some(b'n') => self.expect_literal(b"null", Json::Null),
            Some(b'-' | b'0'..=b'9') => self.number(),
            Some(_) => Err(self.error("unexpected character")),
            None => Err(self.error("unexpected end of input")),
        }
    }

    fn object(&mut self, depth: usize) -> Result<Json, JsonError> {
        self.pos += 1; // '{'
        let mut members = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(b'}') {
            self.pos += 1;
            return Ok(Json::Object(members));
        }
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b'"') {
                return Err(self.error("expected a member name"));
            }
            let name = self.string()?;
            self.skip_whitespace();
            if self.peek() != Some(b':') {
                return Err(self.error("expected ':'"));
            }
            self.pos += 1;
            self.skip_whitespace();
            let value = self.value(depth + 1)?;
            members.push((name, value));
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b'}') => {
                    self.pos += 1;
                    return Ok(Json::Object(members));
                }
                _ => return Err(self.error("expected ',' or '}'")),
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, JsonError> {
        self.pos += 1; // '['
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.peek() == Some(b']') {
            self.pos += 1;
            return Ok(Json::Array(items));
        }
        loop {
            self.skip_whitespace();
            items.push(self.value(depth + 1)?);
            self.skip_whitespace();
            match self.peek() {
                Some(b',') => self.pos += 1,
                Some(b']') => {
                    self.pos += 1;
                    return Ok(Json::Array(items));
                }
                _ => return Err(self.error("expected ',' or ']'")),
            }
        }
    }

    fn number(&mut self) -> Result<Json, JsonError> {
        let start = self.pos;
        if self.peek() == Some(b'-') {
            self.pos += 1;
        }
        match self.peek() {
            Some(b'0') => self.pos += 1,
            Some(b'1'..=b'9') => self.skip_digits(),
            _ => return Err(self.error("invalid number")),
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            self.require_digits()?;
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            self.pos += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            self.require_digits()?;
        }
        // The slice is ASCII by construction; Rust's parser rounds correctly,
        // like JavaScript's (and gives infinity for 1e400, as JSON.parse does).
        let text = std::str::from_utf8(&self.input[start..self.pos]).unwrap_or("0");
        text.parse::<f64>()
            .map(Json::Number)
            .map_err(|_| self.error("invalid number"))
    }

    fn skip_digits(&mut self) {
        while matches!(self.peek(), Some(b'0'..=b'9')) {
            self.pos += 1;
        }
    }

    fn require_digits(&mut self) -> Result<(), JsonError> {
        let start = self.pos;
        self.skip_digits();
        if self.pos == start {
            return Err(self.error("expected a digit"));
        }
        Ok(())
    }

    /// A string literal, decoded to UTF-16; `\uD800`-style escapes of lone
    /// surrogates come through as the single unit they name.
    fn string(&mut self) -> Result<Vec<u16>, JsonError> {
        self.pos += 1; // opening quote
        let mut out = Vec::new();
        loop {
            let run_start = self.pos;
            while matches!(self.peek(), Some(byte) if byte != b'"' && byte != b'\\' && byte >= 0x20)
            {
                self.pos += 1;
            }
            let run =
                std::str::from_utf8(&self.input[run_start..self.pos]).map_err(|err| JsonError {
                    offset: run_start + err.valid_up_to(),
                    reason: "invalid UTF-8",
                })?;
            out.extend(run.encode_utf16());
            match self.peek() {
                Some(b'"') => {
                    self.pos += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.pos += 1;
                    out.push(self.escape()?);
                }
                Some(_) => return Err(self.error("control character in string")),
                None => return Err(self.error("unterminated string")),
            }
        }
    }

    fn escape(&mut self) -> Result<u16, JsonError> {
        let Some(byte) = self.peek() else {
            return Err(self.error("unterminated escape"));
        };
        self.pos += 1;
        let unit = match byte {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0C,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => return self.hex4(),
            _ => return Err(self.error("invalid escape")),
        };
        Ok(u16::from(unit))
    }

    fn hex4(&mut self) -> Result<u16, JsonError> {
        let digits = self
            .input
            .get(self.pos..self.pos + 4)
            .ok_or_else(|| self.error("short \\u escape"))?;
        let mut unit = 0u16;
        for &digit in digits {
            let value = (digit as char)
                .to_digit(16)
                .ok_or_else(|| self.error("invalid \\u escape"))?;
            unit = unit * 16 + value as u16;
        }
        self.pos += 4;
        Ok(unit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u(text: &str) -> Vec<u16> {
        text.encode_utf16().collect()
    }

    #[test]
    fn parses_scalars_arrays_and_objects() {
        assert_eq!(parse(b" null ").unwrap(), Json::Null);
        assert_eq!(parse(b"true").unwrap(), Json::Bool(true));
        assert_eq!(parse(b"-12.5e1").unwrap(), Json::Number(-125.0));
        assert_eq!(
            parse(b"[1, \"a\"]").unwrap(),
            Json::Array(vec![Json::Number(1.0), Json::String(u("a"))])
        );
        let object = parse(br#"{"a":1,"b":{"c":[]}}"#).unwrap();
        assert_eq!(object.get("a"), Some(&Json::Number(1.0)));
        assert_eq!(
            object.get("b").unwrap().get("c"),
            Some(&Json::Array(vec![]))
        );
    }

    #[test]
    fn duplicate_keys_take_the_last_value_like_json_parse() {
        let object = parse(br#"{"role":"user","role":"assistant"}"#).unwrap();
        assert_eq!(
            object.get("role").unwrap().as_text(),
            Some(&u("assistant")[..])
        );
    }

    #[test]
    fn escapes_decode_to_utf16_and_keep_lone_surrogates() {
        let value = parse(br#""a\n\"\\\/\b\f\r\t\u00e9\ud83d\ude00\ud800x\udc00""#).unwrap();
        let mut expected = u("a\n\"\\/\u{8}\u{c}\r\té😀");
        expected.extend([0xD800, u16::from(b'x'), 0xDC00]);
        assert_eq!(value, Json::String(expected));
    }

    #[test]
    fn raw_utf8_is_decoded_and_invalid_utf8_refused() {
        assert_eq!(
            parse("\"é👨‍👩‍👧中\"".as_bytes()).unwrap(),
            Json::String(u("é👨‍👩‍👧中"))
        );
        assert!(parse(b"\"\xff\"").is_err());
        assert!(
            parse(b"\"\xed\xa0\x80\"").is_err(),
            "UTF-8-encoded surrogates are not UTF-8"
        );
    }

    #[test]
    fn rejects_what_json_parse_rejects() {
        for bad in [
            &b""[..],
            b"{",
            b"{\"a\":1,}",
            b"[1,]",
            b"01",
            b"1.",
            b".5",
            b"+1",
            b"NaN",
            b"'a'",
            b"\"a\tb\"",
            b"\"\\x\"",
            b"\"\\u12\"",
            b"{\"a\" 1}",
            b"{a:1}",
            b"1 2",
            b"tru",
        ] {
            assert!(parse(bad).is_err(), "{:?}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn deep_nesting_is_refused_not_a_stack_overflow() {
        let deep = "[".repeat(100_000);
        assert!(parse(deep.as_bytes()).is_err());
        let fine = format!("{}{}", "[".repeat(200), "]".repeat(200));
        assert!(parse(fine.as_bytes()).is_ok());
    }

    #[test]
    fn huge_exponents_become_infinity_like_json_parse() {
        assert_eq!(parse(b"1e400").unwrap(), Json::Number(f64::INFINITY));
    }
}
