#!/usr/bin/env node
// Fragment lines of `capCompactionSummaryPreservingSuffix` at the smallest budgets, per build:
//
//   node scripts/differential/fragments.js BUILD.node [MORE.node ...] [--pairs N] [--max M] [--show K]
//
// On N deterministic (body, suffix) pairs (default 60: structured bodies with long bullet lines,
// tool-heavy suffixes, half of them ending in the rules block) at every maxChars from 1 to M
// (default 400), counts the output lines that are fragments: not empty, not a marker line, not a
// whole input line (its trailing blanks may go), and not an input line cut at a word boundary
// (a prefix that ends before white space, or a tail that starts after it, holding a word: more
// than list markers, digits and punctuation, so a bare `-` or `)` is a fragment). Prints the count per
// build, split by the input it is a piece of (a body line holds it, or else a suffix line), and the first K
// examples (default 3), and the count by position too (`fragmentsByPosition`: a piece equal to
// another line elsewhere is no excuse). Both are exported for cap-fragment-fixes.js.
'use strict'

const path = require('node:path')
const { parseArgs } = require('node:util')
const { REQUIRED_SECTIONS: HEADINGS, rng } = require('../../dev/shapes.js')

const BODY_MARKER = '[Compaction summary truncated to fit budget]'
const SUFFIX_MARKER = '[Earlier compaction context truncated to fit budget]'
const WORDS = [
  'session',
  'compaction',
  'überprüfen',
  'pending',
  'webhook',
  'gateway',
  'restart',
  'the',
  'after',
  'deploy',
  'rollback',
  'https://ci.example.com/builds/8841?tab=logs',
  '/srv/openclaw/state.json',
  'ses_7f3a9c21',
  'ACP_TURN_FAILED',
  'INC-20261128-0914',
  '漢字テスト',
  '😀',
  '👨‍👩‍👧',
  '🇫🇷',
  'naïve',
  'e\u0301',
  '42',
  '(see',
  'log)',
  '-',
  'a',
]
const TOOLS = ['web_fetch', 'exec', 'read', 'browser', 'web_search']

const isSpace = (c) => /\s/u.test(c)
/** Holds a unit that makes a word (an ASCII letter, or a non-ASCII unit that is not white space), not just `-`, `42`, `)`. */
const hasWordUnit = (text) => /[A-Za-z]|[^\u0000-\u007f\s]/u.test(text)
const linesOf = (text) => text.split('\n').map((line) => line.replace(/\r$/, ''))

/** A function that gives the output lines of a result that are fragments of the lines of `inputs`. */
function fragmentChecker(inputs) {
  const input = [...new Set(inputs.flatMap(linesOf))]
  const whole = new Set(input.flatMap((line) => [line, line.trimEnd()]))
  const cutAtWord = (line) =>
    input.some(
      (full) => (full.startsWith(line) && endsAWord(line, full)) || (full.endsWith(line) && startsAWord(line, full)),
    )
  return (out) =>
    linesOf(out).filter(
      (line) => line !== '' && line !== BODY_MARKER && line !== SUFFIX_MARKER && !whole.has(line) && !cutAtWord(line),
    )
}

/** The output lines of `out` that are fragments of the input lines. */
const fragmentLines = (out, inputs) => fragmentChecker(inputs)(out)

/** `piece`, the start of `full`, ends a word (white space follows it). */
const endsAWord = (piece, full) =>
  hasWordUnit(piece) && piece.length < full.length && !isSpace(piece[piece.length - 1]) && isSpace(full[piece.length])
/** `piece`, the end of `full`, starts a word (it follows white space). */
const startsAWord = (piece, full) =>
  hasWordUnit(piece) &&
  piece.length < full.length &&
  !isSpace(piece[0]) &&
  isSpace(full[full.length - piece.length - 1])

/**
 * The same count, by position: the body part's lines are matched to the body's lines in order
 * (the cap keeps them in order), and the text after the suffix's marker (its repeated headers
 * aside) is the suffix's tail, whose first line must start at a line start or a word start of the
 * suffix. A piece equal to some other line elsewhere is then no excuse. Without the markers, as
 * `fragmentLines`.
 */
function fragmentsByPosition(out, body, suffix) {
  const bodyMarkerAt = out.indexOf(BODY_MARKER)
  const suffixMarkerAt = out.indexOf(SUFFIX_MARKER)
  let bodyEnd = -1
  if (bodyMarkerAt >= 0) bodyEnd = bodyMarkerAt
  else if (suffixMarkerAt >= 0) bodyEnd = Math.max(0, suffixMarkerAt - 2)
  if (bodyEnd < 0) return fragmentLines(out, [body, suffix])
  const found = []
  // The body part, in order.
  const bodyLines = linesOf(body)
  let next = 0
  for (const line of linesOf(out.slice(0, bodyEnd))) {
    if (line === '') continue
    // The next body line it is whole or cut at a word end (never past the line it came from,
    // when that is one); else a fragment, of the next line it starts.
    const fits = (full) => full === line || full.trimEnd() === line || (full.startsWith(line) && endsAWord(line, full))
    let k = next
    while (k < bodyLines.length && !fits(bodyLines[k])) k++
    if (k === bodyLines.length) {
      found.push(line)
      k = next
      while (k < bodyLines.length && !bodyLines[k].startsWith(line)) k++
      if (k === bodyLines.length) continue
    }
    next = k + 1
  }
  const rest = out.slice(bodyEnd)
  if (suffixMarkerAt < 0) return found.concat(fragmentLines(rest, [suffix]))
  // Between the body's marker and the suffix's: only blank lines.
  found.push(...linesOf(out.slice(bodyEnd, suffixMarkerAt)).filter((l) => l !== '' && l !== BODY_MARKER))
  // After the suffix's marker: whole header lines, then the suffix's tail from a line start.
  const after = out.slice(suffixMarkerAt + SUFFIX_MARKER.length).replace(/^\n\n/, '')
  let start = 0
  while (start < after.length && !suffix.endsWith(after.slice(start))) {
    const lf = after.indexOf('\n', start)
    if (lf < 0) {
      start = after.length
      break
    }
    start = lf + 1
  }
  const suffixLines = new Set(linesOf(suffix))
  for (const line of linesOf(after.slice(0, start))) if (line !== '' && !suffixLines.has(line)) found.push(line)
  const tail = after.slice(start)
  if (tail !== '') {
    const at = suffix.length - tail.length
    const firstLine = linesOf(tail)[0]
    // At a line start, or at a line end (the tail starts with its line break).
    const lineStart = at === 0 || suffix[at - 1] === '\n' || /^\r?\n/.test(tail)
    const full = linesOf(suffix.slice(suffix.lastIndexOf('\n', at - 1) + 1))[0]
    // (A tail of white space alone starts at neither.)
    if (!lineStart && !startsAWord(firstLine, full)) found.push(firstLine)
  }
  return found
}

function words(next, count) {
  const out = []
  for (let i = 0; i < count; i++) out.push(WORDS[Math.floor(next() * WORDS.length)])
  return out.join(' ')
}

/** A structured body: the five headings (maybe a preamble), bullets of 3–40 words. */
function body(next) {
  const lines = next() < 0.5 ? ['Session summary (compacted).', ''] : []
  for (const heading of HEADINGS) {
    lines.push(heading)
    for (let i = Math.floor(next() * 5); i > 0; i--) lines.push(`- ${words(next, 3 + Math.floor(next() * 38))}`)
  }
  return lines.join(next() < 0.1 ? '\r\n' : '\n')
}

/** A suffix of recent turns full of tool results, tool failures, file lists, maybe the rules block. */
function suffix(next, rules) {
  const items = []
  for (let t = 1 + Math.floor(next() * 3); t > 0; t--) {
    items.push(`- User: ${words(next, 4 + Math.floor(next() * 10))}`)
    for (let k = 1 + Math.floor(next() * 6); k > 0; k--) {
      const tool = TOOLS[Math.floor(next() * TOOLS.length)]
      items.push(
        `- Tool result (${tool}): ${next() < 0.4 ? JSON.stringify({ status: 200, body: words(next, 8) }, null, 1) : words(next, 2 + Math.floor(next() * 25))}`,
      )
    }
    items.push(`- Assistant: ${words(next, 3 + Math.floor(next() * 12))}`)
  }
  const failures = []
  for (let f = Math.floor(next() * 4); f > 0; f--) {
    const tool = TOOLS[Math.floor(next() * TOOLS.length)]
    failures.push(
      next() < 0.5
        ? `- ${tool}: failed (no output)`
        : `- ${tool} (status=failed): ${words(next, 3 + Math.floor(next() * 10))}`,
    )
  }
  let out = `\n\n## Recent turns preserved verbatim\n${items.join('\n')}`
  if (failures.length) out += `\n\n## Tool Failures\n${failures.join('\n')}`
  if (next() < 0.5) out += '\n\n<read-files>\nREADME.md\nsrc/lib.rs\n\n</read-files>'
  if (rules)
    out +=
      '\n\n<workspace-critical-rules>\n## Red Lines\n- Never push to main without review.\n</workspace-critical-rules>'
  return out
}

/** The `count` pairs of the measurement, the same on every run. */
function pairs(count) {
  const out = []
  for (let i = 0; i < count; i++) {
    const next = rng(0x5eed + i * 7919)
    out.push({ body: body(next), suffix: suffix(next, i % 2 === 1) })
  }
  return out
}

function measure(build, cases, maxBudget, show) {
  const tally = { lines: 0, body: 0, suffix: 0, results: 0, byPosition: 0 }
  const examples = []
  for (const [index, { body: b, suffix: s }] of cases.entries()) {
    const bodyLines = linesOf(b)
    const fragmentsOf = fragmentChecker([b, s])
    for (let max = 1; max <= maxBudget; max++) {
      const out = build.capCompactionSummaryPreservingSuffix(b, s, max)
      tally.byPosition += fragmentsByPosition(out, b, s).length
      const fragments = fragmentsOf(out)
      if (fragments.length === 0) continue
      tally.results++
      for (const line of fragments) {
        tally.lines++
        // Which input it is a piece of: the body when a body line holds it.
        if (bodyLines.some((full) => full.includes(line))) tally.body++
        else tally.suffix++
        if (examples.length < show)
          examples.push(`pair ${index} maxChars ${max}: ${JSON.stringify(line)} in ${JSON.stringify(out)}`)
      }
    }
  }
  return { tally, examples }
}

function main() {
  const usage = 'node scripts/differential/fragments.js BUILD.node [MORE.node ...] [--pairs N] [--max M] [--show K]'
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { pairs: { type: 'string' }, max: { type: 'string' }, show: { type: 'string' } },
  })
  if (positionals.length === 0) {
    console.error(`usage: ${usage}`)
    process.exit(2)
  }
  const cases = pairs(Number(values.pairs ?? 60))
  const maxBudget = Number(values.max ?? 400)
  const show = Number(values.show ?? 3)
  for (const file of positionals) {
    const module = { exports: {} }
    process.dlopen(module, path.resolve(file))
    const { tally, examples } = measure(module.exports, cases, maxBudget, show)
    console.log(
      `${path.basename(file)}: ${tally.lines} fragment lines (${tally.body} of body lines, ${tally.suffix} of suffix lines) in ${tally.results} of ${cases.length * maxBudget} results (${tally.byPosition} by position), maxChars 1-${maxBudget}, ${cases.length} pairs`,
    )
    for (const example of examples) console.log(`  ${example}`)
  }
}

if (require.main === module) main()

module.exports = { fragmentChecker, fragmentLines, fragmentsByPosition, pairs }
