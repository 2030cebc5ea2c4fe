'use strict'
// The command's stdout as a Unix tool keeps it: when the reader goes away (`… | head -1`), the
// write fails with EPIPE; the command then writes nothing more and ends as it would have, with
// no stack trace and nothing on stderr (as git and rg do). The work under way is left to
// finish (a search still saves its index), only its output is dropped.

/**
 * `{ line, bytes, closed }` writing to `stream`, quiet once its reader has closed the pipe.
 * `bytes(chunk)` resolves once the stream took the chunk (after a 'drain' when its buffer is
 * full), so a caller that awaits it streams in bounded memory; it resolves at once when the
 * pipe has closed or fails.
 */
function stdoutWriter(stream = process.stdout, onError = () => {}) {
  let closed = false
  const waiting = new Set()
  const release = () => {
    for (const resolve of waiting) resolve()
    waiting.clear()
  }
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') closed = true
    else onError(e)
    release()
  })
  stream.on('close', release)
  stream.on('drain', release)
  const write = (chunk) => {
    if (closed) return Promise.resolve()
    if (stream.write(chunk)) return Promise.resolve()
    return new Promise((resolve) => waiting.add(resolve))
  }
  return {
    line: (text) => {
      write(`${text}\n`)
    },
    bytes: write,
    /** Whether the reader has gone; `closed(true)` records that it has (seen by another writer). */
    closed: (now = false) => {
      if (now) closed = true
      return closed
    },
  }
}

module.exports = { stdoutWriter }
