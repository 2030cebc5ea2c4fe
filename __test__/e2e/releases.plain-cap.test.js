'use strict'
// Which release `capCompactionSummary` (SPEC: "OpenClaw 2026.7.x's function, bit for bit")
// is identical to: the addon's plain cap against each release's own (release-plain-cap.mjs
// runs it from the release's dist) on the same inputs, with and without surrogate pairs,
// lone surrogates and fractional budgets.
// - text B (2026.7.1-beta.4 … 2026.8.1-beta.1, truncateUtf16Safe): identical on every input;
// - text A (2026.3.22 … 2026.7.1-beta.2, `.slice`): identical on input without surrogate
//   pairs; where its cut splits a pair it keeps the high half (a lone surrogate) and the
//   addon does not;
// - 2026.8.1-beta.2 and 2026.9.6 (`maxChars < 46` instead of `budget <= 0`): identical but
//   at maxChars 46 exactly, where they return the bare marker and text B the bare prefix.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const native = require('../../index.js')
const { rng } = require('../../dev/shapes.js') // seeded: the same inputs on every run

const { RELEASES_DIR } = process.env
const DRIVER = path.join(__dirname, 'release-plain-cap.mjs')
const MARKER = '\n\n[Compaction summary truncated to fit budget]'

const BMP = ['a', 'b', ' ', '\n', '#', 'é', '中', '\u0301', '\u200d', 'ß']
const ASTRAL = ['😀', '👍🏽', '🇩🇪', '𝒳'] // pairs (and a flag of two pairs)
const LONE = ['\ud83d', '\ude00']

function inputs(seed, withSurrogates, count) {
  const next = rng(seed)
  const pick = (list) => list[Math.floor(next() * list.length)]
  const out = []
  for (let i = 0; i < count; i++) {
    const pieces = []
    const units = Math.floor(next() * 140)
    while (pieces.join('').length < units) {
      const r = next()
      pieces.push(withSurrogates && r < 0.3 ? pick(ASTRAL) : withSurrogates && r < 0.35 ? pick(LONE) : pick(BMP))
    }
    const summary = pieces.join('')
    const r = next()
    // Budgets around the marker's 46 units, around the length, fractions, <= 0 and the default.
    const maxChars =
      r < 0.05
        ? undefined
        : r < 0.1
          ? -Math.floor(next() * 3)
          : r < 0.3
            ? 44 + Math.floor(next() * 5)
            : r < 0.45
              ? Math.floor(next() * 140) + 0.5
              : Math.floor(next() * 150)
    out.push([maxChars === undefined && next() < 0.5 ? `${summary}${'x'.repeat(16000)}` : summary, maxChars])
  }
  return out
}

const BMP_ONLY = inputs(7, false, 3000)
const WITH_SURROGATES = inputs(11, true, 3000)
const ALL = [...BMP_ONLY, ...WITH_SURROGATES]
const ours = ALL.map(([summary, maxChars]) =>
  maxChars === undefined ? native.capCompactionSummary(summary) : native.capCompactionSummary(summary, maxChars),
)

let work
beforeAll(() => {
  if (!RELEASES_DIR) throw new Error('RELEASES_DIR must be set: run `npm test` (it runs scripts/setup-releases.js)')
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-plain-cap-'))
  fs.writeFileSync(path.join(work, 'inputs.json'), JSON.stringify(ALL))
})
afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true })
})

/** The release's own outputs on ALL. */
function theirs(version) {
  const result = spawnSync(
    process.execPath,
    [DRIVER, path.join(RELEASES_DIR, version), path.join(work, 'inputs.json')],
    { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 },
  )
  if (result.status !== 0) throw new Error(`release-plain-cap.mjs failed on ${version}: ${result.stderr}`)
  return JSON.parse(result.stdout)
}

/** Indexes of ALL where the release and the addon differ, split by input set. */
function differences(outputs) {
  const differing = []
  for (let i = 0; i < ALL.length; i++) if (outputs[i] !== ours[i]) differing.push(i)
  return {
    bmp: differing.filter((i) => i < BMP_ONLY.length),
    surrogates: differing.filter((i) => i >= BMP_ONLY.length),
  }
}

const found = {}
afterAll(() => {
  const lines = Object.entries(found).map(
    ([version, d]) =>
      `${version.padEnd(16)} differs on ${String(d.bmp).padStart(4)} of ${BMP_ONLY.length} BMP-only inputs, ${String(d.surrogates).padStart(4)} of ${WITH_SURROGATES.length} with surrogates`,
  )
  if (lines.length) console.log(["capCompactionSummary: the addon against each release's own", ...lines].join('\n'))
})

describe.each(['2026.7.2-beta.4', '2026.7.35', '2026.8.1-beta.1'])('text B, openclaw %s', (version) => {
  test('identical on every input, surrogates and fractions included', () => {
    const { outputs, helpers } = theirs(version)
    expect(helpers).toEqual(['truncateUtf16Safe'])
    const d = differences(outputs)
    found[version] = { bmp: d.bmp.length, surrogates: d.surrogates.length }
    expect(d).toEqual({ bmp: [], surrogates: [] })
  })
})

describe.each(['2026.4.1', '2026.6.35'])('text A, openclaw %s', (version) => {
  test('identical without surrogate pairs; where its `.slice` splits a pair it keeps a lone high surrogate, the addon one unit less', () => {
    const { outputs, helpers } = theirs(version)
    expect(helpers).toEqual([])
    const d = differences(outputs)
    found[version] = { bmp: d.bmp.length, surrogates: d.surrogates.length }
    expect(d.bmp).toEqual([])
    expect(d.surrogates.length).toBeGreaterThan(0)
    for (const i of d.surrogates) {
      const [summary] = ALL[i]
      const stem = (s) => (s.endsWith(MARKER) ? s.slice(0, -MARKER.length) : s)
      const a = stem(outputs[i])
      const b = stem(ours[i])
      // Theirs is the raw prefix, ending in the high half of a pair the input goes on to complete.
      expect({
        i,
        endsHigh: /[\ud800-\udbff]$/.test(a),
        completed: /[\udc00-\udfff]/.test(summary[a.length] ?? ''),
        ours: b,
      }).toEqual({ i, endsHigh: true, completed: true, ours: a.slice(0, -1) })
      expect(outputs[i].endsWith(MARKER)).toBe(ours[i].endsWith(MARKER))
    }
  })
})

describe.each(['2026.8.1-beta.2', '2026.9.6'])('upstream-fix releases, openclaw %s', (version) => {
  test('identical but at maxChars 46 exactly (they return the bare marker, text B the bare 46-unit prefix)', () => {
    const { outputs } = theirs(version)
    const d = differences(outputs)
    found[version] = { bmp: d.bmp.length, surrogates: d.surrogates.length }
    for (const i of [...d.bmp, ...d.surrogates]) {
      expect({ i, maxChars: ALL[i][1], theirs: outputs[i] }).toEqual({ i, maxChars: 46, theirs: MARKER })
    }
    expect(d.bmp.length).toBeGreaterThan(0)
  })
})
