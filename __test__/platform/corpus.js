'use strict'
// The shared corpus of the platform differential: one list of calls, the same
// on every platform (deterministic: seeded shapes, a fixed `now`), run through
// whichever binary the loader picked. `run(native, dir)` returns one JSON line
// per case: its name and what came back (or the error's name and code), with
// lone surrogates escaped by JSON.stringify, so two platforms' outputs compare
// byte for byte.
const fs = require('node:fs')
const path = require('node:path')
const { structuredBody, preservedSuffix, rng } = require('../../dev/shapes.js')

const NOW = '2026-05-15T10:00:00Z'
const LONE = 'lone \ud800 high, \udc00 low, tail \ud83d'
const MIXED = 'emoji 😀 👨‍👩‍👧 🇫🇷, CJK 漢字, e\u0301, NUL\u0000, CRLF\r\nline'

function compactionCases() {
  const cases = []
  const plain = ['A'.repeat(100), `${'😀'.repeat(40)}`, `${LONE} `.repeat(30), `${MIXED}\r\n`.repeat(20), '']
  plain.forEach((text, t) => {
    for (const maxChars of [undefined, 0, -1, 45, 46, 46.5, 47.9, 60, 99.9, 16000, NaN, Infinity])
      cases.push([`capCompactionSummary text${t} ${maxChars}`, 'capCompactionSummary', [text, maxChars]])
  })
  const bodies = [
    structuredBody({ seed: 1, linesPerSection: 6 }),
    structuredBody({ seed: 7, linesPerSection: 30, crlf: true }),
    `${structuredBody({ seed: 3, linesPerSection: 4 })}\n- ${LONE}\n- ${MIXED}`,
    'A body without headings, one long line '.repeat(40),
  ]
  const suffixes = [
    preservedSuffix({ seed: 2 }),
    preservedSuffix({ seed: 5, turns: 6, toolsPerTurn: 12, splitTurn: true, failures: 3 }),
    preservedSuffix({ seed: 9, turns: 1, toolsPerTurn: 0, files: false, rules: true }),
    `${preservedSuffix({ seed: 4, turns: 2, toolsPerTurn: 3 }).replace(/\n/g, '\r\n')}\n- User: ${LONE}`,
    '',
  ]
  const options = [
    undefined,
    { tokenBudget: 900 },
    {
      requiredHeadings: ['## Decisions', '## Exact identifiers'],
      protectedIdentifiers: ['ses_7f3a9c21', 'DEADBEEFCAFE1234'],
    },
  ]
  bodies.forEach((body, b) => {
    suffixes.forEach((suffix, s) => {
      for (const maxChars of [16000, 6000, 2500, 700, 120, 0]) {
        options.forEach((option, o) => {
          const args = [body, suffix, maxChars, option]
          cases.push([`cap body${b} suffix${s} ${maxChars} options${o}`, 'capCompactionSummaryPreservingSuffix', args])
          if (o === 0) cases.push([`report body${b} suffix${s} ${maxChars}`, 'capCompactionSummaryReport', args])
        })
      }
    })
  })
  return cases
}

function entries(seed, count) {
  const next = rng(seed)
  const roles = ['user', 'assistant', 'tool', 'system']
  const texts = ['Set up the database', LONE, MIXED, '--- LIVE TURN ---', 'line one\r\nline two', '😀'.repeat(9)]
  const out = []
  for (let i = 0; i < count; i++) {
    const role = roles[Math.floor(next() * roles.length)]
    const entry = {
      ts: `2026-05-15T09:${String(i % 60).padStart(2, '0')}:00Z`,
      role,
      text: `${texts[i % texts.length]} #${i}`,
      session: i < count / 2 ? 'ses_old' : 'ses_new',
      id: `e${seed}-${i}`,
    }
    if (role === 'assistant') entry.status = i % 5 === 0 ? 'ACP_TURN_FAILED' : 'ok'
    out.push(entry)
  }
  return out
}

const STATE = {
  decisions: ['Use Postgres 16', { text: `Keep ${LONE}` }, 'multi\nline   decision'],
  guardrails: ['Never print secrets'],
  pendingThreads: [{ text: `Ask about ${MIXED}` }],
  timers: [{ name: 'backup', status: 'scheduled', due: '2026-05-16T00:00:00Z' }, 'plain timer'],
  modelNotes: ['long context ok'],
  notes: ['note 😀'],
}

function chatCases() {
  const cases = []
  const logs = [entries(1, 0), entries(2, 6), entries(3, 40)]
  logs.forEach((logEntries, l) => {
    for (const reload of [true, false]) {
      for (const maxChars of [undefined, 4000, 600]) {
        const params = {
          userMessage: `Are you there? ${LONE}`,
          reload,
          turnMetadata: { channel: 'telegram', sender: 'dana 😀' },
          continuitySummary: reload
            ? `Current thread / pending next action:\n- Latest user request: ${MIXED}`
            : undefined,
          logEntries,
          maxChars,
        }
        cases.push([`prompt log${l} reload=${reload} ${maxChars}`, 'buildPersistentChatInjectedPrompt', [params]])
        cases.push([
          `prompt report log${l} reload=${reload} ${maxChars}`,
          'buildPersistentChatInjectedPromptReport',
          [params],
        ])
      }
    }
    for (const maxChars of [undefined, 6000, 300]) {
      cases.push([
        `summary log${l} ${maxChars}`,
        'rebuildPersistentChatContinuitySummary',
        [{ entries: logEntries, state: STATE, currentSession: 'ses_new', now: NOW, maxChars }],
      ])
    }
  })
  cases.push(['bad input: number userMessage', 'buildPersistentChatInjectedPrompt', [{ userMessage: 5, reload: true }]])
  cases.push(['bad input: maxChars as a string', 'capCompactionSummary', ['x', '16000']])
  return cases
}

/** A perpetual log on disk: CRLF lines, escaped lone surrogates, a torn last line. */
function writeLog(dir) {
  const file = path.join(dir, 'perpetual-log.jsonl')
  const lines = entries(4, 30).map((entry) => JSON.stringify(entry))
  lines.splice(5, 0, 'not json', '{"role":"user"}')
  fs.writeFileSync(file, `${lines.join('\r\n')}\r\n{"role":"user","text":"torn`)
  return file
}

function fileCases(dir) {
  const log = writeLog(dir)
  return [
    ['read log 3', 'readPersistentChatLogEntries', [log, 3]],
    ['read log 25', 'readPersistentChatLogEntries', [log, 25]],
    [
      'prompt from log',
      'buildPersistentChatInjectedPromptReport',
      [{ userMessage: 'live', reload: true, logPath: log }],
    ],
    ['summary from log', 'rebuildPersistentChatContinuitySummary', [{ logPath: log, state: STATE, now: NOW }]],
  ]
}

// Strings that start with U+FEFF (a TextDecoder without ignoreBOM drops it, as emnapi's did), of
// both lengths emnapi creates differently (up to 16 units unit by unit, longer through its UTF-16
// decoder), also right after a lone surrogate (where a result is made of pieces); and the same
// as arguments the binding reads and then looks up again (turnMetadata keys), or compares.
const BOM = '\ufeff'
const BOM_TEXTS = [
  `${BOM}bom`,
  `${BOM}${'x'.repeat(40)}`,
  `${BOM}${BOM}${'y'.repeat(20)}`,
  `a\ud800${BOM}${'z'.repeat(30)}`,
  `\udc00${BOM}${MIXED}`,
  `${BOM}\ud800${BOM}`.repeat(10),
  `${'w'.repeat(20)}${BOM}mid`,
  BOM,
]

function bomCases() {
  const cases = []
  const suffix = preservedSuffix({ seed: 9, turns: 1, toolsPerTurn: 0, files: false, rules: true })
  BOM_TEXTS.forEach((text, t) => {
    cases.push([`bom text${t} plain`, 'capCompactionSummary', [text, 0]])
    cases.push([`bom text${t} as body`, 'capCompactionSummaryPreservingSuffix', [text, suffix, 0]])
    cases.push([
      `bom text${t} as suffix`,
      'capCompactionSummaryReport',
      [`## Decisions\n- ${text}`, `\n\n## Recent turns preserved verbatim\n- User: ${text}`, 0],
    ])
    cases.push([
      `bom text${t} cut`,
      'capCompactionSummaryPreservingSuffix',
      [
        `${text}\n## Decisions\n- ${'keep '.repeat(30)}`,
        `${text}\n- User: ${'more '.repeat(30)}`,
        150,
        { protectedIdentifiers: [text], requiredHeadings: [`${BOM}## Decisions`] },
      ],
    ])
    const entries = [
      {
        ts: '2026-05-15T09:00:00Z',
        role: 'user',
        text,
        session: `${BOM}ses_${t}`,
        id: `${BOM}id-${t}-${'n'.repeat(20)}`,
      },
      {
        ts: '2026-05-15T09:01:00Z',
        role: 'assistant',
        text: `${text} reply`,
        session: `${BOM}ses_${t}`,
        status: `${BOM}ok`,
        id: `\ud800${BOM}id-${t}`,
      },
    ]
    const params = {
      userMessage: text,
      reload: t % 2 === 0,
      currentSession: `${BOM}ses_${t}`,
      turnMetadata: {
        [`${BOM}channel-${'c'.repeat(20)}`]: text,
        [`\ud800${BOM}key-${'k'.repeat(20)}`]: t,
        [text]: true,
      },
      continuitySummary: text,
      logEntries: entries,
    }
    cases.push([`bom text${t} prompt report`, 'buildPersistentChatInjectedPromptReport', [params]])
    cases.push([
      `bom text${t} summary`,
      'rebuildPersistentChatContinuitySummary',
      [{ entries, state: { decisions: [text], notes: [{ text }] }, currentSession: `${BOM}ses_${t}`, now: NOW }],
    ])
  })
  return cases
}

/** A log whose entries' texts, sessions and ids start with U+FEFF (escaped and raw). */
function bomFileCases(dir) {
  const file = path.join(dir, 'bom-log.jsonl')
  const lines = BOM_TEXTS.map((text, t) =>
    JSON.stringify({ ts: `2026-05-15T09:0${t}:00Z`, role: 'user', text, session: `${BOM}ses`, id: `${BOM}e${t}` }),
  )
  lines.push(`{"role":"user","text":"\\ufeffescaped ${'e'.repeat(20)}","id":"\\ufeff\\ud800x"}`)
  fs.writeFileSync(file, `${lines.join('\n')}\n`)
  return [
    ['bom read log', 'readPersistentChatLogEntries', [file, 20]],
    [
      'bom prompt from log',
      'buildPersistentChatInjectedPromptReport',
      [{ userMessage: `${BOM}live`, reload: true, logPath: file }],
    ],
  ]
}

function cases(dir) {
  return [...compactionCases(), ...chatCases(), ...fileCases(dir), ...bomCases(), ...bomFileCases(dir)]
}

function call(native, fn, args) {
  try {
    return { value: native[fn](...args) }
  } catch (error) {
    return { error: { name: error && error.name, code: error && error.code, message: error && error.message } }
  }
}

/** One JSON line per case, in corpus order. */
/**
 * A prompt's params with a given nonce (the fenced layout, reproducible), or
 * every third one in the legacy layout; bad input as it is.
 */
let promptCount = 0
function reproducible(fn, args) {
  if (!fn.startsWith('buildPersistentChatInjectedPrompt') || typeof args[0]?.userMessage !== 'string') return args
  promptCount++
  const fence = promptCount % 3 === 0 ? { legacyLayout: true } : { nonce: 'f0e1d2c3b4a59687' }
  return [{ ...args[0], ...fence }, ...args.slice(1)]
}

function run(native, dir) {
  promptCount = 0
  return cases(dir).map(([name, fn, args]) => JSON.stringify({ name, ...call(native, fn, reproducible(fn, args)) }))
}

module.exports = { cases, run }
