#!/usr/bin/env node --expose-gc
// Calls each export N times (default 1,000,000) and reports RSS after a
// warm-up and at the end: a leak across the N-API boundary (strings, error
// objects, report objects) shows as RSS that keeps growing.
//   node --expose-gc scripts/leak-check.js [N]
'use strict'
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const native = require('..')
const shapes = require('../dev/shapes.js')

const N = Number(process.argv[2] || 1e6)
const gc = global.gc || (() => {})
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-leak-'))
const logPath = path.join(dir, 'log.jsonl')
fs.writeFileSync(
  logPath,
  `${Array.from({ length: 200 }, (_, i) =>
    JSON.stringify({
      ts: 1747303200000 + i * 1000,
      role: i % 2 ? 'assistant' : 'user',
      text: `message ${i} ${'x'.repeat(200)}`,
      session: 'ses_1',
      id: `e${i}`,
    }),
  ).join('\n')}\n`,
)
const body = shapes.structuredBody({ linesPerSection: 8 })
const suffix = shapes.preservedSuffix({ turns: 1, toolsPerTurn: 6 })
const entries = native.readPersistentChatLogEntries(logPath, 30)
const summary = native.rebuildPersistentChatContinuitySummary({
  entries,
  state: { decisions: ['Use Postgres'] },
  now: 1747303500000,
})

const CASES = {
  capCompactionSummary: () => native.capCompactionSummary(body, 3000),
  capCompactionSummaryPreservingSuffix: () => native.capCompactionSummaryPreservingSuffix(body, suffix, 6000),
  capCompactionSummaryReport: () => native.capCompactionSummaryReport(body, suffix, 6000),
  readPersistentChatLogEntries: () => native.readPersistentChatLogEntries(logPath, 25),
  rebuildPersistentChatContinuitySummary: () =>
    native.rebuildPersistentChatContinuitySummary({
      entries,
      state: { decisions: ['Use Postgres'] },
      now: 1747303500000,
    }),
  buildPersistentChatInjectedPrompt: () =>
    native.buildPersistentChatInjectedPrompt({
      userMessage: 'hi',
      reload: true,
      continuitySummary: summary,
      logEntries: entries,
    }),
  buildPersistentChatInjectedPromptReport: () =>
    native.buildPersistentChatInjectedPromptReport({ userMessage: 'hi', reload: false, logEntries: entries }),
  'errors (TypeError thrown)': () => {
    try {
      native.capCompactionSummary(1)
    } catch {}
  },
  'errors (ENOENT thrown)': () => {
    try {
      native.readPersistentChatLogEntries(path.join(dir, 'missing'), 1)
    } catch {}
  },
}

const mb = (bytes) => (bytes / 1048576).toFixed(1)
console.log(
  `${N.toLocaleString()} calls each, Node ${process.version}${global.gc ? '' : ' (run with --expose-gc for steadier numbers)'}`,
)
const rows = []
for (const [name, call] of Object.entries(CASES)) {
  const warm = Math.min(N / 10, 50000)
  for (let i = 0; i < warm; i++) call()
  gc()
  const before = process.memoryUsage().rss
  const start = process.hrtime.bigint()
  for (let i = 0; i < N; i++) call()
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  gc()
  const after = process.memoryUsage().rss
  rows.push({
    export: name,
    'RSS before MB': mb(before),
    'RSS after MB': mb(after),
    'growth MB': mb(after - before),
    'µs/call': ((seconds * 1e6) / N).toFixed(2),
  })
}
console.table(rows)
fs.rmSync(dir, { recursive: true, force: true })
