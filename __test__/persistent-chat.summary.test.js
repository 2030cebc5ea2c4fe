'use strict'
// rebuildPersistentChatContinuitySummary from JavaScript, rule by rule (SPEC
// § rebuildPersistentChatContinuitySummary, Errors): state and memory only,
// the latest status rule, timers against now, maxChars, statePath/logPath.
//
// Addon errors come from the main realm, not jest's sandbox, so they are
// matched on `name`/`code`/`message`, never with `instanceof`.

const fs = require('node:fs')
const path = require('node:path')
const native = require('../index.js')
const {
  HEADERS,
  HEADER_ORDER,
  NOW,
  NOW_MS,
  useTempDir,
  writeLog,
  appendRaw,
  markerCounts,
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
    '',
    'Model capability notes:',
    '- No image input',
  ].join('\n')

  const turn = [user('Deploy the\nstaging   build'), assistant('Deployed.', 'ok', { session: 'ses_B' })]

  test('exact sections, order, headers and one blank line between sections', () => {
    const out = rebuild({ entries: turn, state: fullState(), currentSession: 'ses_B', now: NOW })
    expect(out).toBe(FULL_EXPECTED)
    expect(out).not.toMatch(/\n\n\n/)
    expect(out.endsWith('\n')).toBe(false)
  })

  test('the state object key order does not change the section order', () => {
    const state = fullState()
    const reversed = Object.fromEntries(Object.entries(state).reverse())
    expect(rebuild({ entries: turn, state: reversed, currentSession: 'ses_B', now: NOW })).toBe(FULL_EXPECTED)
  })

  test('empty sections are left out, except the first', () => {
    expect(rebuild({})).toBe(
      'Current thread / pending next action:\n- Latest user request: none yet\n- Latest assistant status: no turns yet',
    )
    const out = rebuild({ state: { modelNotes: ['No tools'], decisions: [], pendingThreads: ['  '] }, now: NOW })
    expect(out).toBe(
      'Current thread / pending next action:\n- Latest user request: none yet\n- Latest assistant status: no turns yet\n\nModel capability notes:\n- No tools',
    )
    const sections = rebuild({ state: { timers: [{ name: 'x' }], guardrails: ['g'] }, now: NOW }).split('\n\n')
    expect(sections.map((s) => s.split('\n')[0])).toEqual([HEADERS.current, HEADERS.decisions, HEADERS.timers])
  })

  test('several notes become an indented list under the label', () => {
    const out = rebuild({ state: { notes: ['a', 'b\nc', { text: 'd' }] } })
    expect(out.endsWith('- Actionable notes:\n  - a\n  - b c\n  - d')).toBe(true)
  })

  test('never a transcript: 200 log entries give no excerpt block and no run of entries', () => {
    const entries = conversation(200, { size: 60 })
    const state = fullState()
    const out = rebuild({ entries, state, currentSession: 'ses_B', now: NOW })
    expect(out).not.toMatch(/Recent log excerpt/i)
    expect(out).not.toMatch(/Recent conversation excerpt/i)
    // Only the latest user request (msg#198) may appear, once.
    expect([...markerCounts(out)]).toEqual([[198, 1]])
    expect(out).not.toContain('msg#199')
    expect(out.split('\n').filter((line) => /^\s*(\d+\.|\[)/.test(line))).toEqual([])
    // The same through logPath (its last 200 entries are read).
    const file = tmpFile()
    writeLog(file, conversation(250, { size: 60 }))
    const fromFile = rebuild({ logPath: file, state, currentSession: 'ses_B', now: NOW })
    expect([...markerCounts(fromFile)]).toEqual([[248, 1]])
    expect(fromFile).not.toMatch(/Recent (log|conversation) excerpt/i)
  })

  test('decisions are one line each: inner newlines, tabs and runs of spaces collapse', () => {
    const out = rebuild({
      state: { decisions: ['  Use\r\n\r\nPostgres   for\t\tstorage  ', 'Two\u2028lines'], guardrails: ['A\n\nB'] },
    })
    const section = out.split('\n\n')[1].split('\n')
    expect(section).toEqual(['Active decisions and guardrails:', '- Use Postgres for storage', '- Two lines', '- A B'])
  })

  test('state items may be strings or {text} objects; repeats and blanks are left out', () => {
    const out = rebuild({
      state: {
        decisions: ['alpha', { text: 'beta' }, 'alpha', { text: '   ' }, ''],
        pendingThreads: [{ text: 'gamma' }],
      },
    })
    expect(out).toContain(
      'Active decisions and guardrails:\n- alpha\n- beta\n\nPending threads / open topics:\n- gamma',
    )
  })

  describe('latest assistant status is the reply to the newest user entry only', () => {
    const statusLine = (out) => out.split('\n')[2]
    const requestLine = (out) => out.split('\n')[1]

    test('newest request without a reply is awaiting and does not borrow an older status', () => {
      for (const older of ['ok', 'ACP_TURN_FAILED']) {
        const out = rebuild({
          entries: [user('first'), assistant('a', older, { session: 'ses_B' }), user('second')],
          currentSession: 'ses_B',
        })
        expect(requestLine(out)).toBe('- Latest user request: second')
        expect(statusLine(out)).toBe('- Latest assistant status: awaiting reply to the latest request')
        expect(out).not.toContain('ACP_TURN_FAILED')
      }
    })

    test("an earlier turn's failure is never shown", () => {
      const out = rebuild({
        entries: [
          user('first'),
          assistant('', 'ACP_TURN_FAILED', { session: 'ses_B' }),
          user('second'),
          assistant('fine', 'ok', { session: 'ses_B' }),
        ],
        currentSession: 'ses_B',
      })
      expect(statusLine(out)).toBe('- Latest assistant status: ok')
      expect(out).not.toContain('ACP_TURN_FAILED')
    })

    test('a failure of the current session on the latest turn is the status', () => {
      const out = rebuild({
        entries: [user('go'), assistant('', 'ACP_TURN_FAILED', { session: 'ses_B' })],
        currentSession: 'ses_B',
      })
      expect(statusLine(out)).toBe('- Latest assistant status: ACP_TURN_FAILED')
    })

    test('a failure from before a reload is dropped; its unanswered request stays pending', () => {
      const entries = [
        user('old question'),
        assistant('answer', 'ok', { session: 'ses_A' }),
        user('build the report'),
        assistant('', 'ACP_TURN_FAILED', { session: 'ses_A' }),
      ]
      const out = rebuild({ entries, currentSession: 'ses_B' })
      expect(out).not.toContain('ACP_TURN_FAILED')
      expect(requestLine(out)).toBe('- Latest user request: build the report')
      expect(statusLine(out)).toBe('- Latest assistant status: awaiting reply to the latest request')
      // The sessionId alias counts the same.
      const aliased = entries.map(({ session, ...rest }) => (session ? { ...rest, sessionId: session } : rest))
      expect(rebuild({ entries: aliased, currentSession: 'ses_B' })).toBe(out)
    })

    test('an ok reply from the previous session still answers its request', () => {
      const out = rebuild({ entries: [user('q'), assistant('a', 'ok', { session: 'ses_A' })], currentSession: 'ses_B' })
      expect(statusLine(out)).toBe('- Latest assistant status: ok')
    })

    test('a retry that succeeded after a failure in the same turn wins', () => {
      const out = rebuild({
        entries: [
          user('q'),
          assistant('', 'ACP_TURN_FAILED', { session: 'ses_B' }),
          assistant('ok now', 'ok', { session: 'ses_B' }),
        ],
        currentSession: 'ses_B',
      })
      expect(statusLine(out)).toBe('- Latest assistant status: ok')
    })

    test('fixed wordings: no turns yet, reply without status', () => {
      expect(statusLine(rebuild({ entries: [] }))).toBe('- Latest assistant status: no turns yet')
      expect(requestLine(rebuild({ entries: [assistant('hello')] }))).toBe('- Latest user request: none yet')
      const out = rebuild({ entries: [user('q'), { role: 'assistant', text: 'a' }, { role: 'tool', text: 't' }] })
      expect(statusLine(out)).toBe('- Latest assistant status: replied (no status recorded)')
    })

    test('the latest request is one line and lone surrogates in it survive', () => {
      const out = rebuild({ entries: [user('a\ud800\n  b\udc00')] })
      expect(requestLine(out)).toBe('- Latest user request: a\ud800 b\udc00')
    })
  })

  describe('timers against `now`', () => {
    const timers = [
      { name: 'overdue', status: 'pending', due: '2026-05-15T09:00:00Z' },
      { name: 'justdue', status: 'pending', due: NOW },
      { name: 'epoch', status: 'pending', due: NOW_MS - 3_600_000 },
      { name: 'future', status: 'pending', due: '2026-05-15T11:00:00Z' },
      { name: 'nostatus', due: '2026-05-16T11:00:00Z' },
      { name: 'finished', status: 'done', due: '2026-05-14T09:00:00Z' },
      'plain string timer',
    ]
    const timerLines = (out) => out.split('Timer status:\n')[1].split('\n\n')[0].split('\n')

    test('a passed due shows as due now / overdue, never as pending', () => {
      const got = timerLines(rebuild({ state: { timers }, now: NOW }))
      expect(got).toEqual([
        '- overdue: overdue (was due 2026-05-15T09:00:00Z)',
        '- justdue: due now (due 2026-05-15T10:00:00Z)',
        '- epoch: overdue (was due 2026-05-15T09:00:00.000Z)',
        '- future: pending (due 2026-05-15T11:00:00Z)',
        '- nostatus: pending (due 2026-05-16T11:00:00Z)',
        '- finished: done (due 2026-05-14T09:00:00Z)',
        '- plain string timer: pending',
      ])
    })

    test('the same timers a day later are all past due', () => {
      const got = timerLines(rebuild({ state: { timers }, now: '2026-05-17T00:00:00Z' }))
      for (const line of got.slice(0, 5)) {
        expect(line).toMatch(/: overdue \(was due /)
        expect(line).not.toMatch(/: pending/)
      }
    })

    test('now as epoch milliseconds equals now as ISO string', () => {
      expect(rebuild({ state: { timers }, now: NOW_MS })).toBe(rebuild({ state: { timers }, now: NOW }))
    })

    test('an invalid now is a RangeError', () => {
      const error = thrown(() => rebuild({ now: 'next tuesday' }))
      expect(error).toEqual(expect.objectContaining({ name: 'RangeError' }))
      expect(error.message).toContain('params.now')
    })
  })

  describe('maxChars', () => {
    const bigState = {
      decisions: Array.from({ length: 60 }, (_, i) => `Decision ${i}: keep the public API stable for clients`),
      guardrails: Array.from({ length: 10 }, (_, i) => `Guardrail ${i}: never touch production on Fridays`),
      pendingThreads: Array.from({ length: 30 }, (_, i) => `Thread ${i}: follow up on the migration`),
      timers: Array.from({ length: 15 }, (_, i) => ({
        name: `timer${i}`,
        status: 'pending',
        due: NOW_MS + (i - 7) * 3_600_000,
      })),
      modelNotes: Array.from({ length: 12 }, (_, i) => `Model note ${i}: no image input on this backend`),
      notes: ['Reply in French'],
    }
    const entries = [user('Please deploy the staging build now'), assistant('ok', 'ok', { session: 'ses_B' })]
    const totals = {
      [HEADERS.decisions]: 70,
      [HEADERS.threads]: 30,
      [HEADERS.timers]: 15,
      [HEADERS.models]: 12,
    }

    test.each([1, 5, 10, 37, 60, 100, 150, 250, 400, 700, 1000, 2000, 3000, 6000])(
      'result.length <= %p',
      (maxChars) => {
        const out = rebuild({ entries, state: bigState, currentSession: 'ses_B', now: NOW, maxChars })
        expect(out.length).toBeLessThanOrEqual(maxChars)
        if (maxChars >= 37) expect(out.length).toBeGreaterThan(0)
      },
    )

    test('the default cap is 6000; Infinity and <= 0 mean no cap', () => {
      const huge = { decisions: Array.from({ length: 500 }, (_, i) => `Decision ${i}: ${'x'.repeat(40)}`) }
      const byDefault = rebuild({ state: huge, now: NOW })
      expect(byDefault.length).toBeLessThanOrEqual(6000)
      expect(byDefault.length).toBeGreaterThan(5000)
      expect(rebuild({ state: huge, now: NOW, maxChars: NaN })).toBe(byDefault)
      const uncapped = rebuild({ state: huge, now: NOW, maxChars: Infinity })
      expect(uncapped).toContain('Decision 499:')
      expect(rebuild({ state: huge, now: NOW, maxChars: 0 })).toBe(uncapped)
      expect(rebuild({ state: huge, now: NOW, maxChars: -1 })).toBe(uncapped)
    })

    test.each([400, 1000, 2000, 3000])('at %p each section says how many items it left out', (maxChars) => {
      const out = rebuild({ entries, state: bigState, currentSession: 'ses_B', now: NOW, maxChars })
      expect(out.startsWith(`${HEADERS.current}\n`)).toBe(true)
      const sections = out.split('\n\n')
      expect(sections.map((s) => s.split('\n')[0])).toEqual(HEADER_ORDER)
      for (const section of sections.slice(1)) {
        const [header, ...items] = section.split('\n')
        const more = items.at(-1).match(/^- … \((\d+) more\)$/)
        const shown = more ? items.length - 1 : items.length
        expect(shown + (more ? Number(more[1]) : 0)).toBe(totals[header])
        expect(shown).toBeGreaterThan(0)
        for (const item of items.slice(0, shown))
          expect(item).toMatch(/^- (Decision \d+|Guardrail \d+|Thread \d+|timer\d+|Model note \d+)/)
      }
    })

    test('a cut never splits a surrogate pair or a ZWJ emoji sequence', () => {
      const family = '👨‍👩‍👧'
      const state = { decisions: Array.from({ length: 20 }, (_, i) => `${i} ${family.repeat(30)}`) }
      for (let maxChars = 40; maxChars < 500; maxChars += 7) {
        const out = rebuild({ state, now: NOW, maxChars })
        expect(out.length).toBeLessThanOrEqual(maxChars)
        expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/)
        for (const line of out.split('\n').filter((l) => l.startsWith('- ') && l.includes('👨'))) {
          const body = line.replace(/^- \d+ /, '').replace(/…$/, '')
          expect(body.length % family.length).toBe(0)
        }
      }
    })

    // BUG (see report): under a tight budget the first section is dropped
    // while later, less important sections stay.
    test('the first section stays whenever its header and a count line fit (maxChars 56..190)', () => {
      const bad = []
      for (let maxChars = 56; maxChars <= 400; maxChars++) {
        const out = rebuild({ entries, state: bigState, currentSession: 'ses_B', now: NOW, maxChars })
        if (!out.startsWith(HEADERS.current)) bad.push(maxChars)
      }
      const small = rebuild({
        entries,
        state: { decisions: ['Use Postgres'], modelNotes: ['No image input'] },
        now: NOW,
        maxChars: 100,
      })
      expect(small.startsWith(HEADERS.current)).toBe(true)
      expect(bad).toEqual([])
    })

    // BUG (see report): a section can be kept as a bare header, its items
    // left out without the `- … (N more)` line.
    test('a kept section never loses items without saying how many', () => {
      const state = { decisions: ['Use Postgres'], modelNotes: ['No image input'] }
      const offenders = []
      // From 50 on: below that not even the header and its count line fit.
      for (let maxChars = 50; maxChars <= 200; maxChars++) {
        const out = rebuild({ entries, state, now: NOW, maxChars })
        for (const section of out.split('\n\n')) {
          if (section.split('\n').length === 1) offenders.push([maxChars, section])
        }
      }
      expect(offenders).toEqual([])
    })
  })

  test('deterministic: the same params give the same string; params are not mutated', () => {
    const params = { entries: conversation(50), state: fullState(), currentSession: 'ses_B', now: NOW, maxChars: 700 }
    const copy = JSON.parse(JSON.stringify(params))
    const first = rebuild(params)
    expect(rebuild(params)).toBe(first)
    expect(rebuild(JSON.parse(JSON.stringify(params)))).toBe(first)
    expect(params).toEqual(copy)
  })

  describe('statePath / logPath', () => {
    test('files are read like the data they hold', () => {
      const logPath = tmpFile()
      const statePath = tmpFile('state.json')
      writeLog(logPath, turn)
      fs.writeFileSync(statePath, JSON.stringify(fullState()))
      expect(rebuild({ logPath, statePath, currentSession: 'ses_B', now: NOW })).toBe(FULL_EXPECTED)
    })

    test('a log file with garbage and a torn last line reads its valid entries', () => {
      const logPath = tmpFile()
      writeLog(logPath, [user('old'), 'garbage', user('latest request'), '{"role":"assistant"}'])
      appendRaw(logPath, '{"role":"assistant","text":"half')
      const out = rebuild({ logPath, now: NOW })
      expect(out.split('\n').slice(1, 3)).toEqual([
        '- Latest user request: latest request',
        '- Latest assistant status: awaiting reply to the latest request',
      ])
    })

    test('missing files are the first run: empty log, empty state', () => {
      const out = rebuild({
        logPath: path.join(tmp.dir, 'missing.jsonl'),
        statePath: path.join(tmp.dir, 'missing-state.json'),
        now: NOW,
      })
      expect(out).toBe(rebuild({}))
    })

    test('an empty state file is an empty state', () => {
      const statePath = tmpFile('state.json')
      fs.writeFileSync(statePath, '')
      expect(rebuild({ statePath, now: NOW })).toBe(rebuild({}))
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
