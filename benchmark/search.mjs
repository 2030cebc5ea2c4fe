#!/usr/bin/env node
// searchPersistentChatLog on a 100 MB log of realistic chat text, beside SQLite FTS5 (python3's
// sqlite3) on the same log and queries, in one run: the first search (the index built), warm
// p50/p95 over 50 queries (and the same with a time word each, and time words alone), a search
// after an append, the first search of a new process (the index
// read from disk), and the index's size. The log is generated once into the bench cache
// (dev/cache-dir.js bench) and copied to a scratch folder for each run.
//
//   node benchmark/search.mjs [--mb=100] [--queries=50]

import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'

const require = createRequire(import.meta.url)
const root = path.join(import.meta.dirname, '..')
const native = require('../index.js')
const { benchLines } = require('./lib/chat-corpus.js')
const { cacheDir } = require('../dev/cache-dir.js')
const { machineLine, loadAverage } = require('./lib/machine.js')

const { numberArg: arg } = require('./lib/args.js')
const megabytes = arg('mb', 100)
const queryCount = arg('queries', 50)

/** The cached log and its questions: generated once (into a .partial file renamed at the end). */
function ensureLog() {
  const folder = path.join(cacheDir('bench'), 'search')
  const file = path.join(folder, `chat-${megabytes}mb.jsonl`)
  const questionsFile = `${file}.questions.json`
  if (fs.existsSync(file) && fs.existsSync(questionsFile)) {
    return { file, questions: JSON.parse(fs.readFileSync(questionsFile, 'utf8')) }
  }
  fs.mkdirSync(folder, { recursive: true })
  const questions = []
  const nextLine = benchLines(30, (qs, firstLine) => {
    if (questions.length < 2000) for (const q of qs) questions.push({ query: q.query, line: firstLine + q.evidence })
  })
  const partial = `${file}.partial`
  const fd = fs.openSync(partial, 'w')
  let written = 0
  while (written < megabytes << 20) {
    const lines = []
    for (let i = 0; i < 5000; i++) lines.push(nextLine())
    const buf = Buffer.from(`${lines.join('\n')}\n`)
    fs.writeSync(fd, buf)
    written += buf.length
  }
  fs.closeSync(fd)
  fs.renameSync(partial, file)
  fs.writeFileSync(questionsFile, JSON.stringify(questions))
  return { file, questions }
}

/** The last line of a file (read from its end). */
function lastLine(file) {
  const fd = fs.openSync(file, 'r')
  const size = fs.fstatSync(fd).size
  const buffer = Buffer.alloc(Math.min(size, 1 << 16))
  fs.readSync(fd, buffer, 0, buffer.length, size - buffer.length)
  fs.closeSync(fd)
  const text = buffer.toString('utf8').trimEnd()
  return text.slice(text.lastIndexOf('\n') + 1)
}

const percentile = (values, p) => {
  const sorted = values.slice().sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
}
const ms = (t) => `${t.toFixed(1)} ms`
const mb = (b) => `${(b / (1 << 20)).toFixed(1)} MB`

const { file: cached, questions } = ensureLog()
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-search-bench-'))
const log = path.join(scratch, 'perpetual-log.jsonl')
fs.copyFileSync(cached, log)
const logSize = fs.statSync(log).size
// Planted questions spread over the log (the same subjects recur in every chat of the log, so
// this bench times the search; benchmark/search-quality.mjs measures what it finds).
const step = Math.max(1, Math.floor(questions.length / queryCount))
const queries = Array.from({ length: queryCount }, (_, i) => questions[(i * step) % questions.length])

console.log(machineLine())
console.log(`log: ${mb(logSize)}, ${queries.length} queries; load average ${loadAverage()}`)

let started = performance.now()
await native.searchPersistentChatLog(log, queries[0].query)
const firstMs = performance.now() - started
const indexSize = fs.statSync(`${log}.search-index`).size

const warm = []
for (const q of queries) {
  started = performance.now()
  await native.searchPersistentChatLog(log, q.query, { limit: 10 })
  warm.push(performance.now() - started)
}

// The same queries with a time word each, read at the log's last entry's time in a named zone
// (the lift computed for every matching entry), and queries of time words alone (the entries of a
// span, found by a scan of the entries' times).
const lastTs = Date.parse(JSON.parse(lastLine(log)).ts)
const TIME_WORDS = [
  'last week',
  'in March',
  'on 2026-03-14',
  '3 days ago',
  'before May 2',
  'yesterday',
  'after the standup',
]
const timed = []
for (const [i, q] of queries.entries()) {
  started = performance.now()
  await native.searchPersistentChatLog(log, `${q.query} ${TIME_WORDS[i % TIME_WORDS.length]}`, {
    limit: 10,
    now: lastTs,
    timeZone: 'Europe/Berlin',
  })
  timed.push(performance.now() - started)
}
const timeOnly = []
for (const [i] of queries.entries()) {
  started = performance.now()
  await native.searchPersistentChatLog(log, `what happened ${TIME_WORDS[i % TIME_WORDS.length]}?`, {
    limit: 10,
    now: lastTs,
    timeZone: 'Europe/Berlin',
  })
  timeOnly.push(performance.now() - started)
}

fs.appendFileSync(log, `${JSON.stringify({ role: 'user', text: 'the quokka escaped from the zoo', id: 'appended' })}\n`)
started = performance.now()
const afterAppend = await native.searchPersistentChatLog(log, 'quokka')
const appendMs = performance.now() - started
if (afterAppend[0]?.id !== 'appended') throw new Error('the appended entry was not found')

// A new process: the index read from disk and checked, then one search.
const child = spawnSync(
  process.execPath,
  [
    '-e',
    `const n = require(${JSON.stringify(path.join(root, 'index.js'))}); const t = performance.now();
     n.searchPersistentChatLog(${JSON.stringify(log)}, ${JSON.stringify(queries[1].query)}).then(() => console.log(performance.now() - t))`,
  ],
  { encoding: 'utf8' },
)
const newProcessMs = Number(child.stdout.trim())

// FTS5 on the same log and queries, its database on disk in the same folder.
const db = path.join(scratch, 'fts5.db')
const fts = JSON.parse(
  execFileSync('python3', [path.join(import.meta.dirname, 'lib', 'fts5.py')], {
    input: JSON.stringify({
      tokenize: 'unicode61',
      limit: 10,
      logs: [{ path: log, db, queries: queries.map((q) => q.query) }],
    }),
    maxBuffer: 1 << 28,
  }),
)[0]
const ftsTimes = fts.results.map((r) => r.ms)
const ftsSize = fs.statSync(db).size

const rows = [
  ['first search (index build)', ms(firstMs), ms(fts.buildMs), (firstMs / fts.buildMs).toFixed(2)],
  [
    'warm p50',
    ms(percentile(warm, 50)),
    ms(percentile(ftsTimes, 50)),
    (percentile(warm, 50) / percentile(ftsTimes, 50)).toFixed(2),
  ],
  [
    'warm p95',
    ms(percentile(warm, 95)),
    ms(percentile(ftsTimes, 95)),
    (percentile(warm, 95) / percentile(ftsTimes, 95)).toFixed(2),
  ],
  [
    'warm p50 / p95, each query with a time word',
    `${ms(percentile(timed, 50))} / ${ms(percentile(timed, 95))}`,
    '',
    '',
  ],
  ['warm p50 / p95, time words alone', `${ms(percentile(timeOnly, 50))} / ${ms(percentile(timeOnly, 95))}`, '', ''],
  ['search after an append', ms(appendMs), '', ''],
  ['first search of a new process', ms(newProcessMs), '', ''],
  [
    'index size',
    `${mb(indexSize)} (${(indexSize / logSize).toFixed(2)} × log)`,
    `${mb(ftsSize)} (${(ftsSize / logSize).toFixed(2)} × log)`,
    (indexSize / ftsSize).toFixed(2),
  ],
]
console.log('\n| | searchPersistentChatLog | FTS5 | ratio |\n|---|---|---|---|')
for (const row of rows) console.log(`| ${row.join(' | ')} |`)
fs.rmSync(scratch, { recursive: true, force: true })
