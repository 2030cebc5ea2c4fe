//! What a backup may hold: one rule, used by `verify` and by `restore`, so
//! that a backup `verify` passes is exactly one `restore` can apply.
//!
//! - `manifest.json` at the top;
//! - a chat folder: one name component, not hidden, no `\`, `:` or NUL
//!   (`x\..\..\evil` is a name on unix and a path on Windows), at most 255
//!   bytes;
//! - in it, only the files `backup` copies ([`BACKED_UP_FILES`]): never the
//!   lock, the index or a name of the store's own that a restore would write
//!   over;
//! - each member once, and (in a `.tar`) each chat's files right after its
//!   folder, before the next chat's: a restore writes chat by chat.

use std::collections::HashSet;

use super::backup::BACKED_UP_FILES;
use super::manifest::MANIFEST_FILE;

/// A member of a backup, by its path's parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Member<'a> {
    Manifest,
    Folder(&'a str),
    File { folder: &'a str, name: &'a str },
}

/// Why a member is refused: a `verify` problem's kind and what it says.
pub(crate) type Refused = (&'static str, String);

/// A name a backup may give a chat folder.
pub(crate) fn valid_folder_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with('.')
        && !name.contains(['/', '\\', ':', '\0'])
        && name.len() <= 255
}

/// A name a backup may give a file of a chat folder.
pub(crate) fn valid_file_name(name: &str) -> bool {
    BACKED_UP_FILES.contains(&name)
}

/// The member at `parts` (a path split at `/`, a trailing `/` dropped), a
/// folder when `is_folder`, else a regular file (anything else is refused
/// by the caller as a type).
pub(crate) fn member<'a>(parts: &[&'a str], is_folder: bool) -> Result<Member<'a>, Refused> {
    match (parts, is_folder) {
        ([name], false) if *name == MANIFEST_FILE => Ok(Member::Manifest),
        ([folder], true) if valid_folder_name(folder) => Ok(Member::Folder(folder)),
        ([folder, name], false) if valid_folder_name(folder) && valid_file_name(name) => {
            Ok(Member::File { folder, name })
        }
        ([folder, name], false) if valid_folder_name(folder) => Err((
            "extra",
            format!("{name:?} is not a file a backup holds (only {BACKED_UP_FILES:?})"),
        )),
        _ => Err((
            "extra",
            "not a member a backup holds (manifest.json, a chat folder, its files)".into(),
        )),
    }
}

/// The order rule over a tar's members, in the order they come.
#[derive(Default)]
pub(crate) struct Order {
    seen: HashSet<(String, String)>,
    folders: HashSet<String>,
    current: Option<String>,
}

impl Order {
    /// Checks the next member: not seen before, and a file inside the folder
    /// that came last.
    pub(crate) fn next(&mut self, member: Member) -> Result<(), Refused> {
        let key = match member {
            Member::Manifest => (String::new(), MANIFEST_FILE.to_owned()),
            Member::Folder(folder) => (folder.to_owned(), String::new()),
            Member::File { folder, name } => (folder.to_owned(), name.to_owned()),
        };
        if !self.seen.insert(key) {
            return Err((
                "duplicate",
                "the backup holds this member twice (which copy is the backup's?)".into(),
            ));
        }
        match member {
            Member::Manifest => Ok(()),
            Member::Folder(folder) => {
                self.folders.insert(folder.to_owned());
                self.current = Some(folder.to_owned());
                Ok(())
            }
            Member::File { folder, .. } if self.current.as_deref() == Some(folder) => Ok(()),
            Member::File { folder, .. } if self.folders.contains(folder) => Err((
                "order",
                "a file of an earlier chat after another chat's (each chat's files follow its folder)"
                    .into(),
            )),
            Member::File { .. } => Err((
                "order",
                "a file before its chat folder (each chat's files follow its folder)".into(),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_a_restore_could_not_write_are_refused() {
        for (parts, folder) in [
            (&[".hidden"][..], true),
            (&["x\\..\\..\\evil"][..], true),
            (&["c:evil"][..], true),
            (&["chat", "chat.lock"][..], false),
            (&["chat", "perpetual-log.jsonl.search-index"][..], false),
            (
                &["chat", ".x.openclaw-context-native-1-0123abcd.tmp"][..],
                false,
            ),
            (&["a", "b", "c"][..], false),
            (&["chat"][..], false),
            (&[""][..], true),
        ] {
            assert!(member(parts, folder).is_err(), "{parts:?}");
        }
        assert_eq!(member(&["manifest.json"], false), Ok(Member::Manifest));
        assert_eq!(
            member(&["chat", "perpetual-log.jsonl"], false),
            Ok(Member::File {
                folder: "chat",
                name: "perpetual-log.jsonl"
            })
        );
    }

    #[test]
    fn duplicates_and_interleaved_chats_are_refused() {
        let mut order = Order::default();
        assert!(order.next(Member::Folder("a")).is_ok());
        let log = Member::File {
            folder: "a",
            name: "perpetual-log.jsonl",
        };
        assert!(order.next(log).is_ok());
        assert_eq!(order.next(log).unwrap_err().0, "duplicate");
        assert!(order.next(Member::Folder("b")).is_ok());
        let late = Member::File {
            folder: "a",
            name: "continuity-summary.txt",
        };
        assert_eq!(order.next(late).unwrap_err().0, "order");
        let orphan = Member::File {
            folder: "c",
            name: "perpetual-log.jsonl",
        };
        assert_eq!(order.next(orphan).unwrap_err().0, "order");
        assert_eq!(order.next(Member::Folder("a")).unwrap_err().0, "duplicate");
    }
}
