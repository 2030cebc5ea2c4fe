'use strict'
// Deterministic, realistic inputs for the persistent-chat benchmarks: perpetual-log entries
// as a gateway appends them (JSON Lines, ~300-2000 bytes a line), a memory state as the
// Python memory script writes it, and the big log files (generated once, reused).

const fs = require('node:fs')
const path = require('node:path')

const { rng } = require('../../dev/shapes.js')
const { words } = require('../../dev/words.js')

const BASE_MS = Date.parse('2026-05-15T10:00:00Z')

/**
 * An endless, deterministic stream of log entries: user asks, tool results, assistant replies
 * (a few failed with ACP_TURN_FAILED), a new backend session every ~400 entries. Serialised,
 * a line is ~300-2000 bytes (text of ~32-230 words, some multi-line).
 */
function entryStream(seed = 7) {
  const next = rng(seed)
  let n = 0
  let session = 1
  return () => {
    n++
    if (next() < 1 / 400) session++
    const kind = n % 4 // user, tool, assistant, assistant
    const role = kind === 0 ? 'user' : kind === 1 ? 'tool' : 'assistant'
    const count = 32 + Math.floor(next() * next() * 200)
    let text = words(next, count)
    if (next() < 0.3) text = text.replace(/ (then|but|and) /g, '\n$1 ')
    const entry = {
      ts: new Date(BASE_MS + n * 17_000).toISOString(),
      role,
      text: role === 'user' ? `msg#${n}: ${text}` : text,
      session: `ses_${(0x7f3a0000 + session).toString(16)}`,
      id: `ent_${n.toString(36).padStart(8, '0')}`,
    }
    if (role === 'assistant') entry.status = next() < 0.03 ? 'ACP_TURN_FAILED' : 'ok'
    return entry
  }
}

/** `count` consecutive entries, oldest first. */
function entries(count, seed = 7) {
  const nextEntry = entryStream(seed)
  return Array.from({ length: count }, nextEntry)
}

/** A memory state of a few weeks' chat: decisions, guardrails, threads, timers (one overdue), notes. */
function memoryState() {
  const next = rng(11)
  const items = (prefix, count, wordsEach) =>
    Array.from({ length: count }, (_, i) => `${prefix} ${i + 1}: ${words(next, wordsEach)}`)
  return {
    decisions: items('Decision', 10, 22).map((text, i) => (i % 2 ? { text } : text)),
    guardrails: items('Guardrail', 5, 16),
    pendingThreads: items('Thread', 6, 18),
    timers: [
      { name: 'renew TLS cert for api.internal:8443', status: 'pending', due: '2026-05-14T09:00:00Z' },
      { name: 'check nightly build', status: 'pending', due: '2026-05-20T06:00:00Z' },
      { name: 'standup reminder', status: 'done', due: '2026-05-10T08:30:00Z' },
    ],
    modelNotes: items('Model note', 3, 14),
    notes: items('Note', 4, 20),
  }
}

/**
 * Makes sure `file` is a complete log of at least `bytes` bytes; generates it once (into a
 * `.partial` file renamed at the end, so an interrupted run never leaves a truncated log that
 * looks complete). `onProgress(writtenBytes)` is called every ~64 MB.
 */
function ensureLog(file, bytes, onProgress = () => {}) {
  const existing = fs.statSync(file, { throwIfNoEntry: false })
  if (existing && existing.size >= bytes) return { generated: false, size: existing.size }
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const partial = `${file}.partial`
  const fd = fs.openSync(partial, 'w')
  const nextEntry = entryStream(7)
  let written = 0
  let lastReport = 0
  let lineNo = 0
  try {
    while (written < bytes) {
      const lines = []
      let chunkBytes = 0
      while (chunkBytes < 8 << 20 && written + chunkBytes < bytes) {
        lineNo++
        // A rare line a crashed writer left behind: skipped and counted by the reader.
        const line = lineNo % 50_000 === 0 ? '{"ts":"2026-05-15T10:00:00Z","role":"assis' : JSON.stringify(nextEntry())
        lines.push(line)
        chunkBytes += Buffer.byteLength(line) + 1
      }
      const buf = Buffer.from(`${lines.join('\n')}\n`)
      fs.writeSync(fd, buf)
      written += buf.length
      if (written - lastReport >= 64 << 20) {
        lastReport = written
        onProgress(written)
      }
    }
  } finally {
    fs.closeSync(fd)
  }
  fs.renameSync(partial, file)
  return { generated: true, size: written }
}

module.exports = { rng, words, entryStream, entries, memoryState, ensureLog, BASE_MS }
