'use strict'
// openclaw-context forget, run as a user runs it (a child process of the command line against
// the built addon): a dry run that changes nothing, the text gone from every byte of the chat
// folder, the next reload neither showing nor summarising it, ids and times, the store's
// refusals, a gateway appending from another process meanwhile (nothing lost, nothing torn),
// and the plugin's retentionDays rule through ChatStore#forget.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const { ChatStore } = require('../index.js')
const { tempDirs, runCli: run, appendInChild } = require('./fixtures/cli.js')
const { onWasi, onWindows, posixTest: posixTestFor, testUnless } = require('./fixtures/platform.js')

const KEY = 'agent:codex:acp:forget'
const posixTest = posixTestFor('no FIFOs, symlinks or POSIX modes there')

const tempDir = tempDirs('occn-cli-forget-')

const SECRET = 'my card PIN is 4921'

/** A chat of 40 entries, one of which (#12, id t11) holds SECRET; its store. */
async function chatWithSecret(state) {
  const store = await ChatStore.open({ stateDir: state, sessionKey: KEY })
  for (let i = 0; i < 40; i++) {
    const text = i === 11 ? `note this: ${SECRET}` : `routine message ${i} about the deploy`
    const ts = new Date(Date.UTC(2026, 0, 1 + i)).toISOString()
    await store.appendEntry({ ts, role: i % 2 ? 'assistant' : 'user', text, session: 'be-1', id: `t${i}` })
  }
  return store
}

/** Every file of a folder that holds `text` (its bytes), names only. */
function filesHolding(folder, text) {
  return fs.readdirSync(folder).filter((name) => fs.readFileSync(path.join(folder, name)).includes(text))
}

test('--help lists forget; forget --help is its own', () => {
  const { status, out } = run(['--help'])
  expect(status).toBe(0)
  expect(out).toMatch(/^ {2}forget +remove entries/m)
  expect(run(['forget', '--help']).out).toMatch(/^Usage: openclaw-context forget \(--log FILE/)
})

test('usage errors: no rule, an empty text, a bad time, both ways of naming a chat', () => {
  const dir = tempDir()
  const log = ['--log', path.join(dir, 'perpetual-log.jsonl')]
  for (const [args, message] of [
    [[...log], /forget needs --id ID, --before TS or --match TEXT/],
    [[...log, '--match', ''], /--match needs a text/],
    [[...log, '--before', 'yesterday'], /--before must be an ISO-8601 date or date-time, or epoch milliseconds/],
    [['--match', 'x'], /forget needs either --log FILE or --state-dir DIR --session-key KEY/],
    [[...log, '--state-dir', dir, '--match', 'x'], /either --log FILE or/],
  ]) {
    const result = run(['forget', ...args])
    expect({ args, status: result.status }).toEqual({ args, status: 2 })
    expect(result.err).toMatch(message)
  }
})

test('a dry run lists what it would remove and changes no byte', async () => {
  const state = tempDir()
  const store = await chatWithSecret(state)
  await store.prepareTurn({ userMessage: 'what was my PIN?', currentSession: 'be-2' })
  const before = Object.fromEntries(
    fs.readdirSync(store.folder).map((n) => [n, fs.readFileSync(path.join(store.folder, n))]),
  )
  const result = run(['forget', '--state-dir', state, '--session-key', KEY, '--match', '4921'])
  expect(result.status).toBe(0)
  expect(result.out).toContain('would remove 1 of 40 line(s)')
  expect(result.out).toContain(`#12 [2026-01-12T00:00:00.000Z] assistant: note this: ${SECRET}`)
  expect(result.out).toContain('dry run: nothing was changed')
  const after = Object.fromEntries(
    fs.readdirSync(store.folder).map((n) => [n, fs.readFileSync(path.join(store.folder, n))]),
  )
  expect(after).toEqual(before)
})

test('--apply: no byte of the text stays in the chat folder, and the next reload neither shows nor summarises it', async () => {
  const state = tempDir()
  const store = await chatWithSecret(state)
  // The derived files hold it: the summary and last prompt of a reload that recalled it, the index.
  const first = await store.prepareTurn({ userMessage: 'what was my card PIN?', currentSession: 'be-2' })
  expect(first.report.prompt).toContain(SECRET)
  fs.writeFileSync(store.memoryStatePath, JSON.stringify({ decisions: ['ship it', `user said ${SECRET}`] }))
  expect(filesHolding(store.folder, '4921').sort()).toEqual(
    expect.arrayContaining(['last-injected-preprompt.txt', 'memory-state.json', 'perpetual-log.jsonl']),
  )
  const result = run(['forget', '--state-dir', state, '--session-key', KEY, '--match', '4921', '--apply', '--json'])
  expect(result.status).toBe(0)
  const report = JSON.parse(result.out)
  expect(report).toMatchObject({ applied: true, lines: 40, removedLines: 1 })
  expect(report.removed[0]).toMatchObject({ line: 12, id: 't11', role: 'assistant' })
  expect(report.derivedFiles).toEqual(expect.arrayContaining(['last-injected-preprompt.txt']))
  expect(report.memoryStateStrings).toBe(1)
  expect(filesHolding(store.folder, '4921')).toEqual([])
  if (!onWindows && !onWasi) expect(fs.statSync(store.logPath).mode & 0o777).toBe(0o600)
  // The next reload: the 39 other entries, none of the text, in the excerpt, the recall or the summary.
  const next = await store.prepareTurn({ userMessage: 'what was my card PIN?', currentSession: 'be-3' })
  expect(next.reload).toBe(true)
  expect(next.report.prompt).not.toContain('4921')
  expect(fs.readFileSync(store.summaryPath, 'utf8')).not.toContain('4921')
  expect(await store.readEntries(100)).toHaveLength(39)
  expect(filesHolding(store.folder, '4921')).toEqual([])
  // A second run finds nothing.
  const again = JSON.parse(
    run(['forget', '--state-dir', state, '--session-key', KEY, '--match', '4921', '--apply', '--json']).out,
  )
  expect(again.removedLines).toBe(0)
})

test('--id (repeated) and --before (exclusive) by --log, and the lines left are the others byte for byte', async () => {
  const state = tempDir()
  const store = await chatWithSecret(state)
  const lines = fs.readFileSync(store.logPath, 'utf8').split(/(?<=\n)/)
  const result = run([
    'forget',
    '--log',
    store.logPath,
    '--id',
    't20',
    '--id',
    't30',
    '--before',
    '2026-01-04T00:00:00Z',
    '--apply',
  ])
  expect(result.status).toBe(0)
  expect(result.out).toContain('removed 5 of 40 line(s)')
  const kept = lines.filter((_, i) => i >= 3 && i !== 20 && i !== 30)
  expect(fs.readFileSync(store.logPath, 'utf8')).toBe(kept.join(''))
})

posixTest("a log that is a symlink, a FIFO or someone else's is refused, naming it, and nothing changes", async () => {
  const dir = tempDir()
  fs.chmodSync(dir, 0o700)
  const real = path.join(dir, 'real.jsonl')
  fs.writeFileSync(real, `{"role":"user","text":"${SECRET}"}\n`, { mode: 0o600 })
  const link = path.join(dir, 'perpetual-log.jsonl')
  fs.symlinkSync(real, link)
  let result = run(['forget', '--log', link, '--match', '4921', '--apply'])
  expect(result.status).toBe(1)
  expect(result.err).toMatch(
    /^openclaw-context: not a regular file \(symlink\): .*perpetual-log\.jsonl \(ENOTREGULAR\)\n$/,
  )
  expect(fs.readFileSync(real, 'utf8')).toContain(SECRET)
  fs.unlinkSync(link)
  spawnSync('mkfifo', [link])
  result = run(['forget', '--log', link, '--match', '4921', '--apply'], { timeout: 20000 })
  expect(result.status).toBe(1)
  expect(result.err).toMatch(/FIFO.*\(ENOTREGULAR\)/i)
  fs.unlinkSync(link)
  fs.linkSync(real, link)
  result = run(['forget', '--log', link, '--match', '4921', '--apply'])
  expect(result.status).toBe(1)
  expect(result.err).toMatch(/ENOTREGULAR/)
  expect(fs.readFileSync(real, 'utf8')).toContain(SECRET)
})

// WASI preview 1 has no advisory locks (the lock is a no-op there: docs/cli.md, forget).
testUnless(onWasi, 'on WASI: no advisory locks in WASI preview 1')(
  'a gateway appending from another process during forget --apply: every append kept, none torn',
  async () => {
    const state = tempDir()
    const store = await chatWithSecret(state)
    const APPENDS = 300
    const exited = appendInChild({ stateDir: state, sessionKey: KEY, count: APPENDS, text: 'live {i} with 4921x' })
    // Forget the old entries again and again while the child appends.
    let rounds = 0
    let done = false
    exited.then(() => {
      done = true
    })
    while (!done || rounds === 0) {
      const result = await ChatStore.forgetIn({ stateDir: state, sessionKey: KEY, before: '2026-02-01', apply: true })
      expect(result.applied).toBe(true)
      rounds++
    }
    expect(await exited).toEqual({ code: 0, stderr: '' })
    const text = fs.readFileSync(store.logPath, 'utf8')
    expect(text.endsWith('\n')).toBe(true)
    const entries = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line))
    const live = entries.filter((e) => String(e.id).startsWith('live')).map((e) => e.id)
    expect(live).toEqual(Array.from({ length: APPENDS }, (_, i) => `live${i}`))
    expect(entries.filter((e) => e.ts && e.ts < '2026-02-01')).toEqual([])
    expect(rounds).toBeGreaterThan(0)
  },
  60000,
)

test('ChatStore#forget: the retention rule on an open store, a dry run by default', async () => {
  const state = tempDir()
  const store = await chatWithSecret(state)
  const dry = await store.forget({ before: Date.UTC(2026, 0, 11) })
  expect(dry).toMatchObject({ applied: false, removedLines: 10 })
  expect(await store.readEntries(100)).toHaveLength(40)
  const applied = await store.forget({ before: Date.UTC(2026, 0, 11), apply: true })
  expect(applied.removedLines).toBe(10)
  expect((await store.readEntries(100)).map((e) => e.id)[0]).toBe('t10')
  await expect(store.forget({})).rejects.toThrow(/must have "id", "before" or "match"/)
  await expect(store.forget({ match: '' })).rejects.toThrow(/out of range/)
  await expect(store.forget({ id: [''] })).rejects.toThrow(/out of range/)
})

/**
 * A child process appending `count` lines the way an older runtime does, taking no lock: the
 * log's path opened for each line (fs.appendFileSync), paced so that it outlasts the rewrite.
 */
function appendWithoutLockInChild(log, count) {
  const { spawn } = require('node:child_process')
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('node:fs');
      for (let i = 0; i < ${count}; i++) {
        fs.appendFileSync(${JSON.stringify(log)}, JSON.stringify({ role: 'user', text: 'lockless ' + i, id: 'lockless' + i }) + '\\n');
        const until = Date.now() + 1; while (Date.now() < until) {}
      }`,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  )
  let stderr = ''
  child.stderr.on('data', (data) => {
    stderr += data
  })
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stderr })))
}

testUnless(onWasi || onWindows, 'a lockless writer holds the file open on Windows; WASI has no processes')(
  'a writer that takes no lock, appending during forget --apply: none of its lines is lost',
  async () => {
    const state = tempDir()
    const store = await chatWithSecret(state)
    const COUNT = 1500
    const exited = appendWithoutLockInChild(store.logPath, COUNT)
    let done = false
    exited.then(() => {
      done = true
    })
    let rounds = 0
    while (!done || rounds === 0) {
      const { status, err } = run(['forget', '--log', store.logPath, '--match', '4921', '--apply', '--quiet'])
      expect([status, err]).toEqual([0, ''])
      rounds++
      // The child's exit is seen on the event loop.
      await new Promise((resolve) => setImmediate(resolve))
    }
    expect(await exited).toEqual({ code: 0, stderr: '' })
    const lines = fs.readFileSync(store.logPath, 'utf8').trimEnd().split('\n')
    const ids = lines.map((line) => JSON.parse(line).id).filter((id) => id.startsWith('lockless'))
    // Each line once; a line carried over from the old log after the rename follows what the
    // writer appended to the new one meanwhile, so the order may move by a line or two.
    expect(ids.length).toBe(COUNT)
    expect(new Set(ids)).toEqual(new Set(Array.from({ length: COUNT }, (_, i) => `lockless${i}`)))
    expect(rounds).toBeGreaterThan(1)
  },
  120000,
)

test('--ignore-case folds case and accents; without it the dry run names what the literal match keeps', async () => {
  const state = tempDir()
  const store = await ChatStore.open({ stateDir: state, sessionKey: KEY })
  for (const [id, text] of [
    ['a', 'My card PIN is 4921'],
    ['b', 'noted: your card pin is 4921'],
    ['c', 'CÁRD PIN IS 4921'],
    ['d', 'something else'],
  ])
    await store.appendEntry({ role: 'user', text, id })
  const chat = ['--state-dir', state, '--session-key', KEY, '--match', 'card PIN is 4921']
  const dry = run(['forget', ...chat])
  expect(dry.status).toBe(0)
  expect(dry.out).toMatch(/^would remove 1 of 4 line\(s\)/)
  expect(dry.out).toMatch(/kept 2 entries holding the text only in another case or with other accents \(--ignore-case/)
  expect(dry.out).toMatch(/ {2}#2 user: noted: your card pin is 4921\n {2}#3 user: CÁRD PIN IS 4921\n/)
  expect(run(['forget', '--state-dir', state, '--session-key', KEY, '--ignore-case']).status).toBe(2)
  const done = run(['forget', ...chat, '--ignore-case', '--apply'])
  expect(done.out).toMatch(/^removed 3 of 4 line\(s\)/)
  expect(filesHolding(store.folder, '4921')).toEqual([])
})

test('what forget removed stays out of a later import (unless --force), and --config masks with the gateway patterns', async () => {
  const dir = tempDir()
  const state = path.join(dir, 'state')
  const store = await chatWithSecret(state)
  const exported = path.join(dir, 'before.jsonl')
  expect(run(['export', '--state-dir', state, '--session-key', KEY, '--out', exported]).status).toBe(0)
  expect(run(['forget', '--state-dir', state, '--session-key', KEY, '--match', '4921', '--apply']).status).toBe(0)
  const chat = ['--state-dir', state, '--session-key', KEY, '--from-export', exported]
  const kept = run(['import', ...chat, '--apply'])
  expect(kept.status).toBe(0)
  expect(kept.out).toMatch(/1 left out: forget removed them from this chat \(--force imports them\)/)
  expect(filesHolding(store.folder, '4921')).toEqual([])
  // The gateway's own patterns, from --config: a line the export held in clear goes in masked.
  const config = path.join(dir, 'openclaw.json')
  fs.writeFileSync(config, JSON.stringify({ logging: { redactPatterns: ['PIN is \\d{4}'] } }))
  const forced = run(['import', ...chat, '--apply', '--force', '--config', config])
  expect(forced.status).toBe(0)
  expect(forced.out).toMatch(/imported 1 of 40 entries/)
  expect(forced.out).toMatch(/1 masked/)
  expect(filesHolding(store.folder, '4921')).toEqual([])
  expect(fs.readFileSync(store.logPath, 'utf8')).toContain('note this: my card [redacted:custom]')
  const missing = run(['import', ...chat, '--config', path.join(dir, 'nope.json')])
  expect(missing.status).toBe(2)
  expect(missing.err).toMatch(/^openclaw-context: cannot read --config .*nope\.json: not found\n/)
})
