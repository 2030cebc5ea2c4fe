#!/usr/bin/env node
// What the plugin's durable append costs per turn: the chat store's `appendEntry` (ChatStore,
// crates/core/src/store/) with fdatasync against the same append without it, and a plain
// `fs.appendFile`, on the file system of the folder given (default: a temp folder in this
// checkout's, which is where a gateway's state usually lives). A turn appends two lines (the
// message before the dispatch, the reply after); only the first one's sync delays the turn.
//
//   node benchmark/plugin-append.mjs [folder] [rounds=400]
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

import { ChatStore } from '../plugin/native.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const base = process.argv[2] ?? path.join(root, 'target')
const rounds = Number(process.argv[3] ?? 400)
fs.mkdirSync(base, { recursive: true })
const dir = fs.mkdtempSync(path.join(base, 'occn-append-'))
const entry = (i) => ({
  ts: new Date().toISOString(),
  role: 'user',
  text: `message ${i} `.padEnd(600, 'x'),
  session: 'be-1',
  id: `${i}:user`,
})

// Each variant its own chat folder (the store's log is that folder's perpetual-log.jsonl).
const stores = await Promise.all([0, 1].map((i) => ChatStore.open({ folder: path.join(dir, `chat-${i}`) })))
const variants = {
  'appendEntry + fdatasync': (_file, i) => stores[0].appendEntry(entry(i)),
  'appendEntry, no sync': (_file, i) => stores[1].appendEntry(entry(i), { sync: false }),
  'fs.appendFile (no checks)': (file, i) => fs.promises.appendFile(file, `${JSON.stringify(entry(i))}\n`),
}
const times = Object.fromEntries(Object.keys(variants).map((name) => [name, []]))
const files = Object.fromEntries(Object.keys(variants).map((name, i) => [name, path.join(dir, `log-${i}.jsonl`)]))
// Interleaved rounds: a noisy disk or machine weighs on every variant alike.
for (let i = 0; i < rounds; i++) {
  for (const [name, run] of Object.entries(variants)) {
    const start = process.hrtime.bigint()
    await run(files[name], i)
    times[name].push(Number(process.hrtime.bigint() - start) / 1e6)
  }
}
const pct = (list, p) => list.slice().sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(p * list.length))]
console.log(`${rounds} appends of a 600-character entry each, in ${dir} (${fs.statfsSync(dir).type.toString(16)})`)
for (const [name, list] of Object.entries(times)) {
  console.log(
    `${name.padEnd(28)} median ${pct(list, 0.5).toFixed(3)} ms, p90 ${pct(list, 0.9).toFixed(3)} ms, p99 ${pct(list, 0.99).toFixed(3)} ms`,
  )
}
fs.rmSync(dir, { recursive: true, force: true })
