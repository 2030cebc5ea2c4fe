'use strict'

/** A failure the command reports on one line and exits 1 for (not a bug: no stack trace). */
class PatchError extends Error {}

module.exports = { PatchError }
