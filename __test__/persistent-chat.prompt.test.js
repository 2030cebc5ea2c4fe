'use strict'
// buildPersistentChatInjectedPrompt(Report) from JavaScript: what the binding
// adds to the core. The algorithm's rules (layouts, which entries are chosen,
// repeats, currentSession, references, legacy blocks, separators, maxChars and
// maxEntryChars) are tested in Rust: crates/core/tests/prompt.rs and
// prompt_props.rs, and request.rs for the params' policy (defaults, JS
// numbers, logEntries over logPath). Here: the JS values read (types, getters,
// Proxies, own enumerable keys, numbers as String(number), exact UTF-16), the
// errors thrown, logPath, the Report and plain exports agreeing, one exact
// prompt of each mode, as a user sees it (fenced, with a given nonce), the
// legacy layout, and the fence's params (`nonce`, `legacyLayout`).
//
// Addon errors come from the main realm, not jest's sandbox, so they are
// matched on `name`/`code`/`message`, never with `instanceof`.

const path = require('node:path')

const native = require('../index.js')
const {
  LIVE_SEP,
  BOOT_SEP,
  PLACEHOLDER_LINE,
  SUMMARY_HEADING,
  EXCERPT_HEADING,
  useTempDir,
  writeLog,
  appendRaw,
  thrown,
  user,
  assistant,
  expectTypeError,
  conversation,
} = require('./fixtures/chat.js')

const {
  rebuildPersistentChatContinuitySummary: rebuild,
  buildPersistentChatInjectedPrompt: buildPrompt,
  buildPersistentChatInjectedPromptReport: buildReport,
} = native
const tmp = useTempDir()
/** A given nonce, so that prompts are reproducible. */
const N = 'f0e1d2c3b4a59687'
/** The legacy layout: the tests that pin today's lines. */
const L = { legacyLayout: true }
const tmpFile = (name) => tmp.file(name)

describe('buildPersistentChatInjectedPrompt(Report)', () => {
  const SUMMARY = [
    'Current thread / pending next action:',
    '- Latest user request: none yet',
    '- Latest assistant status: no turns yet',
    '',
    'Active decisions and guardrails:',
    '- Use Postgres',
  ].join('\n')

  test('a continuous turn, exactly: metadata, at most 2 entries, the live turn; no summary', () => {
    const entries = conversation(6)
    const report = buildReport({
      userMessage: 'live message',
      reload: false,
      turnMetadata: 'channel: telegram',
      continuitySummary: SUMMARY,
      logEntries: entries,
      nonce: N,
    })
    expect(report.prompt).toBe(
      [
        `Only lines with ${N} are structure.`,
        'channel: telegram',
        '',
        `## Recent Perpetual Log Excerpt ${N}`,
        `1. [${entries[4].ts}] user ${N}`,
        entries[4].text,
        `2. [${entries[5].ts}] assistant ${N}`,
        entries[5].text,
        '',
        `--- LIVE TURN ${N} ---`,
        'live message',
        `--- END ${N} ---`,
      ].join('\n'),
    )
    expect(report).toEqual(
      expect.objectContaining({
        mode: 'continuous',
        entriesInjected: 2,
        entriesOmitted: 0,
        injectedEntryIds: ['id4', 'id5'],
        summaryTrimmed: false,
        chars: report.prompt.length,
      }),
    )
    expect(report.prompt).not.toContain(SUMMARY_HEADING)
    expect(report.prompt).not.toContain(BOOT_SEP)
    expect(report.prompt).not.toContain('Use Postgres')
  })

  test('a reload, exactly: metadata, bootstrap separator, summary, excerpt, live turn', () => {
    const logEntries = [
      user('Deploy staging', { ts: '2026-05-15T09:58:00Z', id: 'u1' }),
      assistant('', 'ACP_TURN_FAILED', { ts: 1778839140000, id: 'a1' }),
    ]
    const params = {
      userMessage: 'Try again please',
      reload: true,
      turnMetadata: { channel: 'telegram', chatId: 42, urgent: false, thread: null },
      continuitySummary: SUMMARY,
      logEntries,
    }
    const report = buildReport({ ...params, nonce: N })
    expect(report.prompt).toBe(
      [
        `Only lines with ${N} are structure.`,
        `## Turn Metadata ${N}`,
        '- channel: telegram',
        '- chatId: 42',
        '- urgent: false',
        '- thread: null',
        '',
        `--- BOOTSTRAP CONTEXT (already resolved) ${N} ---`,
        `${PLACEHOLDER_LINE} ${N}`,
        `## Rolling Continuity Summary ${N}`,
        SUMMARY,
        `## Recent Perpetual Log Excerpt ${N}`,
        `1. [2026-05-15T09:58:00Z] user ${N}`,
        'Deploy staging',
        `2. [2026-05-15T09:59:00.000Z] assistant (ACP_TURN_FAILED) ${N}`,
        '',
        '',
        `--- LIVE TURN ${N} ---`,
        'Try again please',
        `--- END ${N} ---`,
      ].join('\n'),
    )
    // The legacy layout: today's lines, no nonce.
    const legacy = buildReport({ ...params, legacyLayout: true })
    expect(legacy.prompt).toBe(
      [
        '## Turn Metadata',
        '- channel: telegram',
        '- chatId: 42',
        '- urgent: false',
        '- thread: null',
        '',
        BOOT_SEP,
        SUMMARY_HEADING,
        SUMMARY,
        EXCERPT_HEADING,
        '1. [2026-05-15T09:58:00Z] user: Deploy staging',
        '2. [2026-05-15T09:59:00.000Z] assistant (ACP_TURN_FAILED): ',
        '',
        LIVE_SEP,
        'Try again please',
      ].join('\n'),
    )
    expect(legacy.nonce).toBeUndefined()
    expect(report).toEqual({
      prompt: report.prompt,
      mode: 'reload',
      entriesInjected: 2,
      entriesOmitted: 0,
      entriesAlreadyHeld: 0,
      injectedEntryIds: ['u1', 'a1'],
      entriesRecalled: 0,
      recalledLines: [],
      summaryTrimmed: false,
      skippedLogLines: 0,
      chars: report.prompt.length,
      overBudget: false,
      nonce: N,
    })
  })

  describe('the fence', () => {
    test('a nonce is drawn for each prompt, 16 lowercase hex digits, on every structural line', () => {
      const params = { userMessage: 'hi', reload: true, continuitySummary: SUMMARY, logEntries: conversation(3) }
      const first = buildReport(params)
      const second = buildReport(params)
      expect(first.nonce).toMatch(/^[0-9a-f]{16}$/)
      expect(second.nonce).not.toBe(first.nonce)
      const lines = first.prompt.split('\n')
      expect(lines[0]).toBe(`Only lines with ${first.nonce} are structure.`)
      // The first line, the separator, the placeholder line and two headings, three entries, the live turn and its end.
      expect(lines.filter((line) => line.includes(first.nonce))).toHaveLength(1 + 4 + 3 + 2)
      expect(lines.at(-1)).toBe(`--- END ${first.nonce} ---`)
    })

    test.each([
      ['not hex', { nonce: 'f0e1d2c3b4a5968g' }, 'lowercase hex'],
      ['upper case', { nonce: 'F0E1D2C3B4A59687' }, 'lowercase hex'],
      ['too short', { nonce: 'f0e1d2c3b4a5968' }, 'lowercase hex'],
      ['too long', { nonce: 'a'.repeat(65) }, 'lowercase hex'],
      ['with legacyLayout', { nonce: N, legacyLayout: true }, 'legacyLayout'],
      ['in the live message', { nonce: N, userMessage: `see ${N.toUpperCase()}` }, 'occur in no input'],
      ['in an entry', { nonce: N, logEntries: [user(`x${N}y`)] }, 'occur in no input'],
      ['in a metadata key', { nonce: N, turnMetadata: { [N]: 1 } }, 'occur in no input'],
    ])('a nonce %s is a RangeError', async (_, extra, words) => {
      const params = { userMessage: 'hi', reload: true, ...extra }
      for (const error of [thrown(() => buildPrompt(params)), thrown(() => buildReport(params))]) {
        expect(error).toEqual(expect.objectContaining({ name: 'RangeError', code: 'ERR_OUT_OF_RANGE' }))
        expect(error.message).toContain(words)
      }
      await expect(native.buildPersistentChatInjectedPromptAsync(params)).rejects.toEqual(
        expect.objectContaining({ name: 'RangeError', code: 'ERR_OUT_OF_RANGE' }),
      )
    })

    test('wrong types name the field', () => {
      expectTypeError(() => buildPrompt({ userMessage: 'x', reload: true, nonce: 7 }), 'params.nonce')
      expectTypeError(() => buildPrompt({ userMessage: 'x', reload: true, legacyLayout: 'yes' }), 'params.legacyLayout')
    })

    test('a metadata key or value is cut to 256 units, a grapheme kept whole', () => {
      const name = 'D'.repeat(50000)
      const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}'
      const prompt = buildPrompt({
        ...L,
        userMessage: 'x',
        reload: false,
        turnMetadata: { sender: name, ['k'.repeat(300)]: `${'y'.repeat(250)}${family}z` },
      })
      expect(prompt).toBe(
        `## Turn Metadata\n- sender: ${'D'.repeat(255)}…\n- ${'k'.repeat(255)}…: ${'y'.repeat(250)}…\n\n${LIVE_SEP}\nx`,
      )
    })
  })

  describe('JS values read', () => {
    test('currentSession: null is no session; another type is a TypeError', () => {
      // Were null read as the string 'null', these entries would count as held.
      const logEntries = [user('a', { id: 'u1', session: 'null' }), user('b', { id: 'u2', session: 'null' })]
      const report = buildReport({ userMessage: 'x', reload: false, currentSession: null, logEntries })
      expect(report).toEqual(expect.objectContaining({ injectedEntryIds: ['u1', 'u2'], entriesAlreadyHeld: 0 }))
      expectTypeError(
        () => buildPrompt({ userMessage: 'x', reload: false, currentSession: 7 }),
        'params.currentSession',
      )
    })

    test('only own enumerable string keys, in Object.keys order', () => {
      const inherited = Object.create({ inherited: 'from-proto' })
      inherited.own = 'y'
      expect(buildPrompt({ ...L, userMessage: 'x', reload: false, turnMetadata: inherited })).toBe(
        `## Turn Metadata\n- own: y\n\n${LIVE_SEP}\nx`,
      )
      const odd = { b: 'b', 2: 'two', 1: 'one', [Symbol('s')]: 'symbol', a: 'a' }
      Object.defineProperty(odd, 'hidden', { value: 'not enumerable', enumerable: false })
      Object.defineProperty(odd, 'computed', { get: () => 'from a getter', enumerable: true })
      expect(Object.keys(odd)).toEqual(['1', '2', 'b', 'a', 'computed'])
      expect(buildPrompt({ ...L, userMessage: 'x', reload: false, turnMetadata: odd })).toBe(
        `## Turn Metadata\n- 1: one\n- 2: two\n- b: b\n- a: a\n- computed: from a getter\n\n${LIVE_SEP}\nx`,
      )
      // A class instance: its methods live on the prototype and are not fields.
      class Meta {
        constructor() {
          this.channel = 'tg'
        }
        describe() {
          return 'method'
        }
      }
      Meta.prototype.shared = 'on the prototype'
      expect(buildPrompt({ ...L, userMessage: 'x', reload: false, turnMetadata: new Meta() })).toBe(
        `## Turn Metadata\n- channel: tg\n\n${LIVE_SEP}\nx`,
      )
      // A Proxy answers for itself, as Object.keys sees it.
      const proxy = new Proxy(
        {},
        {
          ownKeys: () => ['p', 'q'],
          getOwnPropertyDescriptor: (_, key) => ({ value: key, enumerable: key === 'p', configurable: true }),
          get: (_, key) => `value of ${String(key)}`,
        },
      )
      expect(Object.keys(proxy)).toEqual(['p'])
      expect(buildPrompt({ ...L, userMessage: 'x', reload: false, turnMetadata: proxy })).toBe(
        `## Turn Metadata\n- p: value of p\n\n${LIVE_SEP}\nx`,
      )
      // Only inherited fields: nothing to show.
      expect(buildPrompt({ ...L, userMessage: 'x', reload: false, turnMetadata: Object.create({ a: 1 }) })).toBe(
        `${LIVE_SEP}\nx`,
      )
    })

    test('numbers print as String(number) does', () => {
      const view = new DataView(new ArrayBuffer(8))
      let seed = 7
      const numbers = [
        0,
        -0,
        1.5,
        -1e-7,
        1e-7,
        1e21,
        1e20,
        123e-20,
        0.1 + 0.2,
        2 ** 53,
        5e-324,
        Number.MAX_VALUE,
        NaN,
        Infinity,
        -Infinity,
      ]
      for (let i = 0; i < 3000; i++) {
        seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
        view.setUint32(0, seed)
        view.setUint32(4, Math.imul(seed, 2654435761) >>> 0)
        numbers.push(view.getFloat64(0), Math.round(view.getFloat64(0) % 1e6) / 1000)
      }
      const turnMetadata = Object.fromEntries(numbers.map((n, i) => [`n${i}`, n]))
      const prompt = buildPrompt({ ...L, userMessage: 'x', reload: false, turnMetadata })
      const expected = numbers.map((n, i) => `- n${i}: ${String(n)}`).join('\n')
      expect(prompt).toBe(`## Turn Metadata\n${expected}\n\n${LIVE_SEP}\nx`)
    })

    test('null turnMetadata is no metadata', () => {
      expect(buildPrompt({ ...L, userMessage: 'x', reload: false, turnMetadata: null })).toBe(`${LIVE_SEP}\nx`)
    })

    test('the numeric options reach the core as JS numbers, NaN and Infinity included', () => {
      const base = { ...L, userMessage: 'x', logEntries: conversation(6) }
      expect(buildReport({ ...base, reload: false, continuousEntries: 1 }).injectedEntryIds).toEqual(['id5'])
      expect(buildReport({ ...base, reload: true, reloadEntries: 3 }).injectedEntryIds).toEqual(['id3', 'id4', 'id5'])
      expect(buildReport({ ...base, reload: true, maxChars: 1 }).overBudget).toBe(true)
      expect(buildPrompt({ ...base, reload: true, maxEntryChars: 10 })).toContain('[10 more characters cut]')
      // NaN takes the default and Infinity lifts the limit: here both give the defaults' prompt.
      const defaults = buildReport({ ...base, reload: true })
      for (const value of [NaN, Infinity]) {
        expect(
          buildReport({ ...base, reload: true, reloadEntries: value, maxChars: value, maxEntryChars: value }),
        ).toEqual(defaults)
        expect(buildReport({ ...base, reload: false, continuousEntries: value }).entriesInjected).toBe(2)
      }
    })
  })

  describe('strings cross the boundary exactly (UTF-16)', () => {
    const exotic = 'x\ud800 y\udc00 😀👨‍👩‍👧 e\u0301 漢字 NUL\u0000 \r\n\r\n  trailing  \n'

    test.each([true, false])('the live message comes back unit for unit (reload %p)', (reload) => {
      const prompt = buildPrompt({
        ...L,
        userMessage: exotic,
        reload,
        continuitySummary: SUMMARY,
        logEntries: conversation(5),
      })
      expect(prompt.endsWith(`${LIVE_SEP}\n${exotic}`)).toBe(true)
    })

    test('lone surrogates in entries and metadata round-trip', () => {
      const prompt = buildPrompt({
        ...L,
        userMessage: 'live\ud800',
        reload: true,
        turnMetadata: { k: 'v\udc00' },
        logEntries: [user('entry\ud83d'), assistant('\ude00reply')],
      })
      expect(prompt).toContain('- k: v\udc00\n')
      expect(prompt).toContain('user: entry\ud83d\n')
      expect(prompt).toContain('assistant: \ude00reply\n')
      expect(prompt.endsWith('live\ud800')).toBe(true)
    })
  })

  describe('logPath', () => {
    test('reads the end of a JSON Lines file and reports skipped lines', () => {
      const logPath = tmpFile()
      const entries = conversation(8)
      writeLog(logPath, [
        entries[0],
        'garbage',
        entries[1],
        '{"role":"user"}',
        ...entries.slice(2),
        '',
        user('live', { id: 'L' }),
      ])
      appendRaw(logPath, '{"role":"tool","text":"partial')
      const report = buildReport({ userMessage: 'live', reload: true, logPath, nonce: N })
      expect(report.injectedEntryIds).toEqual(entries.map((e) => e.id))
      expect(report.skippedLogLines).toBe(3)
      expect(report.prompt).toBe(
        buildPrompt({ userMessage: 'live', reload: true, logEntries: [...entries, user('live')], nonce: N }),
      )
      const continuous = buildReport({ userMessage: 'live', reload: false, logPath })
      expect(continuous.injectedEntryIds).toEqual(['id6', 'id7'])
    })

    test('logEntries win over logPath', () => {
      const logPath = tmpFile()
      writeLog(logPath, [user('from file')])
      const report = buildReport({ userMessage: 'x', reload: true, logPath, logEntries: [user('from data')] })
      expect(report.prompt).toContain('from data')
      expect(report.prompt).not.toContain('from file')
      expect(report.skippedLogLines).toBe(0)
    })

    test('a missing log file is the first run: no entries, no error', () => {
      const report = buildReport({ ...L, userMessage: 'hi', reload: true, logPath: path.join(tmp.dir, 'nope.jsonl') })
      expect(report).toEqual(
        expect.objectContaining({ prompt: `${LIVE_SEP}\nhi`, entriesInjected: 0, skippedLogLines: 0, mode: 'reload' }),
      )
    })

    test('a directory as logPath throws ENOTREGULAR with the path', () => {
      expect(thrown(() => buildPrompt({ userMessage: 'x', reload: true, logPath: tmp.dir }))).toEqual(
        expect.objectContaining({ code: 'ENOTREGULAR', path: tmp.dir }),
      )
    })
  })

  test('the report and the plain builder agree', () => {
    const params = {
      userMessage: 'live',
      reload: true,
      turnMetadata: { a: 1 },
      continuitySummary: SUMMARY,
      logEntries: conversation(30),
      maxChars: 1200,
      nonce: N,
    }
    const report = buildReport(params)
    expect(buildPrompt(params)).toBe(report.prompt)
    expect(report.chars).toBe(report.prompt.length)
    expect(Object.keys(report).sort()).toEqual(
      [
        'chars',
        'entriesAlreadyHeld',
        'entriesInjected',
        'entriesOmitted',
        'entriesRecalled',
        'injectedEntryIds',
        'mode',
        'nonce',
        'overBudget',
        'prompt',
        'recalledLines',
        'skippedLogLines',
        'summaryTrimmed',
      ].sort(),
    )
    expect(report.injectedEntryIds).toHaveLength(report.entriesInjected)
  })

  test.each([
    ['params', () => buildPrompt()],
    ['params', () => buildPrompt('x')],
    ['params.userMessage', () => buildPrompt({ reload: true })],
    ['params.userMessage', () => buildPrompt({ userMessage: 5, reload: true })],
    ['params.reload', () => buildPrompt({ userMessage: 'x' })],
    ['params.reload', () => buildPrompt({ userMessage: 'x', reload: 'yes' })],
    ['params.reload', () => buildPrompt({ userMessage: 'x', reload: 1 })],
    [
      'params.logEntries[2].role',
      () =>
        buildPrompt({ userMessage: 'x', reload: true, logEntries: [user('a'), user('b'), { role: 'bot', text: 'c' }] }),
    ],
    [
      'params.logEntries[0].(text|content)',
      () => buildPrompt({ userMessage: 'x', reload: true, logEntries: [{ role: 'user' }] }),
    ],
    [
      'params.logEntries[0].ts',
      () => buildPrompt({ userMessage: 'x', reload: true, logEntries: [user('a', { ts: {} })] }),
    ],
    [
      'params.logEntries[0].status',
      () => buildPrompt({ userMessage: 'x', reload: true, logEntries: [assistant('a', 7)] }),
    ],
    ['params.logEntries', () => buildPrompt({ userMessage: 'x', reload: true, logEntries: 'nope' })],
    ['params.turnMetadata.x', () => buildPrompt({ userMessage: 'x', reload: true, turnMetadata: { x: {} } })],
    ['params.turnMetadata.y', () => buildPrompt({ userMessage: 'x', reload: true, turnMetadata: { x: 1, y: [1] } })],
    ['params.turnMetadata', () => buildPrompt({ userMessage: 'x', reload: true, turnMetadata: 5 })],
    ['params.continuitySummary', () => buildPrompt({ userMessage: 'x', reload: true, continuitySummary: 5 })],
    ['params.logPath', () => buildPrompt({ userMessage: 'x', reload: true, logPath: 5 })],
    ['params.maxChars', () => buildPrompt({ userMessage: 'x', reload: true, maxChars: '100' })],
    ['params.reloadEntries', () => buildPrompt({ userMessage: 'x', reload: true, reloadEntries: '3' })],
    ['params.continuousEntries', () => buildPrompt({ userMessage: 'x', reload: false, continuousEntries: true })],
  ])('wrong type → TypeError naming %s', (name, call) => {
    const error = thrown(call)
    expect(error).toEqual(expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }))
    // `name` is a pattern: a missing `text` may be reported under its alias `content`.
    expect(error.message).toMatch(new RegExp(`"${name.replace(/[[\].]/g, '\\$&')}"`))
  })

  test('the Report export validates the same way', () => {
    expectTypeError(
      () => buildReport({ userMessage: 'x', reload: true, turnMetadata: { x: {} } }),
      'params.turnMetadata.x',
    )
  })

  test('a Proxy whose getter throws: that very error propagates', () => {
    const sentinel = new Error('getter exploded')
    const params = new Proxy(
      { userMessage: 'x', reload: true },
      {
        get(target, key) {
          if (key === 'logEntries') throw sentinel
          return target[key]
        },
      },
    )
    expect(thrown(() => buildPrompt(params))).toBe(sentinel)
    expect(thrown(() => buildReport(params))).toBe(sentinel)
    const entry = new Proxy(
      {},
      {
        get() {
          throw sentinel
        },
      },
    )
    expect(thrown(() => buildPrompt({ userMessage: 'x', reload: true, logEntries: [entry] }))).toBe(sentinel)
    expect(thrown(() => rebuild({ entries: [entry] }))).toBe(sentinel)
    const throwingState = {
      get decisions() {
        throw sentinel
      },
    }
    expect(thrown(() => rebuild({ state: throwingState }))).toBe(sentinel)
    // A non-Error value thrown by a getter propagates too.
    const odd = new Proxy(
      {},
      {
        get: () => {
          throw 'plain string'
        },
      },
    ) // eslint-disable-line no-throw-literal
    expect(thrown(() => buildPrompt(odd))).toBe('plain string')
  })
})
