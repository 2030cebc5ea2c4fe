'use strict'
// The compaction exports from JavaScript: what the binding adds. The caps'
// rules (OpenClaw's plain cap bit for bit, the fixed cap's floors, headings,
// markers, cuts, the rules block) are tested in crates/core/tests/compaction.rs,
// compaction_fragments.rs and compaction_props.rs; here: one smoke test of the
// fixed cap, maxChars and options as JS values, the Report agreeing with the
// plain export, exact UTF-16 round trips, and the argument errors.
const native = require('../index.js')
const { structuredBody, preservedSuffix, missingSections, loneSurrogates } = require('../dev/shapes.js')

const MARKER = '\n\n[Compaction summary truncated to fit budget]'
const { capCompactionSummary, capCompactionSummaryPreservingSuffix: capWithSuffix, capCompactionSummaryReport } = native

describe('capCompactionSummary', () => {
  test('maxChars is the JS number as given: fractions, Infinity, <= 0', () => {
    const text = 'A'.repeat(100)
    expect(capCompactionSummary(text, 46.5)).toBe(MARKER)
    expect(capCompactionSummary(text, 47.9)).toBe(`A${MARKER}`)
    expect(capCompactionSummary(text, Infinity)).toBe(text)
    expect(capCompactionSummary(text, -5)).toBe(text)
  })

  test('undefined and NaN mean the default 16000', () => {
    const long = 'x'.repeat(20000)
    expect(capCompactionSummary(long)).toHaveLength(16000)
    expect(capCompactionSummary(long, NaN)).toBe(capCompactionSummary(long, 16000))
  })

  test('lone surrogates, NUL and CRLF round-trip exactly', () => {
    const odd = '\ud800a\u0000b\r\n\udc00😀\udbff'
    expect(capCompactionSummary(odd, 16000)).toBe(odd)
    expect(loneSurrogates(capCompactionSummary(odd, 16000))).toEqual(loneSurrogates(odd))
  })
})

describe('capCompactionSummaryPreservingSuffix / capCompactionSummaryReport', () => {
  const body = structuredBody({ linesPerSection: 30 })
  const suffix = preservedSuffix({ turns: 3, toolsPerTurn: 13, splitTurn: true, failures: 3 })

  test('smoke: the seed case, a suffix over the whole budget, keeps every heading', () => {
    expect(suffix.length).toBeGreaterThan(16000)
    const out = capWithSuffix(body, suffix, 16000)
    expect(out.length).toBeLessThanOrEqual(16000)
    expect(missingSections(out)).toEqual([])
    expect(out.startsWith('Session summary (compacted).')).toBe(true)
  })

  test('undefined and NaN maxChars mean the default 16000', () => {
    const capped = capWithSuffix(body, suffix, 16000)
    expect(capWithSuffix(body, suffix)).toBe(capped)
    expect(capWithSuffix(body, suffix, NaN)).toBe(capped)
    expect(capCompactionSummaryReport(body, suffix).summary).toBe(capped)
  })

  test("the Report's summary is the plain export's, with its flags and budgets", () => {
    for (const max of [1000, 16000]) {
      const report = capCompactionSummaryReport(body, suffix, max)
      expect(Object.keys(report).sort()).toEqual([
        'bodyBudget',
        'bodyTrimmed',
        'suffixBudget',
        'suffixTrimmed',
        'summary',
      ])
      expect(report.summary).toBe(capWithSuffix(body, suffix, max))
      expect(report).toEqual(
        expect.objectContaining({ bodyTrimmed: true, suffixTrimmed: true, bodyBudget: expect.any(Number) }),
      )
      expect(report.bodyBudget + report.suffixBudget).toBeLessThanOrEqual(max)
    }
  })

  test('options are read: tokenBudget (also when maxChars <= 0), protectedIdentifiers', () => {
    const report = capCompactionSummaryReport(body, suffix, 0, { tokenBudget: 1500 })
    expect(report.summary.length).toBeLessThanOrEqual(1500 * 4)
    const filler = Array.from({ length: 300 }, (_, i) => `- filler decision ${i}`).join('\n')
    const withId = `## Decisions\n${filler}\n- rotate key for ses_ab12cd34ef\n## Exact identifiers\n- none`
    expect(capWithSuffix(withId, suffix, 5000)).not.toContain('ses_ab12cd34ef')
    expect(capWithSuffix(withId, suffix, 5000, { protectedIdentifiers: ['ses_ab12cd34ef'] })).toContain(
      'ses_ab12cd34ef',
    )
  })

  test('lone surrogates in the input are not corrupted', () => {
    const oddBody = `## Decisions\n- \ud800 lone\n${'- filler\n'.repeat(500)}## Exact identifiers\n- \udfff`
    const out = capWithSuffix(oddBody, suffix, 6000)
    expect(out).toContain('- \ud800 lone')
    expect(out).toContain('- \udfff')
    expect(out).not.toContain('\ufffd')
  })
})

describe('bad input', () => {
  test.each([
    [[1], 'summary'],
    [['x', '1'], 'maxChars'],
    [['x', null], 'maxChars'],
  ])('capCompactionSummary(%p) names %s', (args, name) => {
    expect(() => capCompactionSummary(...args)).toThrow(
      expect.objectContaining({
        code: 'ERR_INVALID_ARG_TYPE',
        name: 'TypeError',
        message: expect.stringContaining(`"${name}"`),
      }),
    )
  })
  test.each([
    [[undefined, 's'], 'summaryBody'],
    [['b', 5], 'suffix'],
    [['b', 's', {}], 'maxChars'],
    [['b', 's', 10, 'x'], 'options'],
    [['b', 's', 10, { tokenBudget: '1' }], 'options.tokenBudget'],
    [['b', 's', 10, { protectedIdentifiers: 'x' }], 'options.protectedIdentifiers'],
  ])('capCompactionSummaryPreservingSuffix(%p) names %s', (args, name) => {
    expect(() => capWithSuffix(...args)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE', message: expect.stringContaining(`"${name}"`) }),
    )
  })
  test('a throwing getter throws through unchanged', () => {
    const options = {
      get tokenBudget() {
        throw new RangeError('boom')
      },
    }
    expect(() => capWithSuffix('b', 's', 1, options)).toThrow('boom')
  })
})
