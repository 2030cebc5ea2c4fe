//! The reload decision: what the backend holds decides.

use crate::persistent_chat::log::LogEntry;

/// The log entries a turn reads (at least) to tell a reload: a backend
/// session with no entry among the chat's last 50 is new to it. The one
/// statement of the window: the plugin's turns, `prepareTurn`'s and
/// `inspect`'s defaults and `doctor` read it from here.
pub const TURN_WINDOW: usize = 50;

/// Whether a turn to the backend session `current_session` is a reload: a
/// session that has no entry in the log window is new to the backend (the
/// first turn, a failed resume, `/new`, a reset, a backend restarted without
/// its session), and so is a turn with no known session.
pub fn is_reload(window: &[LogEntry], current_session: Option<&[u16]>) -> bool {
    match current_session {
        None | Some([]) => true,
        Some(current) => !window
            .iter()
            .any(|entry| entry.session.as_deref() == Some(current)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::persistent_chat::log::{bare_entry, Role};

    #[test]
    fn a_session_with_an_entry_in_the_window_continues() {
        let u = |s: &str| s.encode_utf16().collect::<Vec<u16>>();
        let mut entry = bare_entry(Role::User, "hi");
        entry.session = Some(u("s1"));
        let window = vec![bare_entry(Role::User, "old"), entry];
        assert!(!is_reload(&window, Some(&u("s1"))));
        assert!(is_reload(&window, Some(&u("s2"))));
        assert!(is_reload(&window, None));
        assert!(is_reload(&window, Some(&[])));
        assert!(is_reload(&[], Some(&u("s1"))));
    }
}
