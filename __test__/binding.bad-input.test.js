'use strict'
// The bad-input matrix: every export × each argument (and each field of the
// params objects) × hostile values. Each call returns a value of the right
// type or throws an error that names the argument (or carries a file error's
// code and path, or is the caller's own exception from a throwing getter or
// toString); nothing crashes the process.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { isDeepStrictEqual } = require('node:util')
const native = require('../index.js')
const { paramKeys } = require('../dev/param-shapes.js')

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-bad-'))
const logPath = path.join(dir, 'log.jsonl')
fs.writeFileSync(logPath, '{"role":"user","text":"hi","ts":"2026-05-15T10:00:00Z"}\n')
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

class OwnError extends Error {}
const throwingProxy = new Proxy(
  {},
  {
    get() {
      throw new OwnError('trap')
    },
    has() {
      throw new OwnError('trap')
    },
    ownKeys() {
      throw new OwnError('trap')
    },
  },
)
const throwingToString = {
  toString() {
    throw new OwnError('toString')
  },
  valueOf() {
    throw new OwnError('valueOf')
  },
}

const HOSTILE = {
  undefined: undefined,
  null: null,
  zero: 0,
  minusOne: -1,
  fraction: 1.5,
  NaN: NaN,
  Infinity: Infinity,
  minusInfinity: -Infinity,
  '2**33': 2 ** 33,
  true: true,
  false: false,
  symbol: Symbol('x'),
  bigint: 10n,
  array: ['a', 1],
  object: { a: 1 },
  function: () => 'x',
  throwingProxy,
  throwingToString,
  string5MB: 'x'.repeat(5 * 1024 * 1024),
  loneSurrogates: `${'\ud800\udc00\ud800\udfff\udbff'.repeat(1000)}\ud800`,
  entryWrongTypes: { role: 7, text: ['x'], ts: {}, session: 1, status: false, id: {} },
  holes2pow26: holes(2 ** 26),
}

/** An array of `length` holes: cheap to make, seconds to walk index by index. */
function holes(length) {
  const array = []
  array.length = length
  return array
}

const validEntries = () => [{ role: 'user', text: 'hi', ts: '2026-05-15T10:00:00Z', id: 'e1' }]
const EXPORTS = [
  {
    name: 'capCompactionSummary',
    args: () => ['## Decisions\n- a', 16000],
    argNames: ['summary', 'maxChars'],
    returns: 'string',
  },
  {
    name: 'capCompactionSummaryPreservingSuffix',
    args: () => ['## Decisions\n- a', '\n\n- b', 10, { tokenBudget: 100 }],
    argNames: ['summaryBody', 'suffix', 'maxChars', 'options'],
    fields: { 3: paramKeys('CapCompactionOptions') },
    returns: 'string',
  },
  {
    name: 'capCompactionSummaryReport',
    args: () => ['## Decisions\n- a', '\n\n- b', 10, {}],
    argNames: ['summaryBody', 'suffix', 'maxChars', 'options'],
    fields: { 3: paramKeys('CapCompactionOptions') },
    returns: 'object',
  },
  {
    name: 'readPersistentChatLogEntries',
    args: () => [logPath, 25, {}],
    argNames: ['path', 'limit', 'options'],
    fields: { 2: paramKeys('PersistentChatReadOptions') },
    returns: 'array',
  },
  {
    name: 'rebuildPersistentChatContinuitySummary',
    args: () => [
      {
        entries: validEntries(),
        state: { decisions: ['d'], timers: [{ name: 't', status: 'pending', due: 1 }] },
        currentSession: 's',
        now: '2026-05-15T10:00:00Z',
        maxChars: 500,
      },
    ],
    argNames: ['params'],
    fields: { 0: paramKeys('ContinuitySummaryParams') },
    returns: 'string',
  },
  {
    name: 'buildPersistentChatInjectedPrompt',
    args: () => [
      {
        userMessage: 'hello',
        reload: true,
        turnMetadata: { a: 1 },
        continuitySummary: 'S',
        logEntries: validEntries(),
        continuousEntries: 2,
        reloadEntries: 25,
        maxChars: 5000,
      },
    ],
    argNames: ['params'],
    fields: { 0: paramKeys('InjectedPromptParams') },
    returns: 'string',
  },
  {
    name: 'buildPersistentChatInjectedPromptReport',
    args: () => [{ userMessage: 'hello', reload: false, logPath }],
    argNames: ['params'],
    fields: { 0: paramKeys('InjectedPromptParams') },
    returns: 'object',
  },
]

// Where a hostile value goes: a whole argument, a field of a params object,
// or one log entry inside an entries array.
function cases() {
  const out = []
  for (const exp of EXPORTS) {
    exp.argNames.forEach((argName, index) => {
      for (const [label, value] of Object.entries(HOSTILE)) {
        out.push({
          exp,
          where: argName,
          label,
          build: () => {
            const a = exp.args()
            a[index] = value
            return a
          },
        })
      }
      for (const field of exp.fields?.[index] ?? []) {
        for (const [label, value] of Object.entries(HOSTILE)) {
          out.push({
            exp,
            where: `${argName}.${field}`,
            label,
            build: () => {
              const a = exp.args()
              a[index] = { ...a[index], [field]: value }
              return a
            },
          })
          if (field === 'entries' || field === 'logEntries') {
            out.push({
              exp,
              where: `${argName}.${field}[0]`,
              label,
              build: () => {
                const a = exp.args()
                a[index] = { ...a[index], [field]: [value] }
                return a
              },
            })
          }
        }
      }
    })
  }
  return out
}

const typeOk = (kind, value) =>
  kind === 'array'
    ? Array.isArray(value)
    : kind === 'object'
      ? value !== null && typeof value === 'object'
      : typeof value === kind

const all = cases()

test(`the matrix: ${all.length} calls`, () => {
  const problems = []
  let returned = 0
  let threw = 0
  for (const c of all) {
    let result
    try {
      result = native[c.exp.name](...c.build())
    } catch (err) {
      threw++
      if (err instanceof OwnError) continue // the caller's own getter/toString threw: passed through
      const message = String(err && err.message)
      // The quoted name starts with where the value was put: `"params.logEntries[0].role"`.
      const named = message.includes(`"${c.where}`)
      const fileError = typeof err.code === 'string' && typeof err.path === 'string'
      if (!(named || fileError) || typeof err.code !== 'string')
        problems.push(`${c.exp.name} ${c.where}=${c.label}: ${err.name} ${err.code} ${message.slice(0, 160)}`)
      continue
    }
    returned++
    if (!typeOk(c.exp.returns, result)) problems.push(`${c.exp.name} ${c.where}=${c.label}: returned ${typeof result}`)
  }
  console.log(
    `bad-input matrix: ${all.length} calls (${returned} returned a value, ${threw} threw a named error); the process survived`,
  )
  expect(problems).toEqual([])
})

test('wrong types are TypeErrors with ERR_INVALID_ARG_TYPE; bad counts are RangeErrors', () => {
  expect(() => native.readPersistentChatLogEntries(logPath, -1)).toThrow(
    expect.objectContaining({ name: 'RangeError', code: 'ERR_OUT_OF_RANGE' }),
  )
  expect(() => native.readPersistentChatLogEntries(logPath, '25')).toThrow(
    expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }),
  )
  expect(() =>
    native.buildPersistentChatInjectedPrompt({ userMessage: 'x', reload: true, logEntries: [HOSTILE.entryWrongTypes] }),
  ).toThrow(
    expect.objectContaining({ name: 'TypeError', message: expect.stringContaining('"params.logEntries[0].role"') }),
  )
  expect(() => native.rebuildPersistentChatContinuitySummary({ state: { timers: [{ name: 1 }] } })).toThrow(
    expect.objectContaining({ name: 'TypeError', message: expect.stringContaining('"params.state.timers[0].name"') }),
  )
})

test('an array argument is checked by its length before it is walked', () => {
  const tooLong = { name: 'RangeError', code: 'ERR_OUT_OF_RANGE' }
  const calls = [
    [
      'params.logEntries',
      () => native.buildPersistentChatInjectedPrompt({ userMessage: 'x', reload: true, logEntries: holes(2 ** 26) }),
    ],
    ['params.entries', () => native.rebuildPersistentChatContinuitySummary({ entries: holes(2 ** 26) })],
    [
      'params.state.decisions',
      () => native.rebuildPersistentChatContinuitySummary({ state: { decisions: holes(2 ** 26) } }),
    ],
    [
      'params.state.timers',
      () => native.rebuildPersistentChatContinuitySummary({ state: { timers: holes(2 ** 32 - 1) } }),
    ],
    [
      'options.requiredHeadings',
      () => native.capCompactionSummaryPreservingSuffix('b', 's', 100, { requiredHeadings: holes(2 ** 26) }),
    ],
    [
      'options.protectedIdentifiers',
      () => native.capCompactionSummaryReport('b', 's', 100, { protectedIdentifiers: holes(65537) }),
    ],
  ]
  for (const [name, call] of calls) {
    expect(call).toThrow(
      expect.objectContaining({
        ...tooLong,
        message: expect.stringContaining(`"${name}" is out of range. It must be <= 65536`),
      }),
    )
  }
  // At the bound, the walk reads items and stops at the first bad one.
  expect(() => native.rebuildPersistentChatContinuitySummary({ entries: holes(65536) })).toThrow(
    expect.objectContaining({ name: 'TypeError', message: expect.stringContaining('"params.entries[0]"') }),
  )
  const turnMetadata = Object.fromEntries(Array.from({ length: 65537 }, (_, i) => [`k${i}`, 1]))
  expect(() => native.buildPersistentChatInjectedPrompt({ userMessage: 'x', reload: false, turnMetadata })).toThrow(
    expect.objectContaining({ ...tooLong, message: expect.stringContaining('"Object.keys(params.turnMetadata)"') }),
  )
})

test('huge and odd strings round-trip through the caps exactly', () => {
  const big = HOSTILE.loneSurrogates
  expect(native.capCompactionSummary(big, Infinity)).toBe(big)
  expect(native.capCompactionSummaryPreservingSuffix(big, big, 0)).toBe(big + big)
  const five = HOSTILE.string5MB
  expect(native.capCompactionSummaryPreservingSuffix(five, five, 16000).length).toBeLessThanOrEqual(16000)
})

// The Promise variants take the same arguments: each case gives the same
// value, or rejects (never throws) with an error of the same name, code,
// message, path and syscall; the caller's own exception is handed on as is.
const ASYNC_OF = {
  readPersistentChatLogEntries: 'readPersistentChatLogEntriesAsync',
  rebuildPersistentChatContinuitySummary: 'rebuildPersistentChatContinuitySummaryAsync',
  buildPersistentChatInjectedPrompt: 'buildPersistentChatInjectedPromptAsync',
  buildPersistentChatInjectedPromptReport: 'buildPersistentChatInjectedPromptReportAsync',
}
const errorShape = (err) =>
  err instanceof OwnError
    ? { own: err.message }
    : {
        name: err && err.name,
        code: err && err.code,
        message: err && err.message,
        path: err && err.path,
        syscall: err && err.syscall,
      }

const asyncCases = all.filter((c) => ASYNC_OF[c.exp.name])

/**
 * A result with its prompt's nonce (drawn for each prompt unless a case
 * gives one) replaced by a placeholder, so that two builds compare.
 */
function withoutNonce(result) {
  const prompt = typeof result.value === 'string' ? result.value : result.value?.prompt
  const nonce = typeof prompt === 'string' && /^Only lines with ([0-9a-f]{16,64}) are structure\./.exec(prompt)?.[1]
  if (!nonce) return result
  const strip = (text) => text.split(nonce).join('<nonce>')
  if (typeof result.value === 'string') return { value: strip(result.value) }
  return { value: { ...result.value, prompt: strip(result.value.prompt), nonce: strip(result.value.nonce) } }
}

test(`the Promise variants: ${asyncCases.length} calls, same values and same errors`, async () => {
  const problems = []
  let rejected = 0
  for (const c of asyncCases) {
    const args = c.build()
    let expected
    try {
      expected = { value: native[c.exp.name](...args) }
    } catch (err) {
      expected = { error: errorShape(err) }
    }
    let promise
    try {
      promise = native[ASYNC_OF[c.exp.name]](...c.build())
    } catch (err) {
      problems.push(`${c.exp.name} ${c.where}=${c.label}: threw ${err && err.message}`)
      continue
    }
    if (typeof promise?.then !== 'function') {
      problems.push(`${c.exp.name} ${c.where}=${c.label}: returned ${typeof promise}`)
      continue
    }
    let actual
    try {
      actual = { value: await promise }
    } catch (err) {
      rejected++
      actual = { error: errorShape(err) }
    }
    if (!isDeepStrictEqual(withoutNonce(actual), withoutNonce(expected))) {
      problems.push(
        `${c.exp.name} ${c.where}=${c.label}: ${JSON.stringify(actual).slice(0, 200)} vs ${JSON.stringify(expected).slice(0, 200)}`,
      )
    }
  }
  console.log(`Promise variants: ${asyncCases.length} calls (${rejected} rejected), each as its sync export`)
  expect(problems).toEqual([])
  // 735 round trips through the thread pool, one after another: seconds under Wine or qemu.
}, 60000)
