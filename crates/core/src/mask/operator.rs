//! The operator's patterns (OpenClaw's `logging.redactPatterns`, the
//! plugin's `redactPatterns`): JavaScript regular expressions, as `source`
//! or `/source/flags`, compiled by the same linear-time engine as the
//! built-in ones. One that engine cannot take (lookaround, backreferences,
//! a syntax it does not have), one that matches the empty string, or one
//! too large once compiled is refused with a reason; the others apply.

use regex::bytes::{Regex, RegexBuilder};
use regex_syntax::ParserBuilder;

/// The longest pattern source taken, in characters.
pub const MAX_SOURCE_CHARS: usize = 4096;
/// The most operator patterns taken; the ones after are refused.
pub const MAX_PATTERNS: usize = 256;
/// The compiled size one pattern may reach (`regex`'s `size_limit`): a
/// counted repetition such as `\w{1000}{1000}` is refused, not built.
pub const SIZE_LIMIT: usize = 1 << 20;
/// The lazy DFA's cache per pattern and thread (`dfa_size_limit`): past it
/// the search goes on in a slower engine, still in linear time.
pub const DFA_SIZE_LIMIT: usize = 1 << 20;

/// A pattern the masker does not use, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    pub pattern: String,
    pub reason: String,
}

/// A compiled operator pattern: whether it has a capturing group (then
/// only the first group is masked).
pub struct Compiled {
    pub regex: Regex,
    pub source: String,
    pub grouped: bool,
}

/// The regex syntax for `pattern`: its body with the JS flags as inline
/// flags. `g` (every match is masked anyway) and `d` are ignored, `u` is
/// how the engine always reads a pattern; `y` and `v` have no equivalent.
pub fn translate(pattern: &str) -> Result<String, String> {
    let (body, flags) = match literal(pattern) {
        Some(parts) => parts,
        None => (pattern, ""),
    };
    let mut inline = String::new();
    for flag in flags.chars() {
        match flag {
            'i' | 'm' | 's' => {
                if !inline.contains(flag) {
                    inline.push(flag);
                }
            }
            'g' | 'd' | 'u' => {}
            other => return Err(format!("the flag {other:?} is not supported")),
        }
    }
    Ok(if inline.is_empty() {
        body.to_owned()
    } else {
        format!("(?{inline}){body}")
    })
}

/// `/body/flags`: the body and the flags, when `pattern` is written so.
fn literal(pattern: &str) -> Option<(&str, &str)> {
    let rest = pattern.strip_prefix('/')?;
    let slash = rest.rfind('/')?;
    let (body, flags) = (&rest[..slash], &rest[slash + 1..]);
    (!body.is_empty() && flags.bytes().all(|b| b.is_ascii_lowercase())).then_some((body, flags))
}

/// Compiles one operator pattern, or says why not.
pub fn compile(pattern: &str) -> Result<Compiled, String> {
    if pattern.chars().count() > MAX_SOURCE_CHARS {
        return Err(format!("longer than {MAX_SOURCE_CHARS} characters"));
    }
    let syntax = translate(pattern)?;
    // The same parser the engine uses (`regex::bytes`: any byte may be
    // matched with `(?-u)`), for a one-line reason and the empty-match check.
    let hir = ParserBuilder::new()
        .utf8(false)
        .build()
        .parse(&syntax)
        .map_err(|error| match error {
            regex_syntax::Error::Parse(error) => error.kind().to_string(),
            regex_syntax::Error::Translate(error) => error.kind().to_string(),
            other => other.to_string(),
        })?;
    if hir.properties().minimum_len() == Some(0) {
        return Err("it matches the empty string".into());
    }
    let regex = RegexBuilder::new(&syntax)
        .size_limit(SIZE_LIMIT)
        .dfa_size_limit(DFA_SIZE_LIMIT)
        .build()
        .map_err(|error| match error {
            regex::Error::CompiledTooBig(limit) => {
                format!("larger than {limit} bytes once compiled")
            }
            other => other
                .to_string()
                .lines()
                .last()
                .unwrap_or_default()
                .to_owned(),
        })?;
    let grouped = regex.captures_len() > 1;
    Ok(Compiled {
        regex,
        source: pattern.to_owned(),
        grouped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(pattern: &str) -> String {
        match compile(pattern) {
            Ok(_) => panic!("{pattern} compiled"),
            Err(reason) => reason,
        }
    }

    #[test]
    fn js_flags_become_inline_flags() {
        assert_eq!(translate("/abc/gi").unwrap(), "(?i)abc");
        assert_eq!(translate("/a/b/msu").unwrap(), "(?ms)a/b");
        assert_eq!(translate("abc").unwrap(), "abc");
        assert_eq!(translate("/abc/").unwrap(), "abc");
        // Not a literal: an upper-case "flag", nothing between the slashes.
        assert_eq!(translate("/abc/X").unwrap(), "/abc/X");
        assert_eq!(translate("//").unwrap(), "//");
        assert!(translate("/abc/y").is_err());
    }

    #[test]
    fn what_the_engine_cannot_do_is_refused_with_a_reason() {
        assert!(
            reason("(?=x)abc").contains("look-around"),
            "{}",
            reason("(?=x)abc")
        );
        assert!(reason("(?<!x)abc").contains("look-around"));
        assert!(
            reason(r"(a)\1").contains("backreference"),
            "{}",
            reason(r"(a)\1")
        );
        assert_eq!(reason("(?:)"), "it matches the empty string");
        assert_eq!(reason("x*"), "it matches the empty string");
        assert_eq!(reason("/a|/g"), "it matches the empty string");
        assert!(
            reason(r"\w{1000}{1000}").contains("once compiled")
                || reason(r"\w{1000}{1000}").contains("repetition")
        );
        assert!(reason("(unclosed").contains("unclosed"));
        assert!(!reason("(?=x)abc").contains('\n'));
        assert!(compile("(a+)+b").is_ok());
        assert!(compile(r"/secret-\d+/i")
            .unwrap()
            .regex
            .is_match(b"SECRET-42"));
        assert!(compile(r"id=(\w+)").unwrap().grouped);
    }
}
