'use strict'
// Recall on a reload (issue 30, 5b) as a caller sees it. `ChatStore#prepareTurn` searches the
// chat's log for the live message on a fenced reload (`recallEntries`, default 8; 0 off; an
// integer 0..25, else a RangeError; a non-number a TypeError) and masks what it recalls as it
// masks the window. The builders search nothing: they lay out the `recalledEntries` they are
// given. The report's `entriesRecalled` and `recalledLines`. The choice of entries, the budget's
// drop order and the fence are tested in Rust (crates/core/tests/prompt_recall.rs).

const fs = require('node:fs')
const path = require('node:path')
const native = require('../index.js')
const { tempDir, writeLog, expectTypeError, thrown } = require('./fixtures/chat.js')

const N = 'f0e1d2c3b4a59687'
const HEADING = `## Recalled Older Log Entries (found in the log for the live message; numbered by log line) ${N}`
const LIVE = 'What did we decide about the staging database?'
const KEY = 'agent:codex:acp:recall'

let tmp
let entries
beforeAll(() => {
  tmp = tempDir('occn-recall-')
  entries = []
  for (let i = 0; i < 400; i++) {
    entries.push({
      ts: new Date(Date.UTC(2026, 2, 1) + i * 60000).toISOString(),
      role: i % 2 ? 'assistant' : 'user',
      text: `routine message ${i} about the build`,
      session: 'ses_A',
      id: `e${i}`,
    })
  }
  entries[40] = { ...entries[40], text: 'Which engine for the staging database?' }
  entries[41] = { ...entries[41], text: 'Decided: the staging database moves to Postgres 16, ticket SECRET-123' }
})
afterAll(() => tmp.cleanup())

let chats = 0
/** A chat folder whose log holds `entries`. */
async function chat(options = {}) {
  const store = await native.ChatStore.open({ stateDir: tmp.dir, sessionKey: `${KEY}:${chats++}`, ...options })
  // Private, as the store writes it (a group-writable log is refused).
  fs.writeFileSync(store.logPath, entries.map((e) => `${JSON.stringify(e)}\n`).join(''), { mode: 0o600 })
  return store
}

// A turn to a backend session the log has never seen: a reload.
const turn = (extra = {}) => ({ userMessage: LIVE, currentSession: 'ses_B', nonce: N, ...extra })

test('by default a reload recalls the older entries found in the log for the live message', async () => {
  const store = await chat()
  const { reload, report } = await store.prepareTurn(turn())
  expect(reload).toBe(true)
  expect(report.entriesRecalled).toBeGreaterThan(0)
  expect(report.entriesRecalled).toBeLessThanOrEqual(8)
  expect(report.recalledLines).toHaveLength(report.entriesRecalled)
  expect(report.recalledLines).toContain(42)
  expect([...report.recalledLines].sort((a, b) => a - b)).toEqual(report.recalledLines)
  expect(report.prompt).toContain(`\n${HEADING}\n`)
  expect(report.prompt).toContain(
    `\n42. [2026-03-01T00:41:00.000Z] assistant ${N}\nDecided: the staging database moves`,
  )
  // Before the excerpt, which is as without recall.
  expect(report.prompt.indexOf(HEADING)).toBeLessThan(report.prompt.indexOf(`## Recent Perpetual Log Excerpt ${N}`))
  expect(report.entriesInjected).toBe(25)
  // The index is the chat folder's own file; the debug copy holds the block.
  expect(fs.existsSync(path.join(store.folder, 'perpetual-log.jsonl.search-index'))).toBe(true)
  expect(fs.readFileSync(store.lastPromptPath, 'utf8')).toBe(report.prompt)
})

test('recallEntries: 0 searches nothing and gives the prompt without recall; continuous turns and the legacy layout have none', async () => {
  const store = await chat()
  const off = (await store.prepareTurn(turn({ recallEntries: 0 }))).report
  expect(off.entriesRecalled).toBe(0)
  expect(off.recalledLines).toEqual([])
  expect(off.prompt).not.toContain('Recalled')
  expect(fs.existsSync(path.join(store.folder, 'perpetual-log.jsonl.search-index'))).toBe(false)
  const one = (await store.prepareTurn(turn({ recallEntries: 1 }))).report
  expect(one.entriesRecalled).toBe(1)
  for (const extra of [{}, { recallEntries: 25 }]) {
    const continuous = await store.prepareTurn(turn({ currentSession: 'ses_A', ...extra }))
    expect(continuous.reload).toBe(false)
    expect(continuous.report.entriesRecalled).toBe(0)
  }
  const legacy = (await store.prepareTurn(turn({ nonce: undefined, legacyLayout: true }))).report
  expect(legacy.entriesRecalled).toBe(0)
  expect(legacy.prompt).not.toContain('Recalled')
})

test("prepareTurn masks what it recalls with the store's patterns", async () => {
  const store = await chat({ maskPatterns: ['SECRET-\\d+'] })
  const { report } = await store.prepareTurn(turn())
  expect(report.recalledLines).toContain(42)
  expect(report.prompt).toContain('ticket [redacted:custom]')
  expect(report.prompt).not.toContain('SECRET-123')
})

test('a search that fails leaves the recall block out, never the turn', async () => {
  const store = await chat()
  fs.mkdirSync(path.join(store.folder, 'perpetual-log.jsonl.search-index'))
  const report = (await store.prepareTurn(turn())).report
  expect(report.entriesRecalled).toBe(0)
  expect(report.prompt).toBe((await store.prepareTurn(turn({ recallEntries: 0 }))).report.prompt)
})

test('the builders lay out the recalledEntries they are given, and search no log', async () => {
  const store = await chat()
  const hits = await store.search(LIVE, { limit: 30, excerptChars: 1 << 20 })
  const params = { userMessage: LIVE, reload: true, nonce: N, logEntries: entries.slice(-50) }
  const report = native.buildPersistentChatInjectedPromptReport({ ...params, recalledEntries: hits })
  expect(report.recalledLines).toContain(42)
  expect(report.prompt).toContain(`\n${HEADING}\n`)
  expect(report.injectedEntryIds).toEqual(entries.slice(-25).map((e) => e.id))
  // The store's turn recalls the same (its window is the same 50 entries).
  const prepared = (await store.prepareTurn(turn())).report
  expect(prepared.recalledLines).toEqual(report.recalledLines)
  // The Promise variants build the same prompt.
  expect((await native.buildPersistentChatInjectedPromptReportAsync({ ...params, recalledEntries: hits })).prompt).toBe(
    report.prompt,
  )
  expect(await native.buildPersistentChatInjectedPromptAsync({ ...params, recalledEntries: hits })).toBe(report.prompt)
  // None given, or recallEntries 0: the prompt without recall.
  const without = native.buildPersistentChatInjectedPrompt(params)
  expect(native.buildPersistentChatInjectedPrompt({ ...params, recalledEntries: hits, recallEntries: 0 })).toBe(without)
  expect(native.buildPersistentChatInjectedPrompt({ ...params, recalledEntries: [] })).toBe(without)
  // A continuous turn ignores them.
  const continuous = { ...params, reload: false }
  expect(native.buildPersistentChatInjectedPrompt({ ...continuous, recalledEntries: hits })).toBe(
    native.buildPersistentChatInjectedPrompt(continuous),
  )
  // A logPath is read for the excerpt only: never searched, no index made beside it.
  const logPath = path.join(tmp.dir, 'builder-log.jsonl')
  writeLog(logPath, entries)
  const fromPath = native.buildPersistentChatInjectedPromptReport({
    userMessage: LIVE,
    reload: true,
    nonce: N,
    logPath,
  })
  expect(fromPath.entriesRecalled).toBe(0)
  expect(fs.existsSync(`${logPath}.search-index`)).toBe(false)
})

test('recalledEntries: each an entry with a line; prepareTurn takes none', async () => {
  const params = { userMessage: LIVE, reload: true, nonce: N }
  const entry = { role: 'assistant', text: 'staging database: Postgres' }
  for (const line of [0, -1, 1.5, 2 ** 53, Number.NaN]) {
    const error = thrown(() =>
      native.buildPersistentChatInjectedPrompt({ ...params, recalledEntries: [{ ...entry, line }] }),
    )
    expect(error.name).toBe('RangeError')
    expect(error.message).toContain('"params.recalledEntries[0].line"')
  }
  for (const line of ['3', undefined, null]) {
    expectTypeError(
      () => native.buildPersistentChatInjectedPrompt({ ...params, recalledEntries: [{ ...entry, line }] }),
      'params.recalledEntries[0].line',
    )
  }
  expectTypeError(
    () => native.buildPersistentChatInjectedPrompt({ ...params, recalledEntries: [{ role: 'x', text: 't', line: 3 }] }),
    'params.recalledEntries[0].role',
  )
  expectTypeError(
    () => native.buildPersistentChatInjectedPrompt({ ...params, recalledEntries: 5 }),
    'params.recalledEntries',
  )
  const store = await chat()
  await expect(store.prepareTurn(turn({ recalledEntries: [] }))).rejects.toThrow('params.recalledEntries')
})

const callers = [
  [
    'the builder',
    (recallEntries) => native.buildPersistentChatInjectedPrompt({ userMessage: LIVE, reload: true, recallEntries }),
  ],
  ['prepareTurn', async (recallEntries) => (await chat()).prepareTurn(turn({ recallEntries }))],
]

describe.each(callers)('recallEntries in %s', (_, call) => {
  test.each([[-1], [26], [1.5], [Number.NaN], [Number.POSITIVE_INFINITY]])(
    '%p is a RangeError naming it',
    async (recallEntries) => {
      const error = await (async () => {
        try {
          await call(recallEntries)
        } catch (err) {
          return err
        }
        throw new Error('no error')
      })()
      expect(error).toEqual(expect.objectContaining({ name: 'RangeError', code: 'ERR_OUT_OF_RANGE' }))
      expect(error.message).toContain('"params.recallEntries"')
      expect(error.message).toContain('<= 25')
    },
  )

  test.each([['3'], [true], [null], [{}]])('%p is a TypeError naming it', async (recallEntries) => {
    await expect((async () => call(recallEntries))()).rejects.toThrow(
      expect.objectContaining({ name: 'TypeError', message: expect.stringContaining('params.recallEntries') }),
    )
  })
})

test('logSearchTool: a reload says in one line, without the nonce, that the log can be searched; a bad value a TypeError', async () => {
  const store = await chat()
  const hint =
    "Older entries of this chat's log, beyond those shown here, can be searched with the chat_log_search tool"
  const on = (await store.prepareTurn(turn({ logSearchTool: true }))).report.prompt
  const off = (await store.prepareTurn(turn())).report.prompt
  const line = on.split('\n').find((l) => l.startsWith(hint))
  expect(line).toBeDefined()
  expect(line).not.toContain(N)
  expect(on.split('\n').filter((l) => l !== line)).toEqual(off.split('\n'))
  const continuous = (await store.prepareTurn(turn({ currentSession: 'ses_A', logSearchTool: true }))).report.prompt
  expect(continuous).not.toContain(hint)
  await expect(store.prepareTurn(turn({ logSearchTool: 'yes' }))).rejects.toMatchObject({
    name: 'TypeError',
    code: 'ERR_INVALID_ARG_TYPE',
    message: expect.stringContaining('"params.logSearchTool"'),
  })
})

test("a chat's first reload with a large log and no index recalls nothing rather than wait for the build; warmIndex() catches the index up and the next reload recalls", async () => {
  // 400 entries, then about 6 MiB of others (an import, or an upgrade with years of history):
  // more than a turn indexes before its prompt goes out.
  const filler = 'a long routine note about the weekly build, the release train and the dashboards '.repeat(40)
  const store = await chat()
  const more = []
  for (let i = 0; i < 2000; i++) more.push(`${JSON.stringify({ role: 'user', text: `${filler} ${i}`, id: `f${i}` })}\n`)
  fs.appendFileSync(store.logPath, more.join(''))
  expect(fs.statSync(store.logPath).size).toBeGreaterThan(6 * 1024 * 1024)
  const first = await store.prepareTurn(turn())
  expect([first.reload, first.indexBehind, first.report.entriesRecalled]).toEqual([true, true, 0])
  expect(fs.existsSync(`${store.logPath}.search-index`)).toBe(false)
  await store.warmIndex()
  expect(fs.existsSync(`${store.logPath}.search-index`)).toBe(true)
  const next = await store.prepareTurn(turn())
  expect(next.indexBehind).toBe(false)
  expect(next.report.recalledLines).toContain(42)
  // A small chat builds its index within the turn, as before.
  const small = await chat()
  const turned = await small.prepareTurn(turn())
  expect([turned.indexBehind, turned.report.recalledLines.includes(42)]).toEqual([false, true])
})
