'use strict'
// rebuildPersistentChatContinuitySummary from JavaScript: what the binding
// adds. The summary's rules (format, sections, the latest status, timers
// against now, the budget, how much of a log it reads) are tested in
// crates/core/tests/summary.rs; here: one smoke test of the whole output
// from JS data, JS values in (item and timer shapes, aliases, `now` as a
// string or a number, maxChars as JS numbers, lone surrogates), params left
// untouched, files (statePath/logPath), and the errors.
//
// Addon errors come from the main realm, not jest's sandbox, so they are
// matched on `name`/`code`/`message`, never with `instanceof`.

const fs = require('node:fs')
const path = require('node:path')
const native = require('../index.js')
const {
  NOW,
  NOW_MS,
  useTempDir,
  writeLog,
  thrown,
  user,
  assistant,
  expectTypeError,
  conversation,
} = require('./fixtures/chat.js')

const { rebuildPersistentChatContinuitySummary: rebuild } = native
const tmp = useTempDir()
const tmpFile = (name) => tmp.file(name)

describe('rebuildPersistentChatContinuitySummary', () => {
  const fullState = () => ({
    decisions: ['Use Postgres\n  for   storage', { text: 'Ship on\tFriday' }],
    guardrails: ['Never force-push main'],
    pendingThreads: ['Migrate users table', { text: 'Rotate API keys' }],
    timers: [
      { name: 'standup', status: 'pending', due: '2026-05-15T09:00:00Z' },
      { name: 'deploy', status: 'scheduled', due: '2026-05-16T09:00:00Z' },
      { name: 'ping', status: 'pending', due: NOW_MS - 5_000 },
      { name: 'backup', status: 'done', due: '2026-05-14T09:00:00Z' },
      'plain string timer',
    ],
    modelNotes: ['No image input'],
    notes: ['Reply in French'],
  })

  const FULL_EXPECTED = [
    'Current thread / pending next action:',
    '- Latest user request: Deploy the staging build',
    '- Latest assistant status: ok',
    '- Actionable notes: Reply in French',
    '',
    'Active decisions and guardrails:',
    '- Use Postgres for storage',
    '- Ship on Friday',
    '- Never force-push main',
    '',
    'Pending threads / open topics:',
    '- Migrate users table',
    '- Rotate API keys',
    '',
    'Timer status:',
    '- standup: overdue (was due 2026-05-15T09:00:00Z)',
    '- deploy: scheduled (due 2026-05-16T09:00:00Z)',
    '- ping: due now (due 2026-05-15T09:59:55.000Z)',
    '- backup: done (due 2026-05-14T09:00:00Z)',
    '- plain string timer: pending',
    '',
    'Model capability notes:',
    '- No image input',
  ].join('\n')

  const turn = [user('Deploy the\nstaging   build'), assistant('Deployed.', 'ok', { session: 'ses_B' })]

  test('smoke: the whole summary from JS data (string and {text} items, string timers, epoch-ms dues)', () => {
    expect(rebuild({ entries: turn, state: fullState(), currentSession: 'ses_B', now: NOW })).toBe(FULL_EXPECTED)
  })

  test('the state object key order does not change the section order', () => {
    const state = fullState()
    const reversed = Object.fromEntries(Object.entries(state).reverse())
    expect(rebuild({ entries: turn, state: reversed, currentSession: 'ses_B', now: NOW })).toBe(FULL_EXPECTED)
  })

  test('JS entries: the sessionId alias counts as session', () => {
    const entries = [
      user('old question'),
      assistant('answer', 'ok', { session: 'ses_A' }),
      user('build the report'),
      assistant('', 'ACP_TURN_FAILED', { session: 'ses_A' }),
    ]
    const out = rebuild({ entries, currentSession: 'ses_B' })
    // Only a failure dated to another session is dropped.
    expect(out).not.toContain('ACP_TURN_FAILED')
    const aliased = entries.map(({ session, ...rest }) => (session ? { ...rest, sessionId: session } : rest))
    expect(rebuild({ entries: aliased, currentSession: 'ses_B' })).toBe(out)
  })

  test('lone surrogates in a JS entry come back exactly (in the request, made one line)', () => {
    const out = rebuild({ entries: [user('a\ud800\n  b\udc00')] })
    expect(out.split('\n')[1]).toBe('- Latest user request: a\ud800 b\udc00')
  })

  describe('now', () => {
    const timers = fullState().timers

    test('now as epoch milliseconds equals now as ISO string', () => {
      const byIso = rebuild({ state: { timers }, now: NOW })
      expect(byIso).toContain('- ping: due now')
      expect(rebuild({ state: { timers }, now: NOW_MS })).toBe(byIso)
    })

    test('an invalid now is a RangeError', () => {
      const error = thrown(() => rebuild({ now: 'next tuesday' }))
      expect(error).toEqual(expect.objectContaining({ name: 'RangeError' }))
      expect(error.message).toContain('params.now')
    })
  })

  test('maxChars as JS numbers: absent or NaN is the default 6000, Infinity and <= 0 mean no cap', () => {
    const huge = { decisions: Array.from({ length: 500 }, (_, i) => `Decision ${i}: ${'x'.repeat(40)}`) }
    const byDefault = rebuild({ state: huge, now: NOW })
    expect(byDefault.length).toBeLessThanOrEqual(6000)
    expect(byDefault.length).toBeGreaterThan(5000)
    expect(rebuild({ state: huge, now: NOW, maxChars: NaN })).toBe(byDefault)
    expect(rebuild({ state: huge, now: NOW, maxChars: 400 }).length).toBeLessThanOrEqual(400)
    const uncapped = rebuild({ state: huge, now: NOW, maxChars: Infinity })
    expect(uncapped).toContain('Decision 499:')
    expect(rebuild({ state: huge, now: NOW, maxChars: 0 })).toBe(uncapped)
    expect(rebuild({ state: huge, now: NOW, maxChars: -1 })).toBe(uncapped)
  })

  test('params are not mutated, and a copy of them gives the same string', () => {
    const params = { entries: conversation(50), state: fullState(), currentSession: 'ses_B', now: NOW, maxChars: 700 }
    const copy = JSON.parse(JSON.stringify(params))
    const first = rebuild(params)
    expect(params).toEqual(copy)
    expect(rebuild(copy)).toBe(first)
  })

  describe('statePath / logPath', () => {
    test('files are read like the data they hold', () => {
      const logPath = tmpFile()
      const statePath = tmpFile('state.json')
      writeLog(logPath, turn)
      fs.writeFileSync(statePath, JSON.stringify(fullState()))
      expect(rebuild({ logPath, statePath, currentSession: 'ses_B', now: NOW })).toBe(FULL_EXPECTED)
    })

    test('missing files are the first run: empty log, empty state', () => {
      const out = rebuild({
        logPath: path.join(tmp.dir, 'missing.jsonl'),
        statePath: path.join(tmp.dir, 'missing-state.json'),
        now: NOW,
      })
      expect(out).toBe(rebuild({}))
    })

    test('data wins over a path', () => {
      const logPath = tmpFile()
      const statePath = tmpFile('state.json')
      writeLog(logPath, [user('from the file')])
      fs.writeFileSync(statePath, JSON.stringify({ decisions: ['from the file'] }))
      const out = rebuild({ logPath, statePath, entries: [user('from data')], state: { decisions: ['data decision'] } })
      expect(out).toContain('- Latest user request: from data')
      expect(out).toContain('- data decision')
      expect(out).not.toContain('from the file')
    })

    test('a directory as statePath is refused with ENOTREGULAR', () => {
      expect(thrown(() => rebuild({ statePath: tmp.dir }))).toEqual(
        expect.objectContaining({ code: 'ENOTREGULAR', path: tmp.dir }),
      )
    })
  })

  test.each([
    ['params', () => rebuild('nope')],
    ['params', () => rebuild(null)],
    ['params.state.decisions[0]', () => rebuild({ state: { decisions: [1] } })],
    ['params.state.decisions[1].text', () => rebuild({ state: { decisions: ['ok', { text: 5 }] } })],
    ['params.state.decisions', () => rebuild({ state: { decisions: 'not an array' } })],
    ['params.state.pendingThreads[0]', () => rebuild({ state: { pendingThreads: [true] } })],
    ['params.state.timers[0]', () => rebuild({ state: { timers: [7] } })],
    ['params.state', () => rebuild({ state: 'x' })],
    ['params.entries[1].role', () => rebuild({ entries: [user('a'), { role: 'bot', text: 'b' }] })],
    ['params.entries[0].text', () => rebuild({ entries: [{ role: 'user', text: 5 }] })],
    ['params.entries', () => rebuild({ entries: {} })],
    ['params.currentSession', () => rebuild({ currentSession: 5 })],
    ['params.maxChars', () => rebuild({ maxChars: '100' })],
    ['params.logPath', () => rebuild({ logPath: 5 })],
    ['params.statePath', () => rebuild({ statePath: {} })],
    ['params.now', () => rebuild({ now: {} })],
  ])('wrong type → TypeError naming %s', (name, call) => {
    expectTypeError(call, name)
  })
})
