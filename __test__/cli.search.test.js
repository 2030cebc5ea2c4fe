'use strict'
// `openclaw-context search`, run as an operator runs it: a chat named by its log or by its
// state dir and session key, one hit a line (or JSON), nothing created, hostile text kept to
// its line, and clear exit codes.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const { ChatStore } = require('..')
const { posixTest } = require('./fixtures/platform.js')

const CLI = path.join(__dirname, '..', 'cli', 'openclaw-context.js')
const KEY = 'agent:main:acp:cli-search'
let dir
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-cli-search-'))
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

const cli = (args) => {
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8' })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

async function chat() {
  const store = await ChatStore.open({ stateDir: dir, sessionKey: KEY })
  for (let i = 0; i < 60; i++) {
    await store.appendEntry(
      { ts: '2026-04-01T08:00:00Z', role: 'user', text: `note ${i}: coffee and biscuits` },
      { sync: false },
    )
  }
  await store.appendEntry(
    {
      ts: '2026-04-02T09:30:00Z',
      role: 'user',
      text: 'the invoice for Acme is due on Friday\nproblem: none\x1b[2J',
      id: 'inv',
    },
    { sync: false },
  )
  await store.appendEntry(
    { ts: '2026-04-02T09:30:05Z', role: 'assistant', text: 'Noted, Friday for the Acme invoice.' },
    { sync: false },
  )
  return store
}

test('by state dir and session key: one hit a line, control characters escaped', async () => {
  await chat()
  const { code, stdout, stderr } = cli(['search', '--state-dir', dir, '--session-key', KEY, 'acme', 'invoices'])
  expect(stderr).toBe('')
  expect(code).toBe(0)
  // The question and its answer (which ranks with it): nothing else, each on its own line.
  const lines = stdout.trimEnd().split('\n').sort()
  expect(lines).toHaveLength(2)
  expect(lines[0]).toBe(
    '#61 [2026-04-02T09:30:00Z] user: the invoice for Acme is due on Friday\\nproblem: none\\x1B[2J',
  )
  expect(lines[1]).toMatch(/^#62 \[2026-04-02T09:30:05Z\] assistant: Noted, Friday/)
})

test('by log, as JSON: one object a line with the entry fields, line and score', async () => {
  const store = await chat()
  const { code, stdout } = cli(['search', '--log', store.logPath, '--json', '--limit', '1', 'invoice'])
  expect(code).toBe(0)
  expect(stdout.trimEnd().split('\n')).toHaveLength(1)
  const both = cli(['search', '--log', store.logPath, '--json', 'invoice'])
  const hits = both.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line))
  expect(hits.map((hit) => hit.line).sort()).toEqual([61, 62])
  expect(hits.find((hit) => hit.line === 61)).toMatchObject({ role: 'user', id: 'inv', ts: '2026-04-02T09:30:00Z' })
  expect(hits[0].score).toBeGreaterThanOrEqual(hits[1].score)
})

test('a query that matches nothing prints nothing and succeeds', async () => {
  await chat()
  const { code, stdout } = cli(['search', '--state-dir', dir, '--session-key', KEY, 'zeppelin'])
  expect(code).toBe(0)
  expect(stdout).toBe('')
})

test('a session key with no chat is an error that creates nothing', () => {
  const { code, stderr } = cli(['search', '--state-dir', dir, '--session-key', 'agent:nobody', 'x'])
  expect(code).toBe(1)
  expect(stderr).toMatch(/no chat for that session key/)
  expect(fs.readdirSync(dir)).toEqual([])
})

test.each([
  [['search', 'x'], /either --log FILE or --state-dir DIR --session-key KEY/],
  [['search', '--log', 'a', '--state-dir', 'b', 'x'], /either --log/],
  [['search', '--state-dir', 'b', 'x'], /needs --session-key/],
  [['search', '--log', 'a'], /needs a QUERY/],
  [['search', '--log', 'a', '--limit', '0', 'x'], /--limit takes a whole number from 1 to 100/],
  [['search', '--log', 'a', '--limit', '2.5', 'x'], /--limit/],
  [['search', '--log', 'a', '--bogus', 'x'], /unknown option --bogus/],
])('bad usage %j exits 2', (args, message) => {
  const { code, stderr } = cli(args)
  expect(code).toBe(2)
  expect(stderr).toMatch(message)
})

posixTest('a symlinked --log is refused with one line naming it', async () => {
  const store = await chat()
  const link = path.join(dir, 'link.jsonl')
  fs.symlinkSync(store.logPath, link)
  const { code, stderr } = cli(['search', '--log', link, 'invoice'])
  expect(code).toBe(1)
  expect(stderr.trim().split('\n')).toHaveLength(1)
  expect(stderr).toContain(link)
})
