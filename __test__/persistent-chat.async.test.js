'use strict'
// The Promise variants of the exports that read files (SPEC § Off the event
// loop): the same results as the sync exports, the work on the libuv thread
// pool so that the event loop keeps running meanwhile. Their errors are
// compared with the sync ones case by case in binding.bad-input.test.js.
//
// Promises and errors made by the addon belong to the main realm, not jest's
// sandbox: checked by `then`, `name` and `code`, never with `instanceof`.

const fs = require('node:fs')
const path = require('node:path')
const native = require('../index.js')
const { tempDir, writeLog } = require('./fixtures/chat.js')

let tmp
beforeAll(() => {
  tmp = tempDir('occn-async-')
})
afterAll(() => tmp.cleanup())

const NOW = '2026-05-15T10:00:00Z'

/** A log of `count` alternating entries of two backend sessions, with some garbage. */
function writeChat(file, count, { size = 40 } = {}) {
  const entries = []
  for (let i = 0; i < count; i++) {
    if (i % 97 === 13) entries.push('not json')
    entries.push({
      ts: new Date(Date.parse(NOW) - (count - i) * 1000).toISOString(),
      role: i % 2 ? 'assistant' : 'user',
      text: `msg#${i} ${'word '.repeat(size / 5)}`,
      session: i < count / 2 ? 'ses_A' : 'ses_B',
      status: i % 2 ? (i % 10 === 9 ? 'ACP_TURN_FAILED' : 'ok') : undefined,
      id: `e${i}`,
    })
  }
  writeLog(file, entries)
  return file
}

const isThenable = (value) => value !== null && typeof value === 'object' && typeof value.then === 'function'

describe('same results as the sync exports', () => {
  let logPath
  let statePath
  beforeAll(() => {
    logPath = writeChat(path.join(tmp.dir, 'log.jsonl'), 300)
    statePath = path.join(tmp.dir, 'state.json')
    fs.writeFileSync(
      statePath,
      JSON.stringify({ decisions: ['Use Postgres 16'], timers: [{ name: 'backup', status: 'pending', due: NOW }] }),
    )
  })

  test('readPersistentChatLogEntriesAsync', async () => {
    for (const limit of [0, 1, 25, 1000, Infinity]) {
      const promise = native.readPersistentChatLogEntriesAsync(logPath, limit)
      expect(isThenable(promise)).toBe(true)
      expect(await promise).toEqual(native.readPersistentChatLogEntries(logPath, limit))
    }
  })

  test('emptyIfMissing: a missing log is [], as the builders read a logPath; other errors still throw', async () => {
    const missing = path.join(tmp.dir, 'not-written-yet.jsonl')
    const options = { emptyIfMissing: true }
    expect(native.readPersistentChatLogEntries(missing, 25, options)).toEqual([])
    expect(await native.readPersistentChatLogEntriesAsync(missing, 25, { ...options, refuseLinks: true })).toEqual([])
    expect(native.readPersistentChatLogEntries(logPath, 3, options)).toEqual(
      native.readPersistentChatLogEntries(logPath, 3),
    )
    expect(() => native.readPersistentChatLogEntries(tmp.dir, 25, options)).toThrow(
      expect.objectContaining({ code: 'ENOTREGULAR', path: tmp.dir }),
    )
    for (const off of [{}, { emptyIfMissing: false }, { emptyIfMissing: null }]) {
      expect(() => native.readPersistentChatLogEntries(missing, 25, off)).toThrow(
        expect.objectContaining({ code: 'ENOENT' }),
      )
    }
    expect(() => native.readPersistentChatLogEntries(missing, 25, { emptyIfMissing: 'yes' })).toThrow(
      expect.objectContaining({ name: 'TypeError', message: expect.stringContaining('options.emptyIfMissing') }),
    )
  })

  test('rebuildPersistentChatContinuitySummaryAsync', async () => {
    for (const params of [
      { logPath, statePath, currentSession: 'ses_B', now: NOW },
      { logPath, statePath, now: NOW, maxChars: 120 },
      { entries: native.readPersistentChatLogEntries(logPath, 10), state: { notes: ['a', 'b'] }, now: 0 },
      { logPath: path.join(tmp.dir, 'missing.jsonl'), statePath: path.join(tmp.dir, 'missing.json'), now: NOW },
    ]) {
      expect(await native.rebuildPersistentChatContinuitySummaryAsync(params)).toBe(
        native.rebuildPersistentChatContinuitySummary(params),
      )
    }
  })

  test('buildPersistentChatInjectedPromptAsync and ...ReportAsync', async () => {
    const continuitySummary = native.rebuildPersistentChatContinuitySummary({ logPath, statePath, now: NOW })
    for (const params of [
      { userMessage: 'next', reload: true, logPath, continuitySummary, turnMetadata: { channel: 'tg' } },
      { userMessage: 'next', reload: true, logPath, continuitySummary, maxChars: 2000, reloadEntries: 40 },
      { userMessage: 'next', reload: false, logPath, currentSession: 'ses_B' },
      { userMessage: 'next', reload: false, logPath, currentSession: 'ses_C', legacyLayout: true },
      { userMessage: 'hi', reload: true, logEntries: [{ role: 'user', text: 'hi\ud800' }] },
    ].map((params) => (params.legacyLayout ? params : { ...params, nonce: 'f0e1d2c3b4a59687' }))) {
      expect(await native.buildPersistentChatInjectedPromptAsync(params)).toBe(
        native.buildPersistentChatInjectedPrompt(params),
      )
      expect(await native.buildPersistentChatInjectedPromptReportAsync(params)).toEqual(
        native.buildPersistentChatInjectedPromptReport(params),
      )
    }
  })

  test('bad arguments reject; they never throw', async () => {
    const promise = native.buildPersistentChatInjectedPromptAsync({ userMessage: 5, reload: true })
    expect(isThenable(promise)).toBe(true)
    await expect(promise).rejects.toEqual(expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }))
    await expect(native.readPersistentChatLogEntriesAsync(tmp.dir, 5)).rejects.toEqual(
      expect.objectContaining({ code: 'ENOTREGULAR', path: tmp.dir }),
    )
    await expect(native.readPersistentChatLogEntriesAsync(path.join(tmp.dir, 'none'), 5)).rejects.toEqual(
      expect.objectContaining({ code: 'ENOENT', syscall: 'open', path: path.join(tmp.dir, 'none') }),
    )
  })
})

describe('the event loop keeps running while the work is in flight', () => {
  let bigLog
  beforeAll(() => {
    // ~50k entries (~7 MB): a whole-log read takes long enough to see.
    bigLog = writeChat(path.join(tmp.dir, 'big.jsonl'), 50_000, { size: 80 })
  })

  /** Whether a timer set when `start()` is called fires before its promise settles. */
  async function timerFiresFirst(start) {
    const events = []
    const promise = start()
    const timer = setTimeout(() => events.push('timer'), 0)
    const value = await promise
    events.push('settled')
    clearTimeout(timer)
    return { events, value }
  }

  test('a read of the whole log', async () => {
    const { events, value } = await timerFiresFirst(() => native.readPersistentChatLogEntriesAsync(bigLog, Infinity))
    expect(events).toEqual(['timer', 'settled'])
    expect(value).toHaveLength(50_000)
    expect(value[49_999].id).toBe('e49999')
  })

  test('many prompt builds at once', async () => {
    let ticks = 0
    const interval = setInterval(() => ticks++, 1)
    const ticksAtSettle = []
    const calls = Array.from({ length: 16 }, (_, i) =>
      native
        .buildPersistentChatInjectedPromptReportAsync({
          userMessage: `live ${i}`,
          reload: true,
          logPath: bigLog,
          reloadEntries: 5_000,
        })
        .then((report) => {
          ticksAtSettle.push(ticks)
          return report
        }),
    )
    const reports = await Promise.all(calls)
    clearInterval(interval)
    expect(Math.min(...ticksAtSettle)).toBeGreaterThan(0)
    for (const report of reports) expect(report.entriesInjected).toBe(5_000)
    // 16 fenced builds of 5,000 entries each: seconds under Wine on a busy machine, and this
    // spec is about the event loop, not the time.
  }, 60000)

  test('a summary from a large state file', async () => {
    const statePath = path.join(tmp.dir, 'big-state.json')
    const decisions = Array.from({ length: 50_000 }, (_, i) => ({ text: `decision ${i} ${'x'.repeat(40)}` }))
    fs.writeFileSync(statePath, JSON.stringify({ decisions }))
    const { events, value } = await timerFiresFirst(() =>
      native.rebuildPersistentChatContinuitySummaryAsync({
        logPath: bigLog,
        statePath,
        currentSession: 'ses_B',
        now: NOW,
      }),
    )
    expect(events).toEqual(['timer', 'settled'])
    expect(value).toContain('Latest user request: msg#49998')
    expect(value).toContain('- decision 0 ')
  })
})
