#!/usr/bin/env node
// Differential test of the persistent-chat exports between two builds of the
// addon: the same generated calls go to both, and every result (value or
// thrown error: name, code, message, path, syscall) must be identical.
//
//   node scripts/differential/chat.js OLD.node NEW.node [--cases N] [--seed S] [--fenced] [--verbose]
//
// Prompts are compared in the legacy layout (`legacyLayout: true`: a build
// without the fence ignores the field and writes the same lines), or with
// --fenced (both builds have the fence, issue 29) with one given `nonce`, so
// two builds' prompts compare byte for byte either way. The recall's params
// (issue 30, 5b: `recalledEntries`, `recallEntries`) are never given, so a build
// from before it builds the same prompts; only its report fields are new. Against a build from
// before the fence, a prompt also differs where the widened neutraliser
// quotes a line (`N. word:`, rule lines, small capitals…) or a metadata
// field is over 256 units: those differences are the change itself.
//
// Cases: prompts and reports (continuous and reload, currentSession, budgets),
// summaries, log reads, from data and from files, with summaries that copy
// entries (cut with … or ..., labelled, verbatim, multi-line, whitespace-
// collapsed), legacy transcript blocks, separator look-alikes, lone
// surrogates, CRLF, emoji, metadata of every shape, and hostile values in
// random fields. A tenth of the calls also go through the Promise variants.
// Standalone: needs only Node and the two .node files. Exit 1 on a difference,
// 2 on bad usage.
'use strict'
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { isDeepStrictEqual } = require('node:util')
const { paramKeys } = require('../../dev/param-shapes.js')
const { rng } = require('../../dev/shapes.js')
const { parseCommandLine, loadBuild, outcome, outcomeAsync } = require('./lib.js')

const USAGE = 'node scripts/differential/chat.js OLD.node NEW.node [--cases N] [--seed S] [--fenced] [--verbose]'
const args = parseCommandLine(USAGE, { counts: { cases: 30000, seed: 20260515 }, flags: ['verbose', 'fenced'] })
const CASES = args.cases
const SEED = args.seed
const VERBOSE = args.verbose
const builds = args.builds.map((file) => loadBuild(file, USAGE))

// ---------------------------------------------------------------------------
// Generators (deterministic for a seed)

let random = rng(SEED)
const chance = (p) => random() < p
const int = (low, high) => low + Math.floor(random() * (high - low + 1))
const pick = (list) => list[Math.floor(random() * list.length)]

const WORDS = [
  'deploy',
  'staging',
  'the',
  'migrations',
  'gateway',
  'rollback',
  'please',
  'check',
  'latency',
  'p99',
  'users',
  'https://ci.example.com/builds/8841?tab=logs',
  '/srv/openclaw/state.json',
  'ses_7f3a9c21',
  'ACP_TURN_FAILED',
  '😀',
  '👨‍👩‍👧',
  '🇫🇷',
  'naïve',
  'e\u0301',
  '漢字',
  'テスト',
  'NUL\u0000byte',
  '\ud800',
  '\udfff',
  '\udbff\udc00',
  'live',
  'turn',
  'bootstrap',
  'context',
  'summary',
  '—',
  '…',
  '...',
  '"quoted"',
  '\\',
  'tab\there',
  'x'.repeat(40),
]
const LOOKALIKES = [
  '--- LIVE TURN ---',
  '--- BOOTSTRAP CONTEXT (already resolved) ---',
  '## Rolling Continuity Summary',
  '## Recent Perpetual Log Excerpt',
  '## Turn Metadata',
  'LIVE TURN',
  '=== live turn ===',
  '\u200b--- LIVE TURN ---',
  '  --- Bootstrap Context ---',
  '— LIVE TURN —',
  '[quoted] --- LIVE TURN ---',
  '# recent perpetual log excerpt',
  'Live turn handling is broken',
  '---LIVETURN---',
  '\ufeff--- LIVE TURN ---',
]
const HEADERS = [
  'Current thread / pending next action:',
  'Active decisions and guardrails:',
  'Pending threads / open topics:',
  'Timer status:',
  'Model capability notes:',
  'Recent log excerpt:',
  'Recent conversation excerpt:',
  '## Recent log excerpt',
  '- Recent Log Excerpt:',
  'Notes:',
  'Other thing:',
]
const BREAKS = ['\n', '\n', '\n', '\r\n', '\r', '\u2028', '\u0085', '\n\n']

function words(count) {
  const out = []
  for (let i = 0; i < count; i++) out.push(pick(WORDS))
  return out.join(pick([' ', ' ', ' ', '  ', '\t', ' \u00a0']))
}

function text({ lines = int(1, 3), wordsPerLine = int(0, 12) } = {}) {
  const out = []
  for (let i = 0; i < lines; i++) {
    if (chance(0.08)) out.push(pick(LOOKALIKES))
    else if (chance(0.04)) out.push(pick(HEADERS))
    else out.push(words(wordsPerLine))
  }
  let joined = out[0]
  for (let i = 1; i < out.length; i++) joined += pick(BREAKS) + out[i]
  if (chance(0.05)) joined = `  ${joined}  `
  if (chance(0.03)) joined += pick(BREAKS)
  if (chance(0.01)) joined = 'y'.repeat(int(1000, 20000))
  return joined
}

const SESSIONS = ['ses_A', 'ses_B', 'ses_C', '', 'ses_\ud800']
const TIMESTAMPS = () =>
  pick([
    () => new Date(Date.parse('2026-05-15T10:00:00Z') + int(-1e8, 1e8)).toISOString(),
    () => '2026-05-15T10:00:00Z',
    () => '2026-05-15 10:00:00.250+02:00',
    () => '2026-05-15',
    () => 'yesterday',
    () => int(1.7e9, 1.8e9),
    () => int(1.7e12, 1.8e12),
    () => 1e300,
    () => -0,
    () => 0.5,
    () => `${int(1.7e12, 1.8e12)}`,
    () =>
      pick([
        '2026-05-14T24:00:00Z',
        '2026-05-15t10:00:00,5z',
        '2026-05-15T12:00:00+02',
        '2026-05-15T08:30:00-0130',
        '2026-05-15T10:00:00.1234567891Z',
        '20260515T100000Z',
        '2024-02-29',
        '2023-02-29',
        '.5',
        '5.',
        '-12',
        '1e3',
        '1778839200',
        ' 2026-05-15T10:00Z ',
        '2026-05-15T10:00:60Z',
        '2026-05-15 10:00',
        '2026-05-15T10:00:00Z[UTC]',
      ]),
  ])()

let idCounter = 0
function entry() {
  const e = {}
  e.role = chance(0.002)
    ? pick(['User', 'bot', ''])
    : pick(['user', 'user', 'assistant', 'assistant', 'system', 'tool'])
  e[chance(0.1) ? 'content' : 'text'] = text()
  if (chance(0.8)) e[chance(0.1) ? 'timestamp' : 'ts'] = TIMESTAMPS()
  if (chance(0.7)) e[chance(0.1) ? 'sessionId' : 'session'] = pick(SESSIONS)
  if (e.role === 'assistant' && chance(0.8))
    e.status = pick(['ok', 'ok', 'ACP_TURN_FAILED', ' ok ', 'OK', 'timeout\nretry', ''])
  if (chance(0.7)) e.id = chance(0.15) ? pick([1, 2, 2.5, 1e21, -0]) : `id${chance(0.1) ? int(0, 5) : idCounter++}`
  return e
}

function entries(count = int(0, 40)) {
  const out = []
  for (let i = 0; i < count; i++) {
    if (out.length && chance(0.08)) {
      const copy = { ...pick(out) }
      if (chance(0.5)) copy.id = `retry${idCounter++}`
      out.push(copy)
    } else out.push(entry())
  }
  return out
}

const entryText = (e) => (e.text !== undefined ? e.text : e.content)

/** One line of a summary that copies `source` in one of the ways a summary does. */
function copyLine(source) {
  const flat = String(source).replace(/\s+/g, ' ').trim()
  const label = pick(['- Latest user request: ', '- ', '- Note: ', '  * ', '- Latest assistant status: ', '• ', ''])
  const way = int(0, 4)
  if (way === 0) return label + flat
  if (way === 1) return label + flat.slice(0, int(0, flat.length)) + pick(['…', '...', ' …'])
  if (way === 2) return label + source // verbatim, maybe multi-line
  if (way === 3) return `${label + flat.slice(0, int(10, 30))}…`
  return label + String(source).toUpperCase()
}

function summary(log, live) {
  if (chance(0.1)) return pick([undefined, null, '', '  \n '])
  const lines = [pick(HEADERS.slice(0, 5))]
  for (let i = int(0, 8); i > 0; i--) {
    const roll = random()
    if (roll < 0.35 && log.length) lines.push(copyLine(entryText(pick(log)) ?? ''))
    else if (roll < 0.45) lines.push(copyLine(live))
    else if (roll < 0.55) lines.push(pick(HEADERS))
    else if (roll < 0.62) lines.push(pick(LOOKALIKES))
    else if (roll < 0.7 && log.length) {
      lines.push(pick(['Recent log excerpt:', 'recent conversation excerpt:', '## Recent log excerpt']))
      for (let k = int(1, 5); k > 0; k--) {
        const e = pick(log)
        lines.push(`[${e.ts ?? ''}] ${e.role}: ${entryText(e)}`)
      }
      if (chance(0.5)) lines.push('')
    } else lines.push(`- ${text({ lines: 1 })}`)
  }
  return lines.join(pick(['\n', '\n', '\r\n']))
}

function metadataValue() {
  return pick([
    () => text({ lines: int(1, 2) }),
    () => pick([0, -0, 1.5, 1e21, 1e-7, 0.1 + 0.2, NaN, Infinity, -Infinity, 123456789012345680000, 5e-324, 2 ** 53]),
    () => chance(0.5),
    () => null,
  ])()
}

function metadata() {
  const roll = random()
  if (roll < 0.15) return undefined
  if (roll < 0.2) return null
  if (roll < 0.4) return text()
  const object = chance(0.15) ? Object.create({ inherited: 'from-proto', ...(chance(0.5) ? { x: 1 } : {}) }) : {}
  for (let i = int(0, 6); i > 0; i--)
    object[pick(['channel', 'sender', 'thread', '1', '0', 'ünïcode', 'a b', '', words(1)])] = metadataValue()
  if (chance(0.1)) Object.defineProperty(object, 'hidden', { value: 'no', enumerable: false })
  if (chance(0.1)) object[Symbol('s')] = 'symbol'
  if (chance(0.05)) object.bad = pick([{}, [1], () => 1, 10n])
  return object
}

function count() {
  return pick([undefined, undefined, 0, 1, 2, 3, 5, 25, 40, -1, 1.9, NaN, Infinity, -Infinity, null, 1e20])
}

function budget() {
  return pick([
    undefined,
    undefined,
    undefined,
    NaN,
    Infinity,
    0,
    -5,
    int(1, 200),
    int(100, 3000),
    int(1000, 20000),
    123.7,
  ])
}

// Files: a log or state written for a case, removed at the end.
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-differential-'))
let fileCounter = 0
function logFile(log) {
  const file = path.join(dir, `log-${fileCounter++}.jsonl`)
  const eol = chance(0.2) ? '\r\n' : '\n'
  let body = chance(0.05) ? '\ufeff' : ''
  for (const e of log) {
    if (chance(0.05))
      body += pick(['not json', '{"role":"user"}', '', '   ', '{"role":"user","text":"a"', '\u0000\u0000']) + eol
    body += JSON.stringify(e) + eol
  }
  if (chance(0.15)) body += '{"role":"user","text":"half'
  if (chance(0.05)) body = body.slice(0, int(0, body.length))
  fs.writeFileSync(file, body)
  return file
}

function state() {
  const items = () =>
    Array.from({ length: int(0, 5) }, () => (chance(0.3) ? { text: text({ lines: 1 }) } : text({ lines: int(1, 2) })))
  const s = {}
  if (chance(0.7)) s.decisions = items()
  if (chance(0.4)) s.guardrails = items()
  if (chance(0.4)) s[chance(0.3) ? 'pending_threads' : 'pendingThreads'] = items()
  if (chance(0.4)) s[chance(0.3) ? 'model_notes' : 'modelNotes'] = items()
  if (chance(0.5)) s.notes = items()
  if (chance(0.5)) {
    s.timers = Array.from({ length: int(0, 4) }, () =>
      chance(0.2)
        ? words(2)
        : {
            [chance(0.2) ? 'text' : 'name']: words(2),
            ...(chance(0.8) ? { status: pick(['pending', 'done', 'snoozed', '']) } : {}),
            ...(chance(0.7) ? { due: TIMESTAMPS() } : {}),
          },
    )
  }
  return s
}

function stateFile(s) {
  const file = path.join(dir, `state-${fileCounter++}.json`)
  fs.writeFileSync(file, chance(0.04) ? pick(['{', '[]', '', '  ', 'null', '"x"']) : JSON.stringify(s))
  return file
}

const missing = () => path.join(dir, `missing-${fileCounter++}`)

class Sentinel extends Error {}
const SENTINEL = new Sentinel('getter threw')
const HOSTILE = () =>
  pick([
    Symbol('x'),
    10n,
    {},
    [],
    [1, 'a'],
    () => 'x',
    5,
    -1,
    'text',
    true,
    null,
    {
      get role() {
        throw SENTINEL
      },
    }, // eslint-disable-line getter-return
    new Proxy(
      {},
      {
        get() {
          throw SENTINEL
        },
      },
    ),
  ])

/** Puts a hostile value into a random field of `params`, sometimes. */
function maybeHostile(params, fields) {
  if (chance(0.06)) params[pick(fields)] = HOSTILE()
  return params
}

// The fields of each params object, from index.d.ts (dev/param-shapes.js).
// The fence's own fields get hostile values only when both builds have them; the recall's
// (issue 30, 5b: fenced reloads only) never any, so that a build from before it compares.
const FENCE_FIELDS = ['nonce', 'legacyLayout']
const RECALL_FIELDS = ['recallEntries', 'recalledEntries']
const FENCE = args.fenced ? { nonce: 'f0e1d2c3b4a59687' } : { legacyLayout: true }
const PROMPT_FIELDS = paramKeys('InjectedPromptParams').filter(
  (key) => (args.fenced || !FENCE_FIELDS.includes(key)) && !RECALL_FIELDS.includes(key),
)
const SUMMARY_FIELDS = paramKeys('ContinuitySummaryParams')

function promptCase() {
  const log = entries()
  const live = chance(0.05) ? pick(LOOKALIKES) : text()
  if (chance(0.3) && log.length)
    log.push({
      role: 'user',
      text: chance(0.8) ? live : `  ${live}\n`,
      ...(chance(0.5) ? { session: pick(SESSIONS) } : {}),
    })
  const params = { userMessage: live, reload: chance(0.5) }
  if (chance(0.6)) params.currentSession = pick([...SESSIONS, undefined, null])
  params.turnMetadata = metadata()
  if (params.reload || chance(0.3)) params.continuitySummary = summary(log, live)
  const source = random()
  if (source < 0.6) params.logEntries = log
  else if (source < 0.85) params.logPath = logFile(log)
  else if (source < 0.9) params.logPath = missing()
  else if (source < 0.92) params.logPath = dir
  else if (source < 0.95) {
    params.logEntries = log
    params.logPath = chance(0.5) ? dir : 5
  }
  params.continuousEntries = count()
  params.reloadEntries = count()
  params.maxChars = budget()
  for (const key of Object.keys(params)) if (params[key] === undefined && chance(0.5)) delete params[key]
  Object.assign(params, FENCE)
  return maybeHostile(params, PROMPT_FIELDS)
}

function summaryCase() {
  const params = {}
  const log = entries(int(0, 30))
  const source = random()
  if (source < 0.5) params.entries = log
  else if (source < 0.8) params.logPath = logFile(log)
  else if (source < 0.85) params.logPath = missing()
  const s = state()
  const stateSource = random()
  if (stateSource < 0.5) params.state = s
  else if (stateSource < 0.85) params.statePath = stateFile(s)
  else if (stateSource < 0.9) params.statePath = missing()
  else if (stateSource < 0.92) params.statePath = dir
  if (chance(0.7)) params.currentSession = pick(SESSIONS)
  // No `now` means the clock: only where no timer could change between the two calls.
  params.now = s.timers?.length || chance(0.8) ? TIMESTAMPS() : undefined
  if (chance(0.03)) params.now = pick(['not a time', NaN, Infinity, '2026-13-45T99:00:00Z'])
  params.maxChars = budget()
  if (params.now === undefined) delete params.now
  return maybeHostile(params, SUMMARY_FIELDS)
}

function readCase() {
  const log = entries(int(0, 60))
  const where = random()
  const file = where < 0.9 ? logFile(log) : where < 0.95 ? missing() : dir
  const limit = pick([0, 1, 2, 5, 25, 100, Infinity, 3.7, -1, NaN, '5', undefined])
  return [chance(0.02) ? HOSTILE() : file, limit]
}

// ---------------------------------------------------------------------------
// Running and comparing

const shape = (error) =>
  error === SENTINEL
    ? 'the getter’s own error'
    : error instanceof Error || (error && typeof error === 'object')
      ? { name: error.name, code: error.code, message: error.message, path: error.path, syscall: error.syscall }
      : { thrown: String(error) }

const call = (build, name, argsList) => outcome(() => build[name](...argsList), shape)

/**
 * The two outcomes with a report's fields that only one build has left out (the recall's
 * `entriesRecalled` and `recalledLines`, against a build from before it).
 */
function sharedFields(a, b) {
  const [x, y] = [a?.value, b?.value]
  if (!x || !y || typeof x !== 'object' || typeof y !== 'object' || !('prompt' in x)) return [a, b]
  const keep = (o, other) => Object.fromEntries(Object.entries(o).filter(([key]) => key in other))
  return [{ value: keep(x, y) }, { value: keep(y, x) }]
}
const callAsync = (build, name, argsList) => outcomeAsync(() => build[`${name}Async`](...argsList), shape)

const KINDS = [
  ['buildPersistentChatInjectedPrompt', 0.3, () => [promptCase()]],
  ['buildPersistentChatInjectedPromptReport', 0.3, () => [promptCase()]],
  ['rebuildPersistentChatContinuitySummary', 0.25, () => [summaryCase()]],
  ['readPersistentChatLogEntries', 0.15, readCase],
]

function kind() {
  let roll = random()
  for (const k of KINDS) {
    if ((roll -= k[1]) < 0) return k
  }
  return KINDS[0]
}

const show = (value) =>
  JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? `${v}n` : typeof v === 'symbol' ? String(v) : v))?.slice(
    0,
    400,
  )

async function main() {
  const counts = {}
  const differences = []
  let errors = 0
  const errorCodes = {}
  let asyncCalls = 0
  for (let index = 0; index < CASES; index++) {
    random = rng((Math.imul(SEED, 0x9e3779b1) + index) >>> 0) // each case reproducible by seed and index alone
    const [name, , make] = kind()
    const argsList = make()
    const [before, after] = sharedFields(...builds.map((build) => call(build, name, argsList)))
    counts[name] = (counts[name] || 0) + 1
    if (before.error) {
      errors++
      const code = before.error.code ?? (typeof before.error === 'string' ? 'own' : 'other')
      errorCodes[code] = (errorCodes[code] || 0) + 1
    }
    if (!isDeepStrictEqual(before, after)) differences.push({ index, name, argsList, before, after })
    if (index % 10 === 0) {
      asyncCalls++
      const [asyncBefore, asyncAfter] = sharedFields(
        ...(await Promise.all(builds.map((build) => callAsync(build, name, argsList)))),
      )
      if (!isDeepStrictEqual(asyncBefore, asyncAfter) || !isDeepStrictEqual(asyncAfter, after)) {
        differences.push({ index, name: `${name}Async`, argsList, before: asyncBefore, after: asyncAfter })
      }
    }
    if (VERBOSE && index % 5000 === 0) console.log(`… ${index} cases`)
  }
  fs.rmSync(dir, { recursive: true, force: true })
  console.log(`differential ${args.given[0]} vs ${args.given[1]} (seed ${SEED}):`)
  for (const [name, n] of Object.entries(counts)) console.log(`  ${name}: ${n} calls`)
  console.log(`  ${CASES} calls in all, ${asyncCalls} of them also through the Promise variants`)
  console.log(
    `  ${errors} threw: ${Object.entries(errorCodes)
      .map(([code, n]) => `${code} ${n}`)
      .join(', ')}`,
  )
  console.log(`  differences: ${differences.length}`)
  for (const d of differences.slice(0, 5)) {
    console.log(
      `\n  case ${d.index} ${d.name}\n    args:   ${show(d.argsList)}\n    before: ${show(d.before)}\n    after:  ${show(d.after)}`,
    )
  }
  process.exit(differences.length ? 1 : 0)
}

main()
