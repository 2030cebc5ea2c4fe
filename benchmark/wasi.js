#!/usr/bin/env node
// What the WASI fallback costs: the same calls through the native linux-x64-gnu
// .node and through the WASI build (target/platforms/, from `npm run build:all`),
// both loaded in this one process and timed in alternating rounds, so the
// machine's noise falls on both alike. Prints each case's medians and the ratio
// WASI / native. `node benchmark/wasi.js [--quick]`.
'use strict'
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const root = path.resolve(__dirname, '..')
const quick = process.argv.includes('--quick')
const nativeFile = path.join(root, 'openclaw-context-native.linux-x64-gnu.node')
const wasiFile = path.join(root, 'target', 'platforms', 'openclaw-context-native.wasip1.cjs')
for (const file of [nativeFile, wasiFile]) {
  if (!fs.existsSync(file)) {
    console.error(`bench:wasi: ${path.relative(root, file)} is missing (npm run build, npm run build:all)`)
    process.exit(1)
  }
}
// Silence the one-time "WASI is experimental" warning; it is not a result.
process.removeAllListeners('warning')
const native = require(nativeFile)
const wasi = require(wasiFile)

const seed = JSON.parse(fs.readFileSync(path.join(root, 'samples', 'seed-compaction.json'), 'utf8'))
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-bench-wasi-'))
const logPath = path.join(dir, 'perpetual-log.jsonl')
{
  const lines = []
  for (let i = 0; lines.join('\n').length < (quick ? 1 : 10) * 1024 * 1024 && i < 1e6; i++)
    lines.push(JSON.stringify({ ts: `2026-05-15T09:00:${String(i % 60).padStart(2, '0')}Z`, role: i % 2 ? 'assistant' : 'user', text: `message ${i} ${'lorem ipsum dolor '.repeat(20)}`, id: `m${i}` }))
  fs.writeFileSync(logPath, `${lines.join('\n')}\n`)
}
const entries = native.readPersistentChatLogEntries(logPath, 25)
const summary = native.rebuildPersistentChatContinuitySummary({ entries, now: '2026-05-15T10:00:00Z' })
const big = seed.summaryBody.repeat(4) + seed.suffix.repeat(4)

const cases = [
  ['fixed cap, seed sample', (m) => m.capCompactionSummaryPreservingSuffix(seed.summaryBody, seed.suffix, 16000)],
  ['fixed cap, 4x the seed', (m) => m.capCompactionSummaryPreservingSuffix(big, seed.suffix.repeat(4), 16000)],
  ['plain cap, 64 K units', (m) => m.capCompactionSummary(big.repeat(2), 16000)],
  ['reload prompt, 25 entries', (m) => m.buildPersistentChatInjectedPrompt({ userMessage: 'Are you there?', reload: true, continuitySummary: summary, logEntries: entries })],
  [`read the last 25 entries of a ${quick ? 1 : 10} MB log`, (m) => m.readPersistentChatLogEntries(logPath, 25)],
]

function time(fn, rounds) {
  const start = process.hrtime.bigint()
  for (let i = 0; i < rounds; i++) fn()
  return Number(process.hrtime.bigint() - start) / rounds / 1000
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]
const us = (value) => (value < 100 ? value.toFixed(1) : value.toFixed(0))

console.log(`WASI fallback vs native (linux-x64-gnu), Node ${process.version}, one process, alternating rounds`)
console.log('| case | native µs | WASI µs | WASI / native |')
console.log('|---|---|---|---|')
for (const [name, run] of cases) {
  // Same output first: a ratio of two different answers means nothing.
  if (JSON.stringify(run(native)) !== JSON.stringify(run(wasi))) throw new Error(`${name}: WASI and native disagree`)
  const perRound = Math.max(1, Math.round(2000 / Math.max(1, time(() => run(native), 5))))
  const samples = { native: [], wasi: [] }
  for (let round = 0; round < (quick ? 7 : 21); round++) {
    samples.native.push(time(() => run(native), perRound))
    samples.wasi.push(time(() => run(wasi), perRound))
  }
  const [n, w] = [median(samples.native), median(samples.wasi)]
  console.log(`| ${name} | ${us(n)} | ${us(w)} | ${(w / n).toFixed(1)}x |`)
}
fs.rmSync(dir, { recursive: true, force: true })
