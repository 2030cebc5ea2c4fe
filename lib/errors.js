'use strict'
// How the command reports what went wrong: one line on stderr, and its exit code.
const { escapeControl } = require('./shell-quote')

/** A failure the command reports on one line and exits 1 for (not a bug: no stack trace). */
class PatchError extends Error {}

/** Bad usage: the command prints the message and where its help is, and exits 2. */
class UsageError extends Error {}

/** The first line of a message (up to any line break), other control characters escaped. */
const firstLine = (text) =>
  escapeControl(String(text).split(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/)[0], { backslashes: false })

/**
 * The first line of an error's message (up to any line break), with its code when the message
 * lacks it, and any other control character escaped (lib/shell-quote.js): one line, whatever
 * path the message holds.
 */
function oneLine(err) {
  const message = firstLine((err && err.message) || err)
  return err && err.code && !message.includes(err.code) ? `${message} (${err.code})` : message
}

// `CODE: what, syscall 'path'` (or `'from' -> 'to'`): how Node and the addon word a file error.
const CODED = /^([A-Z][A-Z0-9_]{2,}): ([\s\S]*)$/
const AT_PATH = /^([\s\S]*?), [a-z_]+ '([\s\S]*?)'(?: -> '([\s\S]*)')?$/
// The store's temp files (`.<name>.openclaw-context-native-<pid>-<8 hex>.tmp`): the file being
// written is `<name>`; the temp name is an implementation detail a reader cannot act on.
const TEMP_NAME = /(^|[\\/])\.([^\\/]+?)\.openclaw-context-native-\d+-[0-9a-f]{8}\.tmp(?=$|[\s'":,)])/g

/**
 * An error as the command prints it, words first: `not a regular file (FIFO): /path (ENOTREGULAR)`
 * for `ENOTREGULAR: not a regular file (FIFO), open '/path'`; a temp file named by the file it
 * stands for. One line, control characters escaped, the code last (when there is one).
 */
function inWords(err) {
  const message = firstLine((err && err.message) || err)
  const coded = CODED.exec(message)
  const code = (err && typeof err.code === 'string' && err.code) || coded?.[1]
  let words = coded && (!code || coded[1] === code) ? coded[2] : message
  const at = AT_PATH.exec(words)
  if (at) words = `${at[1]}: ${at[2]}${at[3] ? ` -> ${at[3]}` : ''}`
  words = words.replace(TEMP_NAME, '$1$2')
  return code && !words.includes(`(${code})`) ? `${words} (${code})` : words
}

/** The error as a JSON object for `--json` output: the words, and the code as a field. */
function errorJson(err) {
  const json = { error: inWords(err).replace(/ \([A-Z][A-Z0-9_]{2,}\)$/, '') }
  if (err && typeof err.code === 'string') json.code = err.code
  else if (CODED.test(firstLine(err?.message ?? err))) json.code = CODED.exec(firstLine(err.message))[1]
  if (err && typeof err.path === 'string') json.path = err.path
  return json
}

module.exports = { PatchError, UsageError, oneLine, inWords, errorJson }
