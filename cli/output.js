'use strict'
// The command's stdout as a Unix tool keeps it: when the reader goes away (`… | head -1`), the
// write fails with EPIPE; the command then writes nothing more and ends as it would have, with
// no stack trace and nothing on stderr (as git and rg do). The work under way is left to
// finish (a search still saves its index), only its output is dropped.

/** `{ line, bytes, closed }` writing to `stream`, quiet once its reader has closed the pipe. */
function stdoutWriter(stream = process.stdout, onError = () => {}) {
  let closed = false
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') closed = true
    else onError(e)
  })
  const write = (chunk) => {
    if (!closed) stream.write(chunk)
  }
  return {
    line: (text) => write(`${text}\n`),
    bytes: write,
    closed: () => closed,
  }
}

module.exports = { stdoutWriter }
