//! The one status rule: which assistant statuses report success (the summary
//! shows the latest failure, the prompt's metadata a turn's failed status).

use crate::utf16;

/// True for an assistant status that reports success. The gateway writes
/// `ok`; the other spellings are what hand-written or older logs use.
pub(crate) fn is_ok_status(status: &[u16]) -> bool {
    let status = String::from_utf16_lossy(utf16::trim(status)).to_ascii_lowercase();
    matches!(
        status.as_str(),
        "" | "ok" | "success" | "succeeded" | "completed" | "done"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::utf16::encode as u;

    #[test]
    fn ok_statuses() {
        assert!(is_ok_status(&u("ok")));
        assert!(is_ok_status(&u(" OK ")));
        assert!(!is_ok_status(&u("ACP_TURN_FAILED")));
    }
}
