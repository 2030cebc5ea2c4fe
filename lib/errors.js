'use strict'
// How the command reports what went wrong: one line on stderr, and its exit code.

/** A failure the command reports on one line and exits 1 for (not a bug: no stack trace). */
class PatchError extends Error {}

/** Bad usage: the command prints the message and the usage, and exits 2. */
class UsageError extends Error {}

/** The first line of an error's message, with its code when the message lacks it. */
function oneLine(err) {
  const message = String((err && err.message) || err).split('\n')[0]
  return err && err.code && !message.includes(err.code) ? `${message} (${err.code})` : message
}

module.exports = { PatchError, UsageError, oneLine }
