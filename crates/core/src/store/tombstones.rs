//! What `forget` removed, so that nothing brings it back: a file of the chat
//! folder ([`TOMBSTONE_FILE`], 0600) holding, for each removed entry, its id
//! and a keyed hash of it (no text). A `restore` of an older backup and an
//! `import` of an older export skip the entries it names, unless forced.
//!
//! The hash is SHA-256 over a random key (drawn when the file is first
//! written, kept in its first line), the entry's role, time and text as the
//! store holds them (masked): with the key per chat, a short removed text
//! cannot be looked up in a table of hashes made for every chat.
//!
//! The file is read whole (at most [`MAX_TOMBSTONE_BYTES`]); it is written
//! through the store's one atomic replace, durable. A file that is not one
//! of ours is an error naming it, never ignored: ignoring it would bring
//! forgotten entries back.

use std::collections::HashSet;
use std::fmt::Write as _;

use sha2::{Digest, Sha256};

use super::layout::TOMBSTONE_FILE;
use super::replace::{Durability, Replacement};
use super::sys::{Access, Folder};
use crate::error::CoreError;
use crate::persistent_chat::fs::read_at_most;
use crate::persistent_chat::log::LogEntry;

const HEADER: &str = "openclaw-context-native forgotten entries v1 key=";
/// Larger than this is no tombstone file of ours (a million entries).
pub const MAX_TOMBSTONE_BYTES: u64 = 128 << 20;

/// The forgotten entries of one chat.
#[derive(Debug, Clone, Default)]
pub struct Tombstones {
    key: [u8; 32],
    ids: HashSet<Vec<u16>>,
    hashes: HashSet<[u8; 16]>,
    /// Lines of the file, as read (each `hash id-json`), to write back.
    lines: Vec<String>,
    exists: bool,
}

impl Tombstones {
    /// The folder's tombstones; none when it has no file.
    pub(crate) fn read(folder: &Folder) -> Result<Tombstones, CoreError> {
        let path = folder.path.join(TOMBSTONE_FILE);
        let shown = path.to_string_lossy();
        let Some((file, status, _)) = folder.open_file(TOMBSTONE_FILE, Access::Read)? else {
            return Ok(Tombstones::default());
        };
        let bad = |what: &str| {
            CoreError::Refused {
            path: shown.to_string(),
            what: format!("{what}: not a list of forgotten entries (restore and import would bring them back; move it away to go on)"),
        }
        };
        let bytes = read_at_most(file, status.size, MAX_TOMBSTONE_BYTES, &shown)?
            .ok_or_else(|| bad("too large"))?;
        let text = String::from_utf8(bytes).map_err(|_| bad("not UTF-8"))?;
        let mut lines = text.lines();
        let key = lines
            .next()
            .and_then(|first| first.strip_prefix(HEADER))
            .and_then(parse_hex::<32>)
            .ok_or_else(|| bad("no header"))?;
        let mut tombstones = Tombstones {
            key,
            exists: true,
            ..Tombstones::default()
        };
        for (number, line) in lines.enumerate() {
            let (hash, id) = line.split_once(' ').unwrap_or((line, ""));
            let hash = parse_hex::<16>(hash).ok_or_else(|| bad(&format!("line {}", number + 2)))?;
            tombstones.hashes.insert(hash);
            if !id.is_empty() {
                let id = crate::persistent_chat::json::parse(id.as_bytes())
                    .ok()
                    .and_then(|value| value.as_text().map(<[u16]>::to_vec))
                    .ok_or_else(|| bad(&format!("line {}", number + 2)))?;
                tombstones.ids.insert(id);
            }
            tombstones.lines.push(line.to_owned());
        }
        Ok(tombstones)
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty() && self.hashes.is_empty()
    }

    /// Whether `entry` (as the store holds it: masked) was forgotten.
    pub fn holds(&self, entry: &LogEntry) -> bool {
        if self.is_empty() {
            return false;
        }
        entry.id.as_ref().is_some_and(|id| self.ids.contains(id))
            || self.hashes.contains(&self.hash(entry))
    }

    fn hash(&self, entry: &LogEntry) -> [u8; 16] {
        let mut hasher = Sha256::new();
        hasher.update(self.key);
        hasher.update(entry.role.as_str().as_bytes());
        hasher.update([0]);
        if let Some(ts) = &entry.ts {
            for unit in ts.display() {
                hasher.update(unit.to_le_bytes());
            }
        }
        hasher.update([0]);
        for unit in &entry.text {
            hasher.update(unit.to_le_bytes());
        }
        let mut out = [0u8; 16];
        out.copy_from_slice(&hasher.finalize()[..16]);
        out
    }

    /// Records `entries` (as the store holds them: masked) and writes the
    /// file; a key is drawn for a folder that has none yet.
    pub(crate) fn add(&mut self, folder: &Folder, entries: &[LogEntry]) -> Result<(), CoreError> {
        if entries.is_empty() {
            return Ok(());
        }
        if !self.exists {
            getrandom::fill(&mut self.key).map_err(|err| CoreError::Random {
                reason: err.to_string(),
            })?;
            self.exists = true;
        }
        for entry in entries {
            let hash = self.hash(entry);
            let mut line = hex(&hash);
            if let Some(id) = &entry.id {
                line.push(' ');
                let mut json = Vec::new();
                super::entry_json::value_json(
                    &mut json,
                    &crate::persistent_chat::json::Json::String(id.clone()),
                );
                line.push_str(&String::from_utf8_lossy(&json));
                self.ids.insert(id.clone());
            }
            if self.hashes.insert(hash) {
                self.lines.push(line);
            }
        }
        let mut text = format!("{HEADER}{}\n", hex(&self.key));
        for line in &self.lines {
            text.push_str(line);
            text.push('\n');
        }
        let mut replacement = Replacement::new(folder, TOMBSTONE_FILE)?;
        replacement.write_all(text.as_bytes())?;
        replacement.commit(Durability::Durable)
    }
}

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for byte in bytes {
        let _ = write!(out, "{byte:02x}");
    }
    out
}

fn parse_hex<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != N * 2 || !text.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut out = [0u8; N];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[i * 2..i * 2 + 2], 16).ok()?;
    }
    Some(out)
}
