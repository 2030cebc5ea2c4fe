'use strict'
// The progress line of a long command (export, backup, verify, restore, import, forget): on a
// terminal only, after a second, `LABEL… Ns` rewritten in place on stderr every second, and
// erased when the work settles. A pipe or a file gets nothing (a script reads the result).

/**
 * `work` (a Promise), with a progress line on `stream` while it runs when `stream` is a TTY.
 * Resolves or rejects as `work` does.
 */
async function withProgress(label, work, { stream = process.stderr, delayMs = 1000, everyMs = 1000 } = {}) {
  if (!stream?.isTTY) return work
  const started = Date.now()
  let shown = false
  const draw = () => {
    shown = true
    stream.write(`\r\x1b[2K${label}… ${Math.round((Date.now() - started) / 1000)} s`)
  }
  let timer
  const first = setTimeout(() => {
    draw()
    timer = setInterval(draw, everyMs)
  }, delayMs)
  try {
    return await work
  } finally {
    clearTimeout(first)
    clearInterval(timer)
    if (shown) stream.write('\r\x1b[2K')
  }
}

module.exports = { withProgress }
