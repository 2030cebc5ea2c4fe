// Differential run against the real OpenClaw 2026.7.2-beta.4 dist (Node 22).
//
//   node22 __test__/e2e/differential.mjs <OPENCLAW_DIR> [runs]
//
// Prints one JSON object: for each property the runs and the first
// counterexample (null when none), plus the seed scenario's audit results
// and the corpus tally. The jest spec e2e/differential.test.js asserts on it.
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadOpenClawTesting } from '../../dev/openclaw-oracle.mjs'

const require = createRequire(import.meta.url)
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const native = require(repo)
const fc = require('fast-check')
const shapes = require(path.join(repo, 'dev/shapes.js'))

const [openclawDir, runsArg] = process.argv.slice(2)
const runs = Number(runsArg ?? 3000)
const { testing } = await loadOpenClawTesting(openclawDir)

// Strings of the pieces that make cuts interesting.
const piece = fc.constantFrom(
  'a',
  'Z',
  ' ',
  '\n',
  '\r\n',
  '\r',
  '#',
  '## Decisions\n',
  '- ',
  '\u0000',
  '😀',
  '👨‍👩‍👧',
  '🇫🇷',
  'e\u0301',
  '漢',
  '\ud800',
  '\udc00',
  '\udbff\udfff',
  'https://x.example/a?b=1',
  '{"k":1}',
)
const text = (max) => fc.array(piece, { maxLength: max }).map((parts) => parts.join(''))
const maxChars = fc.oneof(
  fc.integer({ min: -5, max: 400 }),
  fc.double({ min: -10, max: 400, noNaN: true }),
  fc.constantFrom(undefined, 0, 46, 46.5, 47, Infinity, -Infinity, 16000),
)

function check(name, arbitrary, predicate) {
  const result = fc.check(fc.property(arbitrary, predicate), { numRuns: runs, seed: 20261130 })
  return { name, runs: result.numRuns, counterexample: result.failed ? JSON.stringify(result.counterexample) : null }
}

const properties = [
  check(
    'capCompactionSummary is bit-identical',
    fc.tuple(text(120), maxChars),
    ([s, m]) => native.capCompactionSummary(s, m) === testing.capCompactionSummary(s, m),
  ),
  check(
    'empty suffix: unchanged',
    fc.tuple(text(120), maxChars),
    ([s, m]) =>
      native.capCompactionSummaryPreservingSuffix(s, '', m) === testing.capCompactionSummaryPreservingSuffix(s, '', m),
  ),
  check(
    'maxChars <= 0: unchanged',
    fc.tuple(text(80), text(80), fc.oneof(fc.integer({ min: -100, max: 0 }), fc.constant(-Infinity))),
    ([b, s, m]) =>
      native.capCompactionSummaryPreservingSuffix(b, s, m) === testing.capCompactionSummaryPreservingSuffix(b, s, m),
  ),
  check('total fits: unchanged', fc.tuple(text(80), text(80), fc.integer({ min: 0, max: 200 })), ([b, s, extra]) => {
    const m = b.length + s.length + extra
    return (
      native.capCompactionSummaryPreservingSuffix(b, s, m) === testing.capCompactionSummaryPreservingSuffix(b, s, m)
    )
  }),
]

// The seed's case: a full structured body and a ~22,000-char tool-heavy suffix.
const seedBody = shapes.structuredBody({ seed: 7, linesPerSection: 12 })
const seedSuffix = shapes.preservedSuffix({ seed: 8, turns: 3, toolsPerTurn: 13, failures: 2 })
const sectionReasons = (summary) =>
  testing
    .auditSummaryQuality({ summary, identifiers: [], latestAsk: null })
    .reasons.filter((r) => r.startsWith('missing_section:'))
const realOut = testing.capCompactionSummaryPreservingSuffix(seedBody, seedSuffix)
const ourOut = native.capCompactionSummaryPreservingSuffix(seedBody, seedSuffix)
const seed = {
  bodyLength: seedBody.length,
  suffixLength: seedSuffix.length,
  bodyPassesBefore: sectionReasons(seedBody).length === 0,
  real: { length: realOut.length, missingSections: sectionReasons(realOut) },
  ours: { length: ourOut.length, missingSections: sectionReasons(ourOut) },
}

// A corpus of realistic cases: which keep the SPEC's invariants.
function invariantsHold(body, suffix, max, out) {
  // With an empty suffix SPEC keeps OpenClaw's plain cap, bit for bit.
  if (suffix === '') return out === testing.capCompactionSummary(body, max)
  if (out.length > max) return false
  if (sectionReasons(body).length === 0 && sectionReasons(out).length > 0) return false
  const bodyHeadings = body.split('\n').filter((l) => l.startsWith('#'))
  const kept = out.split('\n')
  if (!bodyHeadings.every((h) => kept.includes(h))) return false
  if (body.length + suffix.length > max) {
    // The kept suffix lines are whole lines of the suffix.
    const marker = out.indexOf('[Earlier compaction context truncated to fit budget]')
    if (out.endsWith(suffix)) return true
    if (marker < 0) return false
  }
  return true
}
const corpus = { cases: 0, realClean: 0, seedRuleClean: 0, oursClean: 0 }
for (let i = 0; i < 400; i++) {
  const next = shapes.rng(1000 + i)
  const body = shapes.structuredBody({ seed: i, linesPerSection: 2 + Math.floor(next() * 30), crlf: next() < 0.1 })
  const suffix = shapes.preservedSuffix({
    seed: i + 1,
    turns: Math.floor(next() * 5),
    toolsPerTurn: Math.floor(next() * 14),
    splitTurn: next() < 0.3,
    failures: Math.floor(next() * 4),
    files: next() < 0.7,
    rules: next() < 0.7,
  })
  const max = [16000, 8000, 4000, 24000][i % 4]
  corpus.cases++
  if (invariantsHold(body, suffix, max, testing.capCompactionSummaryPreservingSuffix(body, suffix, max)))
    corpus.realClean++
  if (invariantsHold(body, suffix, max, native.capCompactionSummaryPreservingSuffix(body, suffix, max)))
    corpus.oursClean++
  if (invariantsHold(body, suffix, max, shapes.seedProposedRule(body, suffix, max, testing.capCompactionSummary)))
    corpus.seedRuleClean++
}

process.stdout.write(`${JSON.stringify({ properties, seed, corpus })}\n`)
