'use strict'
// Time words in the search as a caller sees them: `now` (epoch ms or ISO-8601) and `timeZone` (an
// IANA name, 'UTC', an offset string, or minutes east of UTC) on searchPersistentChatLog,
// ChatStore#search and ChatStore#prepareTurn's recall; bad values reject with a TypeError or
// RangeError naming them. Every call passes `now`: nothing here depends on the clock or on the
// machine's time zone. The rules (which words, how they lift, days in a zone, ties) are tested in
// Rust (crates/core/tests/search_time.rs).

const fs = require('node:fs')
const path = require('node:path')
const native = require('../index.js')
const { tempDir, writeLog } = require('./fixtures/chat.js')

// Thursday 2026-05-14, 09:00 UTC.
const NOW = Date.UTC(2026, 4, 14, 9)
const HOUR = 3600000
const DAY = 24 * HOUR
const N = 'f0e1d2c3b4a59687'

let tmp
let logPath
let entries
beforeAll(() => {
  tmp = tempDir('occn-search-time-')
  logPath = path.join(tmp.dir, 'perpetual-log.jsonl')
  entries = []
  for (let i = 0; i < 300; i++) {
    entries.push({
      ts: new Date(NOW - (300 - i) * HOUR).toISOString(),
      role: i % 2 ? 'assistant' : 'user',
      text: `routine message ${i} about the build`,
      session: 'ses_A',
      id: `e${i}`,
    })
  }
  // The same decision text three times: 2026-05-03T02:00Z (May 2 in Los Angeles), May 11 20:00Z
  // (May 11 13:00 in Los Angeles), May 12 10:00Z (May 12 03:00 in Los Angeles).
  const decision = 'Decision on the staging database: see the runbook.'
  entries[40] = { ...entries[40], text: decision, ts: new Date(NOW - 271 * HOUR).toISOString() }
  entries[200] = { ...entries[200], text: decision, ts: new Date(NOW - 61 * HOUR).toISOString() }
  entries[250] = { ...entries[250], text: decision, ts: new Date(NOW - 47 * HOUR).toISOString() }
  writeLog(logPath, entries)
})
afterAll(() => tmp.cleanup())

const lines = (hits) => hits.map((hit) => hit.line)
const QUERY = 'what did we decide yesterday about the staging database?'

test('searchPersistentChatLog reads time words at options.now in options.timeZone', async () => {
  // At May 13 02:00 UTC, yesterday is May 12 in UTC and May 11 in Los Angeles (19:00 on May 12).
  const turn = NOW - 31 * HOUR
  const utc = await native.searchPersistentChatLog(logPath, QUERY, { now: turn, timeZone: 'UTC' })
  expect(lines(utc)[0]).toBe(251)
  const la = await native.searchPersistentChatLog(logPath, QUERY, { now: turn, timeZone: 'America/Los_Angeles' })
  expect(lines(la)[0]).toBe(201)
  // The same as an ISO string, and as a fixed offset (PDT: -420 minutes, or '-07:00').
  const iso = new Date(turn).toISOString()
  for (const timeZone of [-420, '-07:00', 'america/los_angeles']) {
    const hits = await native.searchPersistentChatLog(logPath, QUERY, { now: iso, timeZone })
    expect(lines(hits)[0]).toBe(201)
  }
  // A date: the entry of that day first; without the date, the newest of the three.
  const dated = await native.searchPersistentChatLog(logPath, 'staging database 2026-05-03', { now: NOW })
  expect(lines(dated)[0]).toBe(41)
  const plain = await native.searchPersistentChatLog(logPath, 'staging database', { now: NOW })
  expect(lines(plain)[0]).toBe(251)
  // Time words alone: the entries of that time, newest first.
  const alone = await native.searchPersistentChatLog(logPath, 'what happened yesterday?', { now: NOW, limit: 100 })
  expect(alone.length).toBe(24)
  for (const hit of alone) expect(Date.parse(hit.ts) - Date.UTC(2026, 4, 13)).toBeLessThan(DAY)
  expect(lines(alone)).toEqual([...lines(alone)].sort((a, b) => b - a))
})

test('ChatStore#search and prepareTurn take now and timeZone', async () => {
  const store = await native.ChatStore.open({ stateDir: tmp.dir, sessionKey: 'agent:codex:acp:time' })
  fs.writeFileSync(store.logPath, entries.map((e) => `${JSON.stringify(e)}\n`).join(''), { mode: 0o600 })
  const turn = NOW - 31 * HOUR
  expect(lines(await store.search(QUERY, { now: turn }))[0]).toBe(251)
  expect(lines(await store.search(QUERY, { now: turn, timeZone: 'America/Los_Angeles' }))[0]).toBe(201)
  const recalled = async (extra) => {
    const { report } = await store.prepareTurn({
      userMessage: QUERY,
      currentSession: 'ses_B',
      nonce: N,
      recallEntries: 1,
      ...extra,
    })
    return report.recalledLines
  }
  expect(await recalled({ now: turn })).toEqual([251])
  expect(await recalled({ now: new Date(turn).toISOString(), timeZone: 'America/Los_Angeles' })).toEqual([201])
  // A turn on May 4: yesterday is May 3.
  expect(await recalled({ now: NOW - 10 * DAY, timeZone: 'UTC' })).toEqual([41])
})

test('bad now and timeZone reject with a TypeError or RangeError naming them', async () => {
  const store = await native.ChatStore.open({ stateDir: tmp.dir, sessionKey: 'agent:codex:acp:time-bad' })
  const bad = [
    [{ now: 'soon' }, 'RangeError', 'options.now'],
    [{ now: Number.NaN }, 'RangeError', 'options.now'],
    [{ now: 1e300 }, 'RangeError', 'options.now'],
    [{ now: true }, 'TypeError', 'options.now'],
    [{ timeZone: 'Mars/Olympus' }, 'RangeError', 'options.timeZone'],
    [{ timeZone: '+2' }, 'RangeError', 'options.timeZone'],
    [{ timeZone: 90.5 }, 'RangeError', 'options.timeZone'],
    [{ timeZone: 1560 }, 'RangeError', 'options.timeZone'],
    [{ timeZone: {} }, 'TypeError', 'options.timeZone'],
  ]
  for (const [options, name, field] of bad) {
    for (const call of [
      () => native.searchPersistentChatLog(logPath, 'x', options),
      () => store.search('x', options),
    ]) {
      await expect(call()).rejects.toMatchObject({ name, message: expect.stringContaining(`"${field}"`) })
    }
  }
  const turn = { userMessage: 'x', nonce: N }
  await expect(store.prepareTurn({ ...turn, timeZone: 'Nowhere/City' })).rejects.toMatchObject({
    name: 'RangeError',
    message: expect.stringContaining('"params.timeZone"'),
  })
  await expect(store.prepareTurn({ ...turn, now: 'yesterday' })).rejects.toMatchObject({
    name: 'RangeError',
    message: expect.stringContaining('"params.now"'),
  })
})
