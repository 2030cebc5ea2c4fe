//! A backup's `manifest.json`: each chat's folder name and, for each file
//! copied, its size, SHA-256 and, for the log, its lines and valid entries.
//!
//! ```json
//! {"format":"openclaw-context-backup","version":1,"createdAt":"2026-…Z",
//!  "chats":[{"folder":"agent-x-…","files":[{"name":"perpetual-log.jsonl",
//!  "size":123,"sha256":"…","lines":2,"entries":2}]}]}
//! ```

use super::backup::{ChatRecord, FileRecord};
use crate::persistent_chat::json::{self, Json};

pub const MANIFEST_FILE: &str = "manifest.json";
pub const FORMAT: &str = "openclaw-context-backup";
pub const VERSION: f64 = 1.0;
/// A manifest larger than this is not one of ours.
pub const MAX_MANIFEST_BYTES: u64 = 64 << 20;

/// `text` as a JSON string (quotes included).
fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The manifest's JSON, one chat per line (readable, and diffable).
pub fn to_json(created_at: &str, chats: &[ChatRecord]) -> String {
    let mut out = format!(
        "{{\"format\":{},\"version\":1,\"createdAt\":{},\"chats\":[",
        string(FORMAT),
        string(created_at)
    );
    for (i, chat) in chats.iter().enumerate() {
        out.push_str(if i == 0 { "\n" } else { ",\n" });
        out.push_str(&format!(
            "{{\"folder\":{},\"files\":[",
            string(&chat.folder)
        ));
        for (j, file) in chat.files.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            out.push_str(&format!(
                "{{\"name\":{},\"size\":{},\"sha256\":{}",
                string(&file.name),
                file.size,
                string(&file.sha256)
            ));
            if let (Some(lines), Some(entries)) = (file.lines, file.entries) {
                out.push_str(&format!(",\"lines\":{lines},\"entries\":{entries}"));
            }
            out.push('}');
        }
        out.push_str("]}");
    }
    out.push_str("\n]}\n");
    out
}

fn text(value: Option<&Json>, what: &str) -> Result<String, String> {
    match value.and_then(Json::as_text) {
        Some(units) => String::from_utf16(units).map_err(|_| format!("{what} is not Unicode")),
        None => Err(format!("{what} is missing or not a string")),
    }
}

fn count(value: Option<&Json>, what: &str) -> Result<u64, String> {
    match value {
        Some(Json::Number(n)) if *n >= 0.0 && n.fract() == 0.0 && *n <= 9_007_199_254_740_991.0 => {
            Ok(*n as u64)
        }
        _ => Err(format!("{what} is missing or not a whole number")),
    }
}

/// The chats a manifest lists; `Err` says what is wrong with it.
pub fn parse(bytes: &[u8]) -> Result<Vec<ChatRecord>, String> {
    let doc = json::parse(bytes)
        .map_err(|err| format!("not JSON ({} at byte {})", err.reason, err.offset))?;
    if text(doc.get("format"), "format")? != FORMAT {
        return Err(format!("format is not {FORMAT:?}"));
    }
    if !matches!(doc.get("version"), Some(Json::Number(v)) if *v == VERSION) {
        return Err("version is not 1".into());
    }
    let Some(Json::Array(chats)) = doc.get("chats") else {
        return Err("chats is missing or not a list".into());
    };
    let mut out = Vec::with_capacity(chats.len());
    for (i, chat) in chats.iter().enumerate() {
        let folder = text(chat.get("folder"), &format!("chats[{i}].folder"))?;
        let Some(Json::Array(files)) = chat.get("files") else {
            return Err(format!("chats[{i}].files is missing or not a list"));
        };
        let mut records = Vec::with_capacity(files.len());
        for (j, file) in files.iter().enumerate() {
            let at = format!("chats[{i}].files[{j}]");
            let lines = match file.get("lines") {
                None => None,
                some => Some(count(some, &format!("{at}.lines"))?),
            };
            let entries = match file.get("entries") {
                None => None,
                some => Some(count(some, &format!("{at}.entries"))?),
            };
            records.push(FileRecord {
                name: text(file.get("name"), &format!("{at}.name"))?,
                size: count(file.get("size"), &format!("{at}.size"))?,
                sha256: text(file.get("sha256"), &format!("{at}.sha256"))?,
                lines,
                entries,
                left_out_bytes: 0,
            });
        }
        out.push(ChatRecord {
            folder,
            files: records,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_manifest_reads_back_as_written() {
        let chats = vec![ChatRecord {
            folder: "a-\"b\"\n".into(),
            files: vec![
                FileRecord {
                    name: "perpetual-log.jsonl".into(),
                    size: 10,
                    sha256: "ab".into(),
                    lines: Some(2),
                    entries: Some(1),
                    left_out_bytes: 0,
                },
                FileRecord {
                    name: "continuity-summary.txt".into(),
                    size: 0,
                    sha256: "cd".into(),
                    lines: None,
                    entries: None,
                    left_out_bytes: 0,
                },
            ],
        }];
        let text = to_json("2026-01-01T00:00:00.000Z", &chats);
        assert_eq!(parse(text.as_bytes()).unwrap(), chats);
        assert!(parse(b"{}").unwrap_err().contains("format"));
        assert!(parse(b"[").unwrap_err().starts_with("not JSON"));
    }
}
