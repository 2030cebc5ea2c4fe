//! A log entry as one JSON line, byte for byte what the plugin's
//! `JSON.stringify(entry)` wrote: the fields in the order `ts`, `role`,
//! `text`, `session`, `status`, `id`, absent ones left out, strings escaped
//! as JavaScript escapes them (lone surrogates as `\udXXX`, so a text comes
//! back exactly).

use crate::persistent_chat::log::{js_number_text, LogEntry, Timestamp};

/// The entry's line, without its `\n`.
pub fn entry_json(entry: &LogEntry) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + entry.text.len() * 3 / 2);
    out.push(b'{');
    let mut first = true;
    let mut key = |out: &mut Vec<u8>, name: &str| {
        if !first {
            out.push(b',');
        }
        first = false;
        out.push(b'"');
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(b"\":");
    };
    match &entry.ts {
        Some(Timestamp::Text(text)) => {
            key(&mut out, "ts");
            string(&mut out, text);
        }
        Some(Timestamp::Number(number)) => {
            key(&mut out, "ts");
            if number.is_finite() {
                let text = String::from_utf16_lossy(&js_number_text(*number));
                out.extend_from_slice(text.as_bytes());
            } else {
                out.extend_from_slice(b"null");
            }
        }
        None => {}
    }
    key(&mut out, "role");
    out.push(b'"');
    out.extend_from_slice(entry.role.as_str().as_bytes());
    out.push(b'"');
    key(&mut out, "text");
    string(&mut out, &entry.text);
    for (name, value) in [
        ("session", &entry.session),
        ("status", &entry.status),
        ("id", &entry.id),
    ] {
        if let Some(value) = value {
            key(&mut out, name);
            string(&mut out, value);
        }
    }
    out.push(b'}');
    out
}

/// A JSON value as `JSON.stringify(value)` writes it (no spaces, members in
/// their order), as UTF-8: the memory state rewritten by `forget`.
pub(crate) fn value_json(out: &mut Vec<u8>, value: &crate::persistent_chat::json::Json) {
    use crate::persistent_chat::json::Json;
    match value {
        Json::Null => out.extend_from_slice(b"null"),
        Json::Bool(true) => out.extend_from_slice(b"true"),
        Json::Bool(false) => out.extend_from_slice(b"false"),
        Json::Number(number) if number.is_finite() => {
            out.extend_from_slice(String::from_utf16_lossy(&js_number_text(*number)).as_bytes())
        }
        Json::Number(_) => out.extend_from_slice(b"null"),
        Json::String(text) => string(out, text),
        Json::Array(items) => {
            out.push(b'[');
            for (n, item) in items.iter().enumerate() {
                if n > 0 {
                    out.push(b',');
                }
                value_json(out, item);
            }
            out.push(b']');
        }
        Json::Object(members) => {
            out.push(b'{');
            for (n, (name, item)) in members.iter().enumerate() {
                if n > 0 {
                    out.push(b',');
                }
                string(out, name);
                out.push(b':');
                value_json(out, item);
            }
            out.push(b'}');
        }
    }
}

/// `JSON.stringify(string)` of UTF-16 text, as UTF-8.
fn string(out: &mut Vec<u8>, text: &[u16]) {
    out.push(b'"');
    for decoded in char::decode_utf16(text.iter().copied()) {
        match decoded {
            Ok('"') => out.extend_from_slice(b"\\\""),
            Ok('\\') => out.extend_from_slice(b"\\\\"),
            Ok('\u{8}') => out.extend_from_slice(b"\\b"),
            Ok('\u{c}') => out.extend_from_slice(b"\\f"),
            Ok('\n') => out.extend_from_slice(b"\\n"),
            Ok('\r') => out.extend_from_slice(b"\\r"),
            Ok('\t') => out.extend_from_slice(b"\\t"),
            Ok(c) if (c as u32) < 0x20 => escape(out, c as u16),
            Ok(c) => {
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
            Err(lone) => escape(out, lone.unpaired_surrogate()),
        }
    }
    out.push(b'"');
}

fn escape(out: &mut Vec<u8>, unit: u16) {
    out.extend_from_slice(format!("\\u{unit:04x}").as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::persistent_chat::log::{parse_log_line, Role};

    fn u(text: &str) -> Vec<u16> {
        text.encode_utf16().collect()
    }

    #[test]
    fn as_json_stringify_wrote_it() {
        let entry = LogEntry {
            role: Role::User,
            text: u("a \"q\" \\ \n\t\u{1}\u{7f} é 😀 \u{2028}"),
            ts: Some(Timestamp::Text(u("2026-01-01T00:00:00.000Z"))),
            session: Some(u("s1")),
            status: None,
            id: Some(u("t:user")),
        };
        assert_eq!(
            String::from_utf8(entry_json(&entry)).unwrap(),
            "{\"ts\":\"2026-01-01T00:00:00.000Z\",\"role\":\"user\",\"text\":\"a \\\"q\\\" \\\\ \\n\\t\\u0001\u{7f} é 😀 \u{2028}\",\"session\":\"s1\",\"id\":\"t:user\"}"
        );
    }

    #[test]
    fn every_text_reads_back_exactly_lone_surrogates_included() {
        let entry = LogEntry {
            role: Role::Assistant,
            text: vec![0x61, 0xD800, 0x62, 0xDC00, 0xD83D, 0xDE00],
            ts: Some(Timestamp::Number(1.5e12)),
            session: None,
            status: Some(u("ok")),
            id: None,
        };
        let line = entry_json(&entry);
        assert!(String::from_utf8_lossy(&line).contains("\\ud800"));
        assert_eq!(parse_log_line(&line), Some(entry));
    }
}
