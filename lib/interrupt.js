'use strict'
// Ctrl-C (SIGINT), SIGTERM or SIGHUP while a command works: what the command made and has not
// finished (a temp file beside an output, a snapshot folder) is removed, then the process ends
// as the signal would end it (exit 128 + the signal's number: 130 for SIGINT). Without a
// listener Node would end at once and leave them. A chat folder needs nothing here: a rewrite
// under way leaves the old log and a temp file that the next open of the folder removes, and
// the operation is all or nothing. A signal that comes while the addon's work is synchronous
// is handled when it returns.
const os = require('node:os')

const cleanups = new Set()
let installed = false

function install() {
  if (installed) return
  installed = true
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      for (const cleanup of cleanups) {
        try {
          cleanup()
        } catch {
          // The others still run.
        }
      }
      process.exit(128 + (os.constants.signals[signal] ?? 2))
    })
  }
}

/** Runs `cleanup` if a signal ends the command; returns the function that forgets it. */
function onInterrupt(cleanup) {
  install()
  cleanups.add(cleanup)
  return () => cleanups.delete(cleanup)
}

module.exports = { onInterrupt, install }
