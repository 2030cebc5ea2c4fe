#!/usr/bin/env node
// The search's recall on a needle-in-the-log and paraphrase set (benchmark/lib/chat-corpus.js):
// ten long multi-session chats over some six months, each planted fact asked about twice in other
// words, once with a time expression ("last week", "in May", "March 14", "3 days ago", "before
// May 20", "before the office move"...) true of the fact's day at the time it is asked; the
// evidence is often the turn after the one its words match. Each question is searched at its own `now`, in the chat's time zone.
// Prints top-10 and top-25 recall of searchPersistentChatLog and of SQLite FTS5 (python3's sqlite3;
// default unicode61 tokenizer, and with the porter stemmer; no notion of time) on the same logs,
// for all questions, the temporal ones and the others.
//
//   node benchmark/search-quality.mjs [--chats=10] [--turns=600] [--facts=40] [--seed=1]

import { execFileSync } from 'node:child_process'
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

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-search-quality-'))
const logs = []
for (let c = 0; c < chats; c++) {
  const { entries, questions, zone } = makeChat(seed * 1000 + c, { turns, facts })
  const file = path.join(dir, `chat-${c}.jsonl`)
  fs.writeFileSync(file, entries.map((e) => `${JSON.stringify(e)}\n`).join(''))
  logs.push({ file, questions, zone })
}

function score(rankings) {
  // rankings: per log, per question, the 1-based lines returned.
  const count = () => ({ n: 0, top10: 0, top25: 0 })
  const totals = { all: count(), temporal: count(), plain: count(), event: count(), reply: count(), stated: count() }
  logs.forEach((log, l) => {
    log.questions.forEach((q, i) => {
      const lines = rankings[l][i]
      const at = lines.indexOf(q.evidence + 1)
      for (const group of ['all', q.temporal ? 'temporal' : 'plain', q.kind, ...(q.event ? ['event'] : [])]) {
        totals[group].n++
        if (at >= 0 && at < 10) totals[group].top10++
        if (at >= 0 && at < 25) totals[group].top25++
      }
    })
  })
  const pct = (group, top) => `${((100 * totals[group][top]) / totals[group].n).toFixed(1)} %`
  return {
    top10: pct('all', 'top10'),
    top25: pct('all', 'top25'),
    'temporal top10': pct('temporal', 'top10'),
    'temporal top25': pct('temporal', 'top25'),
    'other top10': pct('plain', 'top10'),
    'other top25': pct('plain', 'top25'),
    'event top10': pct('event', 'top10'),
    'top10, answer the next turn': pct('reply', 'top10'),
    'top10, answer the turn': pct('stated', 'top10'),
  }
}

const ours = []
for (const log of logs) {
  const perQuestion = []
  for (const q of log.questions) {
    const hits = await native.searchPersistentChatLog(log.file, q.query, { limit: 25, now: q.now, timeZone: log.zone })
    perQuestion.push(hits.map((h) => h.line))
  }
  ours.push(perQuestion)
}

function fts5(tokenize) {
  const request = {
    tokenize,
    limit: 25,
    logs: logs.map((l) => ({ path: l.file, queries: l.questions.map((q) => q.query) })),
  }
  const out = execFileSync('python3', [path.join(import.meta.dirname, 'lib', 'fts5.py')], {
    input: JSON.stringify(request),
    maxBuffer: 1 << 28,
  })
  return JSON.parse(out).map((log) => log.results.map((r) => r.lines))
}

const rows = {
  searchPersistentChatLog: score(ours),
  'FTS5 (unicode61)': score(fts5('unicode61')),
  'FTS5 (porter unicode61)': score(fts5('porter unicode61')),
}
const questions = logs.reduce((n, l) => n + l.questions.length, 0)
const temporal = logs.reduce((n, l) => n + l.questions.filter((q) => q.temporal).length, 0)
console.log(`${chats} chats × ${turns} turns, ${questions} questions, ${temporal} of them temporal (seed ${seed})`)
console.table(rows)
fs.rmSync(dir, { recursive: true, force: true })
