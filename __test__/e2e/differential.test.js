'use strict'
// Runs differential.mjs under Node 22 against the real OpenClaw 2026.7.2-beta.4
// dist (installed by scripts/setup-oracle.sh; scripts/test.js passes the paths).
const { execFileSync } = require('node:child_process')
const path = require('node:path')

const { NODE22, OPENCLAW_DIR } = process.env
const RUNS = Number(process.env.DIFFERENTIAL_RUNS || 3000)

describe('against the real OpenClaw 2026.7.2-beta.4', () => {
  let result
  beforeAll(() => {
    if (!NODE22 || !OPENCLAW_DIR)
      throw new Error('NODE22 and OPENCLAW_DIR must be set: run `npm test` (it runs scripts/setup-oracle.sh)')
    const out = execFileSync(NODE22, [path.join(__dirname, 'differential.mjs'), OPENCLAW_DIR, String(RUNS)], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    })
    result = JSON.parse(out.trim().split('\n').pop())
  })

  test.each([
    'capCompactionSummary is bit-identical',
    'empty suffix: unchanged',
    'maxChars <= 0: unchanged',
    'total fits: unchanged',
  ])('%s', (name) => {
    const property = result.properties.find((p) => p.name === name)
    expect(property.runs).toBe(RUNS)
    expect(property.counterexample).toBeNull()
  })

  test('seed scenario: the real function loses all five headings, ours keeps them', () => {
    const { seed } = result
    expect(seed.suffixLength).toBeGreaterThan(16000)
    expect(seed.bodyPassesBefore).toBe(true)
    expect(seed.real.length).toBe(16000)
    expect(seed.real.missingSections).toHaveLength(5)
    expect(seed.ours.length).toBeLessThanOrEqual(16000)
    expect(seed.ours.missingSections).toEqual([])
  })

  test('realistic corpus: every case keeps the invariants (OpenClaw does not)', () => {
    const { corpus } = result
    console.log(
      `corpus: ${corpus.cases} cases; OpenClaw 2026.7.2 clean on ${corpus.realClean}, the seed's proposed JS rule on ${corpus.seedRuleClean}, ours on ${corpus.oursClean}`,
    )
    expect(corpus.oursClean).toBe(corpus.cases)
    expect(corpus.realClean).toBeLessThan(corpus.cases)
  })
})
