//! Where a chat keeps its files: one folder per session key under the state
//! dir, named by a readable slug and 128 bits of the key's SHA-256, and the
//! names of the files in it.

use sha2::{Digest, Sha256};

/// The perpetual log: one JSON line per message, appended.
pub const LOG_FILE: &str = "perpetual-log.jsonl";
/// State and memory, rebuilt for each new backend session.
pub const SUMMARY_FILE: &str = "continuity-summary.txt";
/// The last prompt sent (for debugging).
pub const LAST_PROMPT_FILE: &str = "last-injected-preprompt.txt";
/// The Python memory script's state: read, never written by the store.
pub const MEMORY_STATE_FILE: &str = "memory-state.json";
/// In a folder several session keys could name (the runtime's
/// `PERSISTENT_CHAT_CONTINUITY_PATH` files), the folder name of the one key
/// whose chat it holds: the first to claim it ([`super::ChatStore::claim_for_key`]).
pub const OWNER_FILE: &str = "session-key-owner";
/// The log's search index: derived (deleting it loses nothing), named as
/// `searchPersistentChatLog` names it beside any log (`<log>.search-index`),
/// so the function and the store share one file.
pub const INDEX_FILE: &str = "perpetual-log.jsonl.search-index";

/// What `forget` removed (ids and keyed hashes, no text): `restore` and
/// `import` skip those entries ([`super::tombstones`]).
pub const TOMBSTONE_FILE: &str = "forgotten-entries";

/// The folder's advisory lock (`store::lock`): empty, 0600; appends hold it
/// shared, a rewrite of the log exclusive.
pub const LOCK_FILE: &str = "chat.lock";

/// Whether `name` is a file the store keeps in a chat folder (or a temp file
/// of its): a summary file may not take one of these names.
pub fn owned_name(name: &str) -> bool {
    [
        LOG_FILE,
        SUMMARY_FILE,
        LAST_PROMPT_FILE,
        MEMORY_STATE_FILE,
        OWNER_FILE,
        INDEX_FILE,
        LOCK_FILE,
        TOMBSTONE_FILE,
    ]
    .contains(&name)
        || name.starts_with(LOG_FILE)
        || super::replace::is_temp_name(name)
}

/// Whether `name` has the shape of a chat folder's name ([`folder_name`]
/// or an earlier release's: a slug and 32 or 10 hex digits, or the digits
/// alone), for a reader that must tell a state dir's chat folders from the
/// rest (`verify`).
pub fn looks_like_folder_name(name: &str) -> bool {
    let hash = name.rsplit_once('-').map_or(name, |(_, hash)| hash);
    (hash.len() == 32 || hash.len() == 10)
        && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// Folders are created with this mode, whatever the umask.
pub const FOLDER_MODE: u32 = 0o700;
/// Files are created with this mode, whatever the umask.
pub const FILE_MODE: u32 = 0o600;

/// The longest slug, in characters (all ASCII).
const SLUG_CHARS: usize = 60;

/// The folder name of a session key (its UTF-16 code units, as JS holds
/// it): the slug, then 32 hex digits of SHA-256 over the units in
/// little-endian order. Over the units, not UTF-8: two keys that differ only
/// in lone surrogates (which UTF-8 cannot carry) get folders of their own.
pub fn folder_name(key: &[u16]) -> String {
    let mut hasher = Sha256::new();
    for unit in key {
        hasher.update(unit.to_le_bytes());
    }
    named(key, &hex(&hasher.finalize(), 32))
}

/// The names earlier releases gave the folder, newest first: 32 hex digits
/// of SHA-256 over the key's UTF-8 (lone surrogates as U+FFFD, as Node
/// encodes them), then the 10 of releases up to 0.1.0.
pub fn earlier_folder_names(key: &[u16]) -> [String; 2] {
    let digest = Sha256::digest(String::from_utf16_lossy(key).as_bytes());
    [named(key, &hex(&digest, 32)), named(key, &hex(&digest, 10))]
}

fn named(key: &[u16], hash: &str) -> String {
    let slug = slug(key);
    if slug.is_empty() {
        hash.to_owned()
    } else {
        format!("{slug}-{hash}")
    }
}

/// JS's `key.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60)`:
/// what lower-cases to ASCII letters and digits is kept (`K` of the Kelvin
/// sign too), every other run is one `-`.
fn slug(key: &[u16]) -> String {
    let mut slug = String::new();
    let mut dash = false;
    for decoded in char::decode_utf16(key.iter().copied()) {
        let lowered: Vec<char> = match decoded {
            Ok(c) => c.to_lowercase().collect(),
            Err(_) => vec!['\u{FFFD}'],
        };
        for c in lowered {
            if c.is_ascii_lowercase() || c.is_ascii_digit() {
                if dash && !slug.is_empty() {
                    slug.push('-');
                }
                dash = false;
                slug.push(c);
            } else {
                dash = true;
            }
        }
    }
    slug.truncate(SLUG_CHARS);
    slug
}

fn hex(bytes: &[u8], digits: usize) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    bytes
        .iter()
        .flat_map(|byte| [byte >> 4, byte & 15])
        .take(digits)
        .map(|nibble| DIGITS[nibble as usize] as char)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(text: &str) -> Vec<u16> {
        text.encode_utf16().collect()
    }

    #[test]
    fn slugs_as_the_plugin_made_them() {
        assert_eq!(slug(&units("agent:codex:acp:x")), "agent-codex-acp-x");
        assert_eq!(slug(&units(":::")), "");
        assert_eq!(slug(&units("--A--b--")), "a-b");
        // The Kelvin sign lower-cases to `k`; U+0130 to `i` and a combining dot.
        assert_eq!(slug(&units("\u{212A}\u{130}x")), "ki-x");
        let long = "a".repeat(59) + ":b";
        assert_eq!(slug(&units(&long)), "a".repeat(59) + "-");
    }

    #[test]
    fn names_carry_the_hash_over_utf16_and_the_earlier_ones_over_utf8() {
        // sha256("agent:codex:acp:x") = 1d4b9a…, as the plugin's tests pin.
        let key = units("agent:codex:acp:x");
        let utf8 = hex(&Sha256::digest(b"agent:codex:acp:x"), 64);
        let [old, legacy] = earlier_folder_names(&key);
        assert_eq!(old, format!("agent-codex-acp-x-{}", &utf8[..32]));
        assert_eq!(legacy, format!("agent-codex-acp-x-{}", &utf8[..10]));
        let le: Vec<u8> = key.iter().flat_map(|u| u.to_le_bytes()).collect();
        let utf16 = hex(&Sha256::digest(&le), 64);
        assert_eq!(
            folder_name(&key),
            format!("agent-codex-acp-x-{}", &utf16[..32])
        );
        assert_ne!(folder_name(&key), old);
        assert_eq!(folder_name(&units(":::")).len(), 32);
    }

    #[test]
    fn keys_differing_in_lone_surrogates_get_their_own_folders() {
        let a = vec![0x61, 0xD800];
        let b = vec![0x61, 0xDC00];
        assert_ne!(folder_name(&a), folder_name(&b));
        // Their UTF-8 names were the same: the reason for the new hash.
        assert_eq!(earlier_folder_names(&a), earlier_folder_names(&b));
    }
}
