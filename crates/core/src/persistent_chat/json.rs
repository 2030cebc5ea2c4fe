//! A small, strict JSON reader whose strings are UTF-16.
//!
//! Why not `serde_json`: JavaScript's `JSON.stringify` writes a lone surrogate
//! as an escape such as `"\ud800"`. serde_json 1.0.154 accepts that only when
//! it deserializes into bytes (WTF-8); a `String`, `serde_json::Value` or
//! `deserialize_any` (needed for `ts`, which is a string *or* a number)
//! refuses it, so a real log line would be dropped.
//!
//! What it reads the way `JSON.parse` reads it (each checked by a test
//! below): RFC 8259's grammar and nothing more (no trailing commas, leading
//! zeros, `NaN`, single quotes, comments or BOM); string escapes, lone
//! surrogates included, to the exact UTF-16 units; numbers to the nearest
//! `f64`, `-0` kept and `1e400` as infinity; a repeated key's last value
//! (all are kept in order, [`Json::get`] takes the last); `__proto__` as a
//! plain member.
//!
//! Where it differs, on purpose:
//! - it reads bytes, not a JS string: text that is not UTF-8 (CESU-8
//!   surrogates included) is refused where reading the file as text would
//!   have replaced it by U+FFFD;
//! - nesting deeper than [`MAX_DEPTH`] is refused (a log entry or memory
//!   state is flat; V8 goes on to its stack limit);
//! - its errors are a byte offset and a reason, not V8's messages.

use super::scan::{to_f64, Cursor};

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
    let mut parser = Parser {
        cursor: Cursor::new(input),
    };
    parser.skip_whitespace();
    let value = parser.value(0)?;
    parser.skip_whitespace();
    if !parser.cursor.at_end() {
        return Err(parser.error("unexpected text after the JSON value"));
    }
    Ok(value)
}

struct Parser<'a> {
    cursor: Cursor<'a>,
}

impl Parser<'_> {
    fn error(&self, reason: &'static str) -> JsonError {
        JsonError {
            offset: self.cursor.pos(),
            reason,
        }
    }

    fn skip_whitespace(&mut self) {
        self.cursor
            .take_while(|byte| matches!(byte, b' ' | b'\t' | b'\n' | b'\r'));
    }

    fn expect_literal(&mut self, literal: &[u8], value: Json) -> Result<Json, JsonError> {
        if self.cursor.eat_all(literal) {
            Ok(value)
        } else {
            Err(self.error("invalid literal"))
        }
    }

    fn value(&mut self, depth: usize) -> Result<Json, JsonError> {
        if depth > MAX_DEPTH {
            return Err(self.error("nesting too deep"));
        }
        match self.cursor.peek() {
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
        self.cursor.advance(1); // '{'
        let mut members = Vec::new();
        self.skip_whitespace();
        if self.cursor.eat(b'}') {
            return Ok(Json::Object(members));
        }
        loop {
            self.skip_whitespace();
            if self.cursor.peek() != Some(b'"') {
                return Err(self.error("expected a member name"));
            }
            let name = self.string()?;
            self.skip_whitespace();
            if !self.cursor.eat(b':') {
                return Err(self.error("expected ':'"));
            }
            self.skip_whitespace();
            let value = self.value(depth + 1)?;
            members.push((name, value));
            self.skip_whitespace();
            if self.cursor.eat(b'}') {
                return Ok(Json::Object(members));
            }
            if !self.cursor.eat(b',') {
                return Err(self.error("expected ',' or '}'"));
            }
        }
    }

    fn array(&mut self, depth: usize) -> Result<Json, JsonError> {
        self.cursor.advance(1); // '['
        let mut items = Vec::new();
        self.skip_whitespace();
        if self.cursor.eat(b']') {
            return Ok(Json::Array(items));
        }
        loop {
            self.skip_whitespace();
            items.push(self.value(depth + 1)?);
            self.skip_whitespace();
            if self.cursor.eat(b']') {
                return Ok(Json::Array(items));
            }
            if !self.cursor.eat(b',') {
                return Err(self.error("expected ',' or ']'"));
            }
        }
    }

    /// RFC 8259's number grammar, then the nearest `f64` (`1e400` is
    /// infinity, as in `JSON.parse`).
    fn number(&mut self) -> Result<Json, JsonError> {
        let start = self.cursor.pos();
        self.cursor.eat(b'-');
        if !self.cursor.eat(b'0') {
            if self
                .cursor
                .eat_if(|byte| matches!(byte, b'1'..=b'9'))
                .is_none()
            {
                return Err(self.error("invalid number"));
            }
            self.cursor.digits();
        }
        if self.cursor.eat(b'.') {
            self.require_digits()?;
        }
        if self
            .cursor
            .eat_if(|byte| matches!(byte, b'e' | b'E'))
            .is_some()
        {
            self.cursor.eat_if(|byte| matches!(byte, b'+' | b'-'));
            self.require_digits()?;
        }
        to_f64(self.cursor.since(start))
            .map(Json::Number)
            .ok_or_else(|| self.error("invalid number"))
    }

    fn require_digits(&mut self) -> Result<(), JsonError> {
        if self.cursor.digits().is_empty() {
            return Err(self.error("expected a digit"));
        }
        Ok(())
    }

    /// A string literal, decoded to UTF-16; `\uD800`-style escapes of lone
    /// surrogates come through as the single unit they name.
    fn string(&mut self) -> Result<Vec<u16>, JsonError> {
        self.cursor.advance(1); // opening quote
        let mut out = Vec::new();
        loop {
            let run_start = self.cursor.pos();
            let run = self
                .cursor
                .take_while(|byte| byte != b'"' && byte != b'\\' && byte >= 0x20);
            let run = std::str::from_utf8(run).map_err(|err| JsonError {
                offset: run_start + err.valid_up_to(),
                reason: "invalid UTF-8",
            })?;
            crate::utf16::push_str(&mut out, run);
            match self.cursor.peek() {
                Some(b'"') => {
                    self.cursor.advance(1);
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.cursor.advance(1);
                    out.push(self.escape()?);
                }
                Some(_) => return Err(self.error("control character in string")),
                None => return Err(self.error("unterminated string")),
            }
        }
    }

    fn escape(&mut self) -> Result<u16, JsonError> {
        let Some(byte) = self.cursor.next() else {
            return Err(self.error("unterminated escape"));
        };
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
            .cursor
            .rest()
            .get(..4)
            .ok_or_else(|| self.error("short \\u escape"))?;
        let mut unit = 0u16;
        for &digit in digits {
            let value = (digit as char)
                .to_digit(16)
                .ok_or_else(|| self.error("invalid \\u escape"))?;
            unit = unit * 16 + value as u16;
        }
        self.cursor.advance(4);
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
    fn numbers_are_the_nearest_double_like_json_parse() {
        assert_eq!(parse(b"1e400").unwrap(), Json::Number(f64::INFINITY));
        assert_eq!(parse(b"-1e400").unwrap(), Json::Number(f64::NEG_INFINITY));
        let Json::Number(zero) = parse(b"-0").unwrap() else {
            panic!()
        };
        assert!(zero == 0.0 && zero.is_sign_negative());
        assert_eq!(
            parse(b"9007199254740993").unwrap(),
            Json::Number(9_007_199_254_740_992.0)
        );
        assert_eq!(parse(b"0.1").unwrap(), Json::Number(0.1));
        assert_eq!(parse(b"1E-2").unwrap(), Json::Number(0.01));
    }

    #[test]
    fn proto_is_a_plain_member_and_repeats_are_kept_in_order() {
        let object = parse(br#"{"__proto__":{"a":1},"k":1,"k":2}"#).unwrap();
        assert_eq!(
            object.get("__proto__"),
            Some(&Json::Object(vec![(u("a"), Json::Number(1.0))]))
        );
        let Json::Object(members) = &object else {
            panic!()
        };
        assert_eq!(members.len(), 3);
        assert_eq!(object.get("k"), Some(&Json::Number(2.0)));
    }

    #[test]
    fn a_bom_and_comments_are_not_json() {
        assert!(parse(b"\xEF\xBB\xBF{}").is_err());
        assert!(parse(b"{} // x").is_err());
        assert!(parse(b"/* x */ {}").is_err());
    }

    #[test]
    fn errors_give_the_byte_offset() {
        assert_eq!(
            parse(br#"{"a":1,}"#).unwrap_err(),
            JsonError {
                offset: 7,
                reason: "expected a member name"
            }
        );
        assert_eq!(parse(b"\"ab\xff\"").unwrap_err().offset, 3);
    }
}
