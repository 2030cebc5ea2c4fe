#!/usr/bin/env node
// What recall on a reload adds (issue 30, 5b), on the needle-in-the-log and paraphrase set of
// benchmark/search-quality.mjs (benchmark/lib/chat-corpus.js): for each question, the reload
// prompt prepared for it as the live message (ChatStore#prepareTurn on a chat folder holding the
// log, with the default window and excerpt of 25 entries: what the plugin sends; the turn at the
// question's `now`, in the chat's time zone) and whether it holds the evidence entry, in the
// excerpt or in the recall block, without recall (recallEntries: 0), with the default (8) and with
// other counts; for all questions and for the temporal ones ("last week", "in May"...).
//
//   node benchmark/recall-quality.mjs [--chats=10] [--turns=600] [--facts=40] [--seed=1]

import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'

const require = createRequire(import.meta.url)
const native = require('../index.js')
const { makeChat } = require('./lib/chat-corpus.js')

const { numberArg: arg } = require('./lib/args.js')
const chats = arg('chats', 10)
const turns = arg('turns', 600)
const facts = arg('facts', 40)
const seed = arg('seed', 1)
const SETTINGS = [0, 3, 5, 6, 8, 10, 25]

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-recall-quality-'))
const counts = new Map(
  SETTINGS.map((recallEntries) => [recallEntries, { excerpt: 0, recalled: 0, temporal: 0, chars: 0, ms: 0 }]),
)
let questions = 0
let temporal = 0
try {
  for (let c = 0; c < chats; c++) {
    const { entries, questions: asked, zone } = makeChat(seed * 1000 + c, { turns, facts })
    const store = await native.ChatStore.open({ stateDir: dir, sessionKey: `bench:recall:${c}` })
    fs.writeFileSync(store.logPath, entries.map((e) => `${JSON.stringify(e)}\n`).join(''), { mode: 0o600 })
    for (const q of asked) {
      questions++
      if (q.temporal) temporal++
      const evidence = entries[q.evidence]
      for (const recallEntries of SETTINGS) {
        // No backend session: a reload.
        const started = performance.now()
        const { report } = await store.prepareTurn({ userMessage: q.query, recallEntries, now: q.now, timeZone: zone })
        const count = counts.get(recallEntries)
        count.ms += performance.now() - started
        count.chars += report.chars
        const shown = report.injectedEntryIds.includes(evidence.id)
        if (shown) count.excerpt++
        else if (report.recalledLines.includes(q.evidence + 1)) count.recalled++
        if (q.temporal && (shown || report.recalledLines.includes(q.evidence + 1))) count.temporal++
      }
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true })
}

const pct = (n) => `${((100 * n) / questions).toFixed(1)} %`
const rows = {}
for (const [recallEntries, count] of counts) {
  rows[`recallEntries: ${recallEntries}${recallEntries === 8 ? ' (default)' : ''}`] = {
    'evidence in the prompt': pct(count.excerpt + count.recalled),
    'temporal questions': `${((100 * count.temporal) / temporal).toFixed(1)} %`,
    'in the excerpt': pct(count.excerpt),
    'in the recall block': pct(count.recalled),
    'mean prompt chars': Math.round(count.chars / questions),
    // The whole turn: window, summary, search (the index built on a chat's first), prompt, files.
    'mean prepareTurn ms': (count.ms / questions).toFixed(2),
  }
}
console.log(
  `${chats} chats × ${turns} turns, ${questions} questions, ${temporal} of them temporal (seed ${seed}); reload prompts, 25-entry excerpt`,
)
console.table(rows)
