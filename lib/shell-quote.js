'use strict'
// Paths and other values in what the command line and the plugin print. Two jobs:
//
// - quoteArg: a value as one argument of a command line the user can paste back: a POSIX
//   shell's single quotes, or on Windows double quotes (cmd and PowerShell alike), PowerShell's
//   single quotes where `$`, a backtick or `%` would expand inside double quotes. Plain values
//   stay unquoted; on Windows a comma is not plain (PowerShell makes an array of `a,b`, cmd
//   splits there).
// - escapeControl: a value shown inside a line of text that is not a command (a log line).
//
// Both give one line that reads as what it holds: control characters (C0, DEL, C1), the Unicode
// line and paragraph separators and the bidirectional controls (which make a line show other
// text than it holds) never appear raw. A folder named `x$(rm -rf ~)` or `x\nproblem: none`
// cannot add a command or forge a line: in a POSIX shell such a value is quoted as $'…' with
// backslash escapes (bash, zsh, ksh, and sh from POSIX.1-2024), on Windows with PowerShell's
// backtick escapes (Windows file names cannot hold control characters).

const PLAIN = { posix: /^[\w@%+=:,./-]+$/, win32: /^[\w@+=:./\\-]+$/ }

/** What must not appear raw in a printed line (lone surrogates included: they print as U+FFFD). */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
const hasUnsafe = (text) => text.search(UNSAFE) !== -1

const hex = (code, width) => code.toString(16).toUpperCase().padStart(width, '0')

/** `\n`, `\t`, `\r`, else `\xHH` (ASCII) or `\uHHHH`: escapes bash's $'…' and escapeControl share. */
const NAMED = { '\n': '\\n', '\t': '\\t', '\r': '\\r' }
const backslashEscape = (char) => {
  if (NAMED[char]) return NAMED[char]
  const code = char.charCodeAt(0)
  return code < 0x80 ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`
}

const POWERSHELL_NAMED = {
  '\0': '`0',
  '\x07': '`a',
  '\b': '`b',
  '\f': '`f',
  '\n': '`n',
  '\r': '`r',
  '\t': '`t',
  '\v': '`v',
}
const powershellEscape = (char) => POWERSHELL_NAMED[char] ?? `\`u{${hex(char.charCodeAt(0), 4)}}`

/**
 * `arg` as one argument of a command line for `platform`'s shell (default: this one's), on one
 * line, control characters escaped.
 */
function quoteArg(arg, platform = process.platform) {
  const text = String(arg)
  if (platform === 'win32') {
    if (PLAIN.win32.test(text)) return text
    if (hasUnsafe(text)) return `"${text.replace(/[`$"]/g, (c) => `\`${c}`).replace(UNSAFE, powershellEscape)}"`
    if (/[$`%]/.test(text)) return `'${text.replace(/'/g, "''")}'`
    return `"${text.replace(/"/g, '""')}"`
  }
  if (PLAIN.posix.test(text)) return text
  if (hasUnsafe(text)) return `$'${text.replace(/[\\']/g, (c) => `\\${c}`).replace(UNSAFE, backslashEscape)}'`
  return `'${text.replace(/'/g, "'\\''")}'`
}

/**
 * `text` for a line of text that is not a command (a log line, a report): a backslash doubled,
 * control characters as `\n`, `\t`, `\r`, `\xHH` or `\uHHHH`; anything else as it is.
 * `{ backslashes: false }` leaves backslashes single, for a message meant to be read rather than
 * decoded (a Windows path in an error), still one line with nothing raw.
 */
function escapeControl(text, { backslashes = true } = {}) {
  const kept = backslashes ? String(text).replace(/\\/g, '\\\\') : String(text)
  return kept.replace(UNSAFE, backslashEscape)
}

module.exports = { quoteArg, escapeControl }
