'use strict'
// The progress line of a long command (search's first index build, export, backup, verify,
// restore, import, forget): on a terminal only, after a second, `LABEL… 12.3 MB of 400.0 MB
// (3 %), Ns` rewritten in place on stderr every second (the bytes from the addon's own count,
// ChatStore.workProgress), and erased when the work settles. A pipe or a file gets nothing (a
// script reads the result).

/** A setting in milliseconds from the environment, else `fallback`. */
function msFrom(name, fallback) {
  const given = Number.parseInt(process.env[name] ?? '', 10)
  return Number.isFinite(given) && given >= 0 ? given : fallback
}

/**
 * When the line is first drawn: after a second (a quick command draws nothing); then every
 * second. `OCCN_PROGRESS_FIRST_MS` and `OCCN_PROGRESS_EVERY_MS` change them (the specs draw at
 * once and often, so that a test need not race the work).
 */
const FIRST_DRAW_MS = msFrom('OCCN_PROGRESS_FIRST_MS', 1000)
const DRAW_EVERY_MS = msFrom('OCCN_PROGRESS_EVERY_MS', 1000) || 1000

/** `12.3 MB`: bytes for a person. */
function megabytes(bytes) {
  return `${(bytes / 1e6).toFixed(1)} MB`
}

/** The addon's count of bytes read, or undefined when it is not loaded. */
function addonProgress() {
  const addon = require.resolve('../index.js')
  return require.cache[addon] ? require(addon).ChatStore.workProgress() : undefined
}

/** `done of total (N %)` since `start` (a workProgress reading), or '' when there is nothing to say. */
function bytesSince(start, now) {
  if (!start || !now) return ''
  const done = now.done - start.done
  const total = now.total - start.total
  if (total <= 0) return ''
  return `${megabytes(done)} of ${megabytes(total)} (${Math.floor((done / total) * 100)} %), `
}

/**
 * `work` (a Promise), with a progress line on `stream` while it runs when `stream` is a TTY.
 * Resolves or rejects as `work` does.
 */
async function withProgress(
  label,
  work,
  { stream = process.stderr, delayMs = FIRST_DRAW_MS, everyMs = DRAW_EVERY_MS, progress = addonProgress } = {},
) {
  if (!stream?.isTTY) return work
  const started = Date.now()
  const start = progress()
  let shown = false
  const draw = () => {
    shown = true
    const seconds = Math.round((Date.now() - started) / 1000)
    stream.write(`\r\x1b[2K${label}… ${bytesSince(start, progress())}${seconds} s`)
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

module.exports = { withProgress, bytesSince }
