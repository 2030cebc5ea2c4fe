'use strict'
// How the command reports what went wrong: one line on stderr, and its exit code.
const { escapeControl } = require('./shell-quote')

/** A failure the command reports on one line and exits 1 for (not a bug: no stack trace). */
class PatchError extends Error {}

/** Bad usage: the command prints the message and the usage, and exits 2. */
class UsageError extends Error {}

/**
 * The first line of an error's message (up to any line break), with its code when the message
 * lacks it, and any other control character escaped (lib/shell-quote.js): one line, whatever
 * path the message holds.
 */
function oneLine(err) {
  const first = String((err && err.message) || err).split(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/)[0]
  const message = escapeControl(first, { backslashes: false })
  return err && err.code && !message.includes(err.code) ? `${message} (${err.code})` : message
}

module.exports = { PatchError, UsageError, oneLine }
