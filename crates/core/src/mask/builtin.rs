//! The built-in secret shapes: at least what the plugin masked before
//! (its `redact.mjs`), as `regex` patterns (no lookaround, no
//! backreferences: each is matched in linear time).
//!
//! Where a pattern has a capturing group, only that group is masked: the
//! rest (`Bearer `, `password=`, a URL's user) stays readable. Word
//! boundaries are ASCII ones (`(?-u:\b)`), as JavaScript's `\b` is; they also
//! keep the lazy DFA on non-ASCII text (a Unicode `\b` sends it to the
//! slower PikeVM).

/// One built-in shape: its placeholder's type and its pattern.
pub struct Shape {
    pub kind: &'static str,
    pub pattern: &'static str,
}

/// A key name of a `key=value` or `key: value` pair whose value is masked.
/// `\s` between the parts is Unicode's, as JavaScript's is.
macro_rules! key_value {
    ($keys:literal) => {
        concat!(r#"(?i:"#, $keys, r#")["']?\s*[:=]\s*["']?([^\s"',;]{6,})"#)
    };
}

pub const SHAPES: &[Shape] = &[
    // OpenAI (`sk-`, `sk-proj-`), Anthropic (`sk-ant-`) and look-alikes.
    Shape {
        kind: "api-key",
        pattern: r"(?-u:\b)sk-[A-Za-z0-9_-]{16,}",
    },
    Shape {
        kind: "github-token",
        pattern: r"(?-u:\b)(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})",
    },
    Shape {
        kind: "gitlab-token",
        pattern: r"(?-u:\b)glpat-[A-Za-z0-9_-]{20,}",
    },
    Shape {
        kind: "slack-token",
        pattern: r"(?-u:\b)(?:xox[abposr]|xapp)-[A-Za-z0-9-]{10,}",
    },
    Shape {
        kind: "aws-access-key",
        pattern: r"(?-u:\b)(?:AKIA|ASIA)[A-Z0-9]{16}(?-u:\b)",
    },
    Shape {
        kind: "google-api-key",
        pattern: r"(?-u:\b)AIza[0-9A-Za-z_-]{35}",
    },
    Shape {
        kind: "stripe-key",
        pattern: r"(?-u:\b)[srp]k_(?:live|test)_[A-Za-z0-9]{16,}",
    },
    Shape {
        kind: "npm-token",
        pattern: r"(?-u:\b)npm_[A-Za-z0-9]{36}(?-u:\b)",
    },
    Shape {
        kind: "jwt",
        pattern: r"(?-u:\b)eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
    },
    // The credentials of an Authorization header (or its value quoted anywhere).
    Shape {
        kind: "authorization",
        pattern: r"(?i-u:\b(?:Bearer|Basic|Token)\s+)([A-Za-z0-9._~+/-]{16,}=*)",
    },
    Shape {
        kind: "api-key",
        pattern: key_value!(r"api[_-]?key"),
    },
    Shape {
        kind: "secret",
        pattern: key_value!(r"secret"),
    },
    Shape {
        kind: "token",
        pattern: key_value!(r"token"),
    },
    Shape {
        kind: "password",
        pattern: key_value!(r"passw(?:or)?d|pwd"),
    },
    Shape {
        kind: "credentials",
        pattern: key_value!(r"credentials?"),
    },
    // A password in a URL: `scheme://user:password@host`.
    Shape {
        kind: "password",
        pattern: r"(?i-u:\b[a-z][a-z0-9+.-]*://)[^\s:/@]+:([^\s/@]{4,})@",
    },
    // A PEM private key, whole; one without its END line runs to the end of
    // the text. `(?s-u:.)` is any byte, a lone surrogate's included.
    Shape {
        kind: "private-key",
        pattern: r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----(?s-u:.)*?(?:-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----|\z)",
    },
];
