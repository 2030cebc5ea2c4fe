'use strict'
// Property tests over generated summaries and suffixes of OpenClaw's shape,
// with the characters that make cuts hard, at budgets from 1 to 40,000.
const fc = require('fast-check')
const native = require('../index.js')
const { REQUIRED_SECTIONS, loneSurrogates } = require('../dev/shapes.js')
const { fragmentChecker } = require('../scripts/differential/fragments.js')

const BODY_MARKER = '[Compaction summary truncated to fit budget]'
const SUFFIX_MARKER = '[Earlier compaction context truncated to fit budget]'

const word = fc.constantFrom(
  'deploy',
  'the',
  'gateway',
  'https://ci.example.com/b/42?x=1',
  '/srv/app/state.json',
  'ses_9f8e7d6c',
  '😀',
  '👨‍👩‍👧',
  '🇯🇵',
  'e\u0301',
  '漢字',
  'テスト',
  '\ud800',
  '\udfff',
  '\u0000',
  '{"k":[1,2]}',
  'ACP_TURN_FAILED',
)
const phrase = fc.array(word, { minLength: 1, maxLength: 30 }).map((w) => w.join(' '))
const eol = fc.constantFrom('\n', '\n', '\n', '\r\n')

const body = fc
  .record({
    preamble: fc.option(phrase, { nil: undefined }),
    sections: fc.array(
      fc.record({
        heading: fc.oneof(
          fc.constantFrom(...REQUIRED_SECTIONS),
          phrase.map((p) => `### ${p.slice(0, 40)}`),
        ),
        lines: fc.array(
          phrase.map((p) => `- ${p}`),
          { maxLength: 40 },
        ),
      }),
      { maxLength: 8 },
    ),
    eol,
  })
  .map(({ preamble, sections, eol: nl }) => {
    const lines = preamble ? [preamble, ''] : []
    for (const s of sections) lines.push(s.heading, ...s.lines, '')
    return lines.join(nl).trimEnd()
  })

const turnItem = fc
  .tuple(
    fc.constantFrom('User', 'Assistant', 'Tool result (exec)', 'Tool result (web_fetch)'),
    fc.array(phrase, { minLength: 1, maxLength: 6 }),
  )
  .map(([role, parts]) => `- ${role}: ${parts.join('\n')}`)

const suffix = fc
  .record({
    split: fc.boolean(),
    turns: fc.array(turnItem, { maxLength: 40 }),
    failures: fc.array(
      phrase.map((p) => `- exec (status=failed): ${p.replace(/\s+/g, ' ')}`),
      { maxLength: 4 },
    ),
    files: fc.boolean(),
    rules: fc.option(fc.array(phrase, { minLength: 1, maxLength: 8 }), { nil: undefined }),
  })
  .map(({ split, turns, failures, files, rules }) => {
    const sections = []
    if (split) sections.push('**Turn Context (split turn):**\n\n- User: split prefix')
    if (turns.length) sections.push(`\n\n## Recent turns preserved verbatim\n${turns.join('\n')}`)
    if (failures.length) sections.push(`\n\n## Tool Failures\n${failures.join('\n')}`)
    if (files) sections.push('\n\n<read-files>\nREADME.md\n\n</read-files>')
    if (rules)
      sections.push(
        `\n\n<workspace-critical-rules>\n## Red Lines\n${rules.map((r) => `- ${r}`).join('\n')}\n</workspace-critical-rules>`,
      )
    let out = ''
    for (const s of sections) out = out.trim() ? out + s : s.trimStart()
    return out && !/^\s/.test(out) ? `\n\n${out}` : out
  })

const budget = fc.oneof(fc.integer({ min: 1, max: 40000 }), fc.integer({ min: 1, max: 600 }))
const config = { numRuns: Number(process.env.PROPERTY_RUNS || 400), seed: 42 }

const headingLines = (text) =>
  text
    .split('\n')
    .map((l) => l.replace(/\r$/, ''))
    .filter((l) => l.trimStart().startsWith('#'))

describe('capCompactionSummaryPreservingSuffix properties', () => {
  test('length <= maxChars; identity when it fits; no new lone surrogates', () => {
    fc.assert(
      fc.property(body, suffix, budget, (b, s, max) => {
        const out = native.capCompactionSummaryPreservingSuffix(b, s, max)
        if (b.length + s.length <= max || s === '') {
          if (s !== '') expect(out).toBe(b + s)
        } else {
          expect(out.length).toBeLessThanOrEqual(max)
        }
        expect(loneSurrogates(out).length).toBeLessThanOrEqual(loneSurrogates(b + s).length)
        if (loneSurrogates(b + s).length === 0) expect(loneSurrogates(out)).toEqual([])
      }),
      config,
    )
  })

  test('every heading of the body survives when the headings fit the body floor', () => {
    fc.assert(
      fc.property(body, suffix, budget, (b, s, max) => {
        fc.pre(s !== '' && b.length + s.length > max)
        const headings = headingLines(b)
        const needed = headings.reduce((n, h) => n + h.length + 2, 0) + BODY_MARKER.length + 3
        fc.pre(needed <= Math.min(b.length, Math.ceil(max / 2)))
        const out = native.capCompactionSummaryPreservingSuffix(b, s, max)
        const kept = new Set(out.split('\n').map((l) => l.replace(/\r$/, '')))
        for (const h of headings) expect(kept.has(h)).toBe(true)
      }),
      config,
    )
  })

  test('a marker stands where text was removed', () => {
    fc.assert(
      fc.property(body, suffix, budget, (b, s, max) => {
        fc.pre(s !== '' && b.length + s.length > max && max >= 200)
        const report = native.capCompactionSummaryReport(b, s, max)
        if (report.bodyTrimmed) expect(report.summary).toContain(BODY_MARKER)
        const rules = /\n\n<workspace-critical-rules>[\s\S]*$/.exec(s)
        const rulesOnly = rules && report.summary.endsWith(rules[0]) && !report.summary.includes(SUFFIX_MARKER)
        if (report.suffixTrimmed && !rulesOnly && report.suffixBudget >= 120)
          expect(report.summary).toContain(SUFFIX_MARKER)
        expect(report.bodyBudget).toBeGreaterThanOrEqual(Math.min(b.length, Math.ceil(max / 2)))
      }),
      config,
    )
  })

  test('the rules block stays whole when it fits the suffix budget', () => {
    fc.assert(
      fc.property(body, suffix, budget, (b, s, max) => {
        const rules = /\n\n<workspace-critical-rules>[\s\S]*$/.exec(s)
        fc.pre(rules !== null && b.length + s.length > max)
        const report = native.capCompactionSummaryReport(b, s, max)
        const suffixBudget = max - Math.min(b.length, Math.ceil(max / 2))
        if (rules[0].length <= suffixBudget) expect(report.summary.endsWith(rules[0])).toBe(true)
      }),
      config,
    )
  })
})

describe('capCompactionSummaryPreservingSuffix at the smallest budgets (1-400)', () => {
  const RULES_OPEN = '<workspace-critical-rules>'
  const RULES_CLOSE = '</workspace-critical-rules>'
  const tiny = fc.integer({ min: 1, max: 200 })
  // Whole markers on lines of their own (the generated text holds no marker text).
  const markerLinesStandAlone = (out) => {
    for (const marker of [BODY_MARKER, SUFFIX_MARKER]) {
      const at = out.indexOf(marker)
      if (at < 0) continue
      expect(out.indexOf(marker, at + 1)).toBe(-1)
      expect(at === 0 || out[at - 1] === '\n').toBe(true)
      expect(at + marker.length === out.length || out[at + marker.length] === '\n').toBe(true)
    }
    for (const stub of ['[Compaction summary', '[Earlier compaction']) {
      expect(out.split(stub).length - 1).toBe(out.includes(stub) ? 1 : 0)
    }
  }

  test('no partial marker, no fragment of the rules block, within the budget', () => {
    fc.assert(
      fc.property(body, suffix, tiny, (b, s, max) => {
        fc.pre(s !== '' && b.length + s.length > max)
        const out = native.capCompactionSummaryPreservingSuffix(b, s, max)
        expect(out.length).toBeLessThanOrEqual(max)
        markerLinesStandAlone(out)
        const rules = /<workspace-critical-rules>[\s\S]*$/.exec(s)
        if (!rules) return
        // The closing tag only with its opening tag; without the marker, the whole block.
        expect(out.includes(RULES_CLOSE)).toBe(out.includes(RULES_OPEN))
        if (out.includes(RULES_OPEN) && !out.includes(SUFFIX_MARKER)) expect(out.endsWith(rules[0])).toBe(true)
      }),
      { ...config, numRuns: Number(process.env.PROPERTY_RUNS || 2000) },
    )
  })

  test('no fragment line at any maxChars from 1 to 400', () => {
    // Every line is empty, a marker, a whole input line, or one cut at a word boundary.
    fc.assert(
      fc.property(body, suffix, (b, s) => {
        const fragmentsOf = fragmentChecker([b, s])
        for (let max = 1; max <= 400; max++) {
          const out = native.capCompactionSummaryPreservingSuffix(b, s, max)
          if (b.length + s.length > max && s !== '') expect(out.length).toBeLessThanOrEqual(max)
          const fragments = fragmentsOf(out)
          if (fragments.length) expect({ max, fragments, out }).toEqual({ max, fragments: [], out })
        }
      }),
      { ...config, numRuns: Math.ceil(Number(process.env.PROPERTY_RUNS || 400) / 8) },
    )
  })

  test("the issue's case: maxChars 60 and a suffix ending in the rules block", () => {
    const b = '## Decisions\n- reload pending gateway restart after the deploy\n## Open TODOs\n- check the logs'
    const s =
      '\n\n## Recent turns preserved verbatim\n- User: hi\n\n<workspace-critical-rules>\n## Red Lines\n- Never push to main.\n</workspace-critical-rules>'
    expect(native.capCompactionSummaryPreservingSuffix(b, s, 60)).toBe(`## Decisions\n\n${BODY_MARKER}`)
    // Too small for the marker: whole lines and whole words, nothing after them.
    expect(native.capCompactionSummaryPreservingSuffix(b, s, 40)).toBe('## Decisions\n- reload pending gateway')
    expect(native.capCompactionSummaryPreservingSuffix(b, s, 10)).toBe('')
  })
})

describe('capCompactionSummary properties', () => {
  test('never longer than maxChars (when it caps) and never splits a pair', () => {
    fc.assert(
      fc.property(phrase, fc.integer({ min: 1, max: 300 }), (text, max) => {
        const out = native.capCompactionSummary(text, max)
        expect(out.length).toBeLessThanOrEqual(Math.max(max, text.length <= max ? text.length : 0))
        expect(loneSurrogates(out).length).toBeLessThanOrEqual(loneSurrogates(text).length)
      }),
      config,
    )
  })
})
