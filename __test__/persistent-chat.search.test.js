'use strict'
// searchPersistentChatLog and readPersistentChatLogWindow as a caller sees them: Promises that
// resolve with hits and entries, and reject (never throw) with a TypeError or RangeError naming a
// bad option, or the file errors of readPersistentChatLogEntries. The ranking, the tokenisation
// per script and the index's repair are tested in Rust (crates/core/tests/search.rs).

const fs = require('node:fs')
const path = require('node:path')
const native = require('../index.js')
const { tempDir, writeLog } = require('./fixtures/chat.js')

let tmp
let logPath
beforeAll(() => {
  tmp = tempDir('occn-search-')
  logPath = path.join(tmp.dir, 'perpetual-log.jsonl')
  const entries = []
  for (let i = 0; i < 400; i++) {
    entries.push({
      ts: new Date(Date.UTC(2026, 2, 1) + i * 60000).toISOString(),
      role: i % 2 ? 'assistant' : 'user',
      text: `routine message ${i} about the build`,
      session: 'ses_A',
      ...(i % 2 ? { status: 'ok' } : {}),
      id: `e${i}`,
    })
  }
  entries[100] = { ...entries[100], text: 'What should we do about the staging database migration?' }
  entries[101] = { ...entries[101], text: 'Decided: Postgres 16 on Friday, after the backup window.' }
  entries[250] = { ...entries[250], text: `我们决定把数据库迁移到新的服务器 ${'长'.repeat(2000)}` }
  writeLog(logPath, entries)
})
afterAll(() => tmp.cleanup())

const rejection = async (promise) => {
  try {
    await promise
  } catch (err) {
    return err
  }
  throw new Error('resolved')
}

test('hits: best first, the entry fields, the line, the score and a bounded excerpt', async () => {
  const hits = await native.searchPersistentChatLog(logPath, 'staging databases migrated')
  expect(hits[0]).toEqual({
    role: 'user',
    text: 'What should we do about the staging database migration?',
    ts: '2026-03-01T01:40:00.000Z',
    session: 'ses_A',
    id: 'e100',
    line: 101,
    score: expect.any(Number),
  })
  // The answer after the question comes next.
  expect(hits[1]).toMatchObject({ id: 'e101', line: 102, status: 'ok' })
  expect(hits[0].score).toBeGreaterThan(hits[1].score)
  const chinese = await native.searchPersistentChatLog(logPath, '迁移', { excerptChars: 50 })
  expect(chinese[0].id).toBe('e250')
  expect(chinese[0].text.length).toBeLessThanOrEqual(50)
  expect(chinese[0].text).toContain('迁移')
  expect(await native.searchPersistentChatLog(logPath, 'routine', { limit: 3 })).toHaveLength(3)
  expect(await native.searchPersistentChatLog(logPath, '')).toEqual([])
  expect(await native.searchPersistentChatLog(logPath, 'the of and')).toEqual([])
})

test('an entry appended after a search is found by the next one', async () => {
  const file = path.join(tmp.dir, 'append.jsonl')
  writeLog(file, [{ role: 'user', text: 'hello there' }])
  expect(await native.searchPersistentChatLog(file, 'wombat')).toEqual([])
  fs.appendFileSync(file, `${JSON.stringify({ role: 'user', text: 'a wombat appeared', id: 'w' })}\n`)
  expect((await native.searchPersistentChatLog(file, 'wombats')).map((h) => h.id)).toEqual(['w'])
})

test('windows around an id or a line', async () => {
  const around = await native.readPersistentChatLogWindow(logPath, { id: 'e101', before: 1, after: 1 })
  expect(around.map((e) => [e.id, e.line])).toEqual([
    ['e100', 101],
    ['e101', 102],
    ['e102', 103],
  ])
  const byLine = await native.readPersistentChatLogWindow(logPath, { line: 1 })
  expect(byLine.map((e) => e.id)).toEqual(['e0', 'e1', 'e2', 'e3', 'e4', 'e5'])
  expect(await native.readPersistentChatLogWindow(logPath, { id: 'nope' })).toEqual([])
})

test('bad arguments reject with a TypeError or RangeError naming them, never throw', async () => {
  const bad = [
    [[logPath, 'x', { limit: 0 }], 'RangeError', 'options.limit'],
    [[logPath, 'x', { limit: 101 }], 'RangeError', 'options.limit'],
    [[logPath, 'x', { limit: 2.5 }], 'RangeError', 'options.limit'],
    [[logPath, 'x', { limit: '5' }], 'TypeError', 'options.limit'],
    [[logPath, 'x', { excerptChars: 0 }], 'RangeError', 'options.excerptChars'],
    [[logPath, 42], 'TypeError', 'query'],
    [[42, 'x'], 'TypeError', 'path'],
    [[logPath, 'x', 'options'], 'TypeError', 'options'],
  ]
  for (const [args, name, field] of bad) {
    let promise
    expect(() => {
      promise = native.searchPersistentChatLog(...args)
    }).not.toThrow()
    const err = await rejection(promise)
    expect({ name: err.name, field: err.message.includes(`"${field}"`) }).toEqual({ name, field: true })
  }
  const windows = [
    [[logPath, { line: 1, before: 51 }], 'RangeError', 'at.before'],
    [[logPath, { line: 0 }], 'RangeError', 'at.line'],
    [[logPath, { id: 'a', line: 3 }], 'TypeError', 'at'],
    [[logPath, {}], 'TypeError', 'at'],
    [[logPath, null], 'TypeError', 'at'],
  ]
  for (const [args, name, field] of windows) {
    const err = await rejection(native.readPersistentChatLogWindow(...args))
    expect({ name: err.name, field: err.message.includes(`"${field}"`) }).toEqual({ name, field: true })
  }
})

test('file errors: ENOENT unless emptyIfMissing, a FIFO refused at once', async () => {
  const missing = path.join(tmp.dir, 'missing.jsonl')
  expect(await rejection(native.searchPersistentChatLog(missing, 'x'))).toMatchObject({ code: 'ENOENT', path: missing })
  expect(await native.searchPersistentChatLog(missing, 'x', { emptyIfMissing: true })).toEqual([])
  expect(await native.readPersistentChatLogWindow(missing, { line: 1 }, { emptyIfMissing: true })).toEqual([])
  if (process.platform === 'win32') return
  const fifo = path.join(tmp.dir, 'fifo.jsonl')
  require('node:child_process').execFileSync('mkfifo', [fifo])
  expect(await rejection(native.searchPersistentChatLog(fifo, 'x'))).toMatchObject({ code: 'ENOTREGULAR' })
})
