'use strict'
const native = require('../index.js')
const { RULES_BLOCK, structuredBody, preservedSuffix, missingSections, loneSurrogates } = require('../dev/shapes.js')

const MARKER = '\n\n[Compaction summary truncated to fit budget]'
const SUFFIX_MARKER = '[Earlier compaction context truncated to fit budget]'
const { capCompactionSummary, capCompactionSummaryPreservingSuffix: capWithSuffix, capCompactionSummaryReport } = native

describe('capCompactionSummary (OpenClaw 2026.7.x, bit for bit)', () => {
  const text = 'A'.repeat(100)
  test.each([
    [undefined, text],
    [0, text],
    [-5, text],
    [Infinity, text],
    [100, text],
    [45, 'A'.repeat(45)],
    [46, 'A'.repeat(46)],
    [46.5, MARKER],
    [47.9, `A${MARKER}`],
    [99.9, `${'A'.repeat(53)}${MARKER}`],
    [0.5, ''],
  ])('maxChars %p', (maxChars, expected) => {
    expect(capCompactionSummary(text, maxChars)).toBe(expected)
  })

  test('undefined and NaN mean the default 16000', () => {
    const long = 'x'.repeat(20000)
    expect(capCompactionSummary(long)).toHaveLength(16000)
    expect(capCompactionSummary(long, NaN)).toBe(capCompactionSummary(long, 16000))
  })

  test('a surrogate pair at the cut is dropped whole', () => {
    const emoji = '😀'.repeat(30)
    expect(capCompactionSummary(emoji, 47)).toBe(MARKER)
    expect(capCompactionSummary(emoji, 51)).toBe(`😀😀${MARKER}`)
  })

  test('lone surrogates, NUL and CRLF round-trip exactly', () => {
    const odd = '\ud800a\u0000b\r\n\udc00😀\udbff'
    expect(capCompactionSummary(odd, 16000)).toBe(odd)
    expect(loneSurrogates(capCompactionSummary(odd, 16000))).toEqual(loneSurrogates(odd))
  })
})

describe('capCompactionSummaryPreservingSuffix: cases OpenClaw got right stay the same', () => {
  const body = structuredBody({ linesPerSection: 3 })
  const suffix = preservedSuffix({ turns: 1, toolsPerTurn: 1 })
  test('empty suffix is capCompactionSummary', () => {
    expect(capWithSuffix(body, '', 300)).toBe(capCompactionSummary(body, 300))
  })
  test('maxChars <= 0 returns body + suffix', () => {
    expect(capWithSuffix(body, suffix, 0)).toBe(body + suffix)
    expect(capWithSuffix(body, suffix, -1)).toBe(body + suffix)
  })
  test('a total that fits returns body + suffix', () => {
    expect(capWithSuffix(body, suffix, body.length + suffix.length)).toBe(body + suffix)
    expect(capWithSuffix(body, suffix)).toBe(body + suffix)
  })
})

describe('capCompactionSummaryPreservingSuffix: the fix', () => {
  const body = structuredBody({ linesPerSection: 30 })
  const suffix = preservedSuffix({ turns: 3, toolsPerTurn: 13, splitTurn: true, failures: 3 })

  test('the seed case: a suffix over the whole budget keeps every heading', () => {
    expect(suffix.length).toBeGreaterThan(16000)
    const out = capWithSuffix(body, suffix, 16000)
    expect(out.length).toBeLessThanOrEqual(16000)
    expect(missingSections(out)).toEqual([])
    expect(out.startsWith('Session summary (compacted).')).toBe(true)
  })

  test('the body gets at least half the budget', () => {
    for (const max of [1000, 4000, 9001, 16000]) {
      const report = capCompactionSummaryReport(body, suffix, max)
      expect(report.summary.length).toBeLessThanOrEqual(max)
      expect(report.bodyBudget).toBeGreaterThanOrEqual(Math.min(body.length, Math.ceil(max / 2)))
      expect(report.bodyBudget + report.suffixBudget).toBeLessThanOrEqual(max)
    }
  })

  test('a short body gives its share to the suffix', () => {
    const report = capCompactionSummaryReport('## Decisions\n- ship it', suffix, 16000)
    expect(report.bodyTrimmed).toBe(false)
    expect(report.suffixBudget).toBe(16000 - '## Decisions\n- ship it'.length)
  })

  test('the body marker appears once, the suffix marker once', () => {
    const out = capWithSuffix(body, suffix, 8000)
    expect(out.split('[Compaction summary truncated to fit budget]')).toHaveLength(2)
    expect(out.split(SUFFIX_MARKER)).toHaveLength(2)
  })

  test('the suffix keeps its newest items and the rules block whole, last', () => {
    const out = capWithSuffix(body, suffix, 16000)
    expect(out.endsWith(RULES_BLOCK)).toBe(true)
    expect(out).toContain('- Assistant: Turn 2 done:')
    expect(out).toContain('## Tool Failures')
  })

  test('the suffix is cut at a line start and keeps the heading of its items', () => {
    const out = capWithSuffix(body, suffix, 12000)
    const afterMarker = out.slice(out.indexOf(SUFFIX_MARKER) + SUFFIX_MARKER.length)
    const suffixLines = new Set(suffix.split('\n'))
    for (const line of afterMarker.replace(/^\n+/, '').split('\n')) expect(suffixLines.has(line)).toBe(true)
    expect(afterMarker).toMatch(/^\n\n## Recent turns preserved verbatim\n- /)
  })

  test('when the rules block fits but not with the marker, the block wins', () => {
    const small = `\n\n## Tool Failures\n- exec: ${'y'.repeat(400)}${RULES_BLOCK}`
    const out = capWithSuffix('B', small, RULES_BLOCK.length + 5)
    expect(out).toBe(`B${RULES_BLOCK}`)
  })

  test('tokenBudget caps further, even when maxChars <= 0', () => {
    const report = capCompactionSummaryReport(body, suffix, 0, { tokenBudget: 1500 })
    expect(report.summary.length / 4).toBeLessThanOrEqual(1500)
    expect(missingSections(report.summary)).toEqual([])
  })

  test('protectedIdentifiers stay verbatim when they fit', () => {
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

  test('no word cut in two at small budgets: a body line that no word end fits is left out, a suffix line kept from a word start', () => {
    const b = [
      '## Decisions',
      '- session_7f3a9c21 stays pinned to the canary gateway',
      '## Open TODOs',
      '- compaction of the overnight transcript',
      '## Constraints/Rules',
      '## Pending user asks',
      '## Exact identifiers',
    ].join('\n')
    const s = '\n\n## Recent turns preserved verbatim\n- User: why\n\n## Tool Failures\n- web_fetch: failed (no output)'
    // Every heading kept; `- session` would be a piece of `session_7f3a9c21`.
    expect(capWithSuffix(b, s, 244)).toMatch(/^## Decisions\n## Open TODOs\n## Constraints\/Rules\n/)
    expect(capWithSuffix(b, s, 247)).toMatch(/^## Decisions\n## Open TODOs\n- compaction\n## Constraints/)
    // After the suffix's marker: nothing rather than `t)`, or the line's tail from a word start.
    expect(capWithSuffix(b, s, 118)).toBe(`## Decisions${MARKER}\n\n${SUFFIX_MARKER}`)
    expect(capWithSuffix(b, s, 150)).toBe(`## Decisions${MARKER}\n\n${SUFFIX_MARKER}\n\nfailed (no output)`)
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
