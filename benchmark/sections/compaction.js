'use strict'
// capCompactionSummaryPreservingSuffix, side by side in one process:
//   - at maxChars 16000 on inputs from the seed's sample to 16 Mi UTF-16 units, against OpenClaw
//     2026.7.2's function (the buggy original), OpenClaw 2026.9.6's budgetCompactionSummary (the
//     upstream fix), a plain JS version of the seed's proposed rule, and the addon's copy floor
//     (capCompactionSummary(input, 0): copy in and out);
//   - on body-heavy shapes (dev/body-heavy.js: 15,000–40,000-unit bodies of short bullets, suffixes of
//     1,000–33,000, budgets 2,000–20,000) against the copy floor and 2026.9.6.
// With a baseline build (--baseline=OLD.node), that build's cap runs in the same rounds, so that
// (cap − floor) / floor before and after is measured side by side.
const fs = require('node:fs')
const path = require('node:path')

const shapes = require('../../dev/shapes.js')
const { bodyHeavyCase, BODY_HEAVY_SHAPES } = require('../../dev/body-heavy.js')
const { compare, now } = require('../lib/harness.js')
const { fmtUs, fmtX, fmtUnits, fmtRatio, mdTable } = require('../lib/format.js')

const MAX_CHARS = 16000
const KI = 1024
// The target for (cap − floor) / floor, on the body-heavy shapes and overall: at most 0.3.
const OVER_FLOOR_TARGET = 0.3

/** Body ≈ 1/4, suffix ≈ 3/4 of `units` (a structured body; 13 tool results a turn, as in the seed). */
function inputOfSize(units) {
  const linesPerSection = Math.max(4, Math.round((units * 0.25) / 700))
  const turns = Math.max(2, Math.round((units * 0.75) / 6800))
  return {
    body: shapes.structuredBody({ linesPerSection }),
    suffix: shapes.preservedSuffix({ turns, toolsPerTurn: 13 }),
  }
}

async function loadPeersLogged(setup) {
  const { loadPeers, structuredSuffix } = await import('../lib/peers.mjs')
  const t0 = now()
  const peers = await loadPeers({ openclaw7Dir: setup.OPENCLAW_DIR, openclaw9Dir: setup.OPENCLAW_2026_9_DIR })
  const names = [
    peers.v9 && `openclaw ${peers.v9.version} budgetCompactionSummary`,
    peers.v7 && `openclaw ${peers.v7.version} capCompactionSummaryPreservingSuffix`,
  ]
  console.log(`peers: ${names.filter(Boolean).join(', ') || 'none'} (loaded in ${((now() - t0) / 1000).toFixed(1)} s)`)
  for (const s of peers.skipped) console.log(`skipped: ${s}`)
  return { ...peers, structuredSuffix }
}

/**
 * The timed calls on one input: ours and the copy floor always; the baseline build's cap; the
 * seed's JS rule and 2026.7.2 (`withOldPeers`); 2026.9.6, alone and, as the session store
 * does next, with the JSON.stringify of its result (ours too).
 */
function contendersFor({ native, baseline, peers, withOldPeers }, { body, suffix, maxChars }) {
  // Flat strings (Array#join builds sequential strings): no rope flattening inside the timed calls.
  body = [body].join('')
  suffix = [suffix].join('')
  const joined = [body, suffix].join('')
  const list = [
    { name: 'ours', fn: () => native.capCompactionSummaryPreservingSuffix(body, suffix, maxChars) },
    { name: 'floor', fn: () => native.capCompactionSummary(joined, 0) },
  ]
  if (baseline)
    list.push({ name: 'base', fn: () => baseline.capCompactionSummaryPreservingSuffix(body, suffix, maxChars) })
  if (withOldPeers) {
    list.push({
      name: 'seedJs',
      fn: () => shapes.seedProposedRule(body, suffix, maxChars, native.capCompactionSummary),
    })
    if (peers.v7)
      list.push({ name: 'oc7', fn: () => peers.v7.capCompactionSummaryPreservingSuffix(body, suffix, maxChars) })
  }
  if (peers.v9) {
    const structured = peers.structuredSuffix(suffix)
    list.push({ name: 'oc9', fn: () => peers.v9.budgetCompactionSummary(body, structured, maxChars) })
    list.push({
      name: 'oc9S',
      fn: () => JSON.stringify(peers.v9.budgetCompactionSummary(body, structured, maxChars).summary),
    })
    list.push({
      name: 'oursS',
      fn: () => JSON.stringify(native.capCompactionSummaryPreservingSuffix(body, suffix, maxChars)),
    })
  }
  return { list, units: joined.length, body: body.length, suffix: suffix.length }
}

/** Times one input and checks what each contender keeps: a row of medians and ratios. */
function measure(ctx, input, { label, budgetMs, minRounds }) {
  const { list, units, body, suffix } = contendersFor(ctx, input)
  const ours = ctx.native.capCompactionSummaryPreservingSuffix(input.body, input.suffix, input.maxChars)
  if (ours.length > input.maxChars) throw new Error(`ours returned ${ours.length} units at ${label}`)
  // What each one keeps: the five required headings, out of 5.
  const text = (v) => (typeof v === 'string' ? v : v.summary)
  const kept = Object.fromEntries(
    list
      .filter((c) => !['floor', 'oc9S', 'oursS'].includes(c.name))
      .map((c) => [c.name, 5 - shapes.missingSections(text(c.fn())).length]),
  )
  const r = compare(list, { budgetMs, minRounds })
  const over = (name) => r[name] && (r[name].us - r.floor.us) / r.floor.us
  return {
    label,
    units,
    body,
    suffix,
    maxChars: input.maxChars,
    ours: r.ours.us,
    floor: r.floor.us,
    overFloor: over('ours'),
    base: r.base?.us,
    baseOverFloor: over('base'),
    seedJs: r.seedJs?.us,
    oc7: r.oc7?.us,
    oc9: r.oc9?.us,
    oc9S: r.oc9S?.us,
    oursS: r.oursS?.us,
    nsPerUnit: (r.ours.us * 1000) / units,
    floorNsPerUnit: (r.floor.us * 1000) / units,
    headingsLost: 5 - kept.ours,
    kept,
    spread: `${fmtUs(r.ours.p25)}–${fmtUs(r.ours.p75)}`,
  }
}

const overText = (x) => (x == null ? '–' : `${x >= 0 ? '+' : ''}${x.toFixed(2)}`)

function logRow(row) {
  const base = row.base == null ? '' : ` | baseline ${fmtUs(row.base)} (${overText(row.baseOverFloor)})`
  const old =
    row.oc7 == null && row.seedJs == null
      ? ''
      : ` | 2026.7.2 ${fmtUs(row.oc7)} (${fmtX(row.oc7 && row.ours / row.oc7)}) | seed JS ${fmtUs(row.seedJs)} (${fmtX(row.seedJs && row.ours / row.seedJs)})`
  console.log(
    `${row.label.padEnd(11)} ${fmtUnits(row.units).padStart(8)}: ours ${fmtUs(row.ours)} [${row.spread}] ${row.nsPerUnit.toFixed(2)} ns/unit | ` +
      `floor ${fmtUs(row.floor)} (ours ${overText(row.overFloor)})${base} | ` +
      `2026.9.6 ${fmtUs(row.oc9)} (ours ${fmtX(row.oc9 && row.ours / row.oc9)}; with stringify ${fmtX(row.oc9S && row.oursS / row.oc9S)})${old} | ` +
      `headings ${['ours', 'oc9', 'oc7', 'seedJs'].map((k) => row.kept[k] ?? '–').join('/')}`,
  )
}

/** The seed sample and inputs from 16 Ki to 16 Mi units at maxChars 16000. */
function bySize(ctx, { root, quick }) {
  console.log('\n== capCompactionSummaryPreservingSuffix, maxChars 16000 ==')
  const seed = JSON.parse(fs.readFileSync(path.join(root, 'samples/seed-compaction.json'), 'utf8'))
  const sizes = quick ? [16 * KI, 256 * KI, 1024 * KI] : [16 * KI, 64 * KI, 256 * KI, 1024 * KI, 4096 * KI, 16384 * KI]
  const cases = [{ label: 'seed sample', body: seed.summaryBody, suffix: seed.suffix }]
  for (const units of sizes) cases.push({ label: fmtUnits(units), ...inputOfSize(units) })
  const rows = []
  for (const { label, body, suffix } of cases) {
    const big = body.length + suffix.length >= 4 << 20
    const budgetMs = (big ? 2500 : 1500) / (quick ? 2 : 1)
    const row = measure(
      { ...ctx, withOldPeers: true },
      { body, suffix, maxChars: MAX_CHARS },
      { label, budgetMs, minRounds: big ? 5 : 9 },
    )
    rows.push(row)
    logRow(row)
  }
  console.log(
    '(median per call [p25–p75]; ratios of medians measured side by side; headings: required headings kept /5 by ours/2026.9.6/2026.7.2/seed JS)',
  )
  return rows
}

/** The body-heavy shapes (BODY_HEAVY_SHAPES), each at its own budget. */
function bodyHeavy(ctx, { quick }) {
  console.log('\n== capCompactionSummaryPreservingSuffix, body-heavy shapes ==')
  const rows = []
  for (const [index, [bodyUnits, suffixUnits, maxChars]] of BODY_HEAVY_SHAPES.entries()) {
    const input = bodyHeavyCase(100 + index, bodyUnits, suffixUnits, maxChars)
    const label = `${fmtUnits(input.body.length)} + ${fmtUnits(input.suffix.length)} @ ${maxChars}`
    const row = measure({ ...ctx, withOldPeers: false }, input, { label, budgetMs: quick ? 750 : 1500, minRounds: 9 })
    rows.push(row)
    logRow(row)
  }
  return rows
}

function costTable(rows, { withBudget }) {
  return rows.map((r) => ({
    input: r.label,
    ...(withBudget
      ? {}
      : { 'units (body + suffix)': `${fmtUnits(r.units)} (${fmtUnits(r.body)} + ${fmtUnits(r.suffix)})` }),
    ours: fmtUs(r.ours),
    'copy floor': fmtUs(r.floor),
    '(ours − floor) / floor': fmtRatio(r.overFloor),
    ...(r.base == null ? {} : { baseline: fmtUs(r.base), '(baseline − floor) / floor': fmtRatio(r.baseOverFloor) }),
    'ours ns/unit': r.nsPerUnit.toFixed(2),
    'floor ns/unit': r.floorNsPerUnit.toFixed(2),
  }))
}

function peerTable(rows) {
  return rows.map((r) => ({
    input: r.label,
    ours: fmtUs(r.ours),
    '2026.9.6 `budgetCompactionSummary`': fmtUs(r.oc9),
    'ours / 2026.9.6': fmtX(r.oc9 && r.ours / r.oc9),
    'ours / 2026.9.6, both + `JSON.stringify`': fmtX(r.oc9S && r.oursS / r.oc9S),
    ...(r.oc7 === undefined && r.seedJs === undefined
      ? { 'headings kept /5 (ours, 9.6)': ['ours', 'oc9'].map((k) => r.kept[k] ?? '–').join(', ') }
      : {
          '2026.7.2 (buggy)': fmtUs(r.oc7),
          'ours / 2026.7.2': fmtX(r.oc7 && r.ours / r.oc7),
          'seed JS rule': fmtUs(r.seedJs),
          'ours / seed JS': fmtX(r.seedJs && r.ours / r.seedJs),
          'headings kept /5 (ours, 9.6, 7.2, seed JS)': ['ours', 'oc9', 'oc7', 'seedJs']
            .map((k) => r.kept[k] ?? '–')
            .join(', '),
        }),
  }))
}

const worst = (rows, value) => rows.reduce((a, r) => (value(r) > value(a) ? r : a))

function recordTargets(rec, sizeRows, heavyRows, peers) {
  const all = [...sizeRows, ...heavyRows]
  const worstAll = worst(all, (r) => r.overFloor)
  rec.target(
    'cap overhead over copy floor, (ours−floor)/floor, all inputs',
    `≤ ${OVER_FLOOR_TARGET}`,
    `${worstAll.overFloor.toFixed(2)} (worst, ${worstAll.label}); seed sample ${sizeRows[0].overFloor.toFixed(2)}`,
    worstAll.overFloor <= OVER_FLOOR_TARGET,
  )
  const worstHeavy = worst(heavyRows, (r) => r.overFloor)
  rec.target(
    '  same, body-heavy shapes',
    `≤ ${OVER_FLOOR_TARGET}`,
    `${worstHeavy.overFloor.toFixed(2)} (worst, ${worstHeavy.label})`,
    worstHeavy.overFloor <= OVER_FLOOR_TARGET,
  )
  if (all[0].base != null) {
    const worstBase = worst(all, (r) => r.baseOverFloor)
    const worstBaseHeavy = worst(heavyRows, (r) => r.baseOverFloor)
    rec.target(
      '  baseline build, same rounds',
      'informational',
      `${worstBase.baseOverFloor.toFixed(2)} (worst, ${worstBase.label}); body-heavy ${worstBaseHeavy.baseOverFloor.toFixed(2)}`,
      'info',
    )
  }
  if (peers.v9) {
    const ratio = (r) => r.ours / r.oc9
    const w = worst(sizeRows, ratio)
    rec.target(
      'ours / OpenClaw 2026.9.6 budgetCompactionSummary, all sizes',
      '≤ 1.5×',
      `${fmtX(ratio(w))} (worst, ${w.label}); seed sample ${fmtX(ratio(sizeRows[0]))}`,
      ratio(w) <= 1.5,
    )
    const ratioS = (r) => r.oursS / r.oc9S
    const wS = worst(sizeRows, ratioS)
    rec.target(
      '  same, both + JSON.stringify of the result',
      'informational',
      `${fmtX(ratioS(wS))} (worst, ${wS.label}); seed sample ${fmtX(ratioS(sizeRows[0]))}`,
      'info',
    )
    const wH = worst(heavyRows, ratioS)
    rec.target(
      '  same, body-heavy shapes',
      'informational',
      `${fmtX(ratioS(wH))} (worst, ${wH.label}); alone ${fmtX(ratio(worst(heavyRows, ratio)))} (worst)`,
      'info',
    )
  } else {
    rec.target('ours / OpenClaw 2026.9.6 budgetCompactionSummary', '≤ 1.5×', 'not measured (peer unavailable)', null)
  }
  const big = sizeRows.filter((r) => r.units >= 64 * KI)
  if (big.length >= 2) {
    const per = big.map((r) => r.nsPerUnit)
    rec.target(
      'linearity: ours ns/unit, 64 Ki..largest (max/min)',
      'informational',
      `${Math.min(...per).toFixed(2)}–${Math.max(...per).toFixed(2)} ns/unit (${fmtX(Math.max(...per) / Math.min(...per))})`,
      'info',
    )
  }
}

/** `baseline`: { name, addon } of the build given with --baseline, or null. */
async function benchCompaction({ root, native, baseline, setup, quick, rec }) {
  const peers = await loadPeersLogged(setup)
  const ctx = { native, baseline: baseline?.addon, peers }
  const sizeRows = bySize(ctx, { root, quick })
  const heavyRows = bodyHeavy(ctx, { quick })
  const baselineNote = baseline
    ? ` "baseline" is \`${baseline.name}\`, the build given with \`--baseline\`, timed in the same rounds.`
    : ''
  rec.markdown(
    '### `capCompactionSummaryPreservingSuffix` (maxChars 16000, median per call)\n\n' +
      mdTable(costTable(sizeRows, { withBudget: false })) +
      '\n\nAgainst the JS functions, measured side by side in the same process:\n\n' +
      mdTable(peerTable(sizeRows)) +
      '\n\n"copy floor" is the addon\'s `capCompactionSummary(body + suffix, 0)`: it copies the same units in and out and does nothing else. ' +
      'The JS peers return ropes/slices of their inputs (V8 does not copy a `slice` or a `+`), so their time hardly grows with the input; ' +
      'an N-API function must copy its string arguments into native memory first. ' +
      'The "+ JSON.stringify" ratio times both with the serialisation the session store applies next (which flattens the rope 2026.9.6 returns).' +
      baselineNote,
  )
  rec.markdown(
    '### Body-heavy shapes (body + suffix @ maxChars, median per call)\n\n' +
      'Bodies of the five headings and hundreds of 3–17-word bullets (some CJK and emoji), OpenClaw-shaped suffixes ' +
      '(`dev/body-heavy.js`).\n\n' +
      mdTable(costTable(heavyRows, { withBudget: true })) +
      '\n\n' +
      mdTable(peerTable(heavyRows)),
  )
  recordTargets(rec, sizeRows, heavyRows, peers)
  const lostAny = [...sizeRows, ...heavyRows].filter((r) => r.headingsLost)
  if (lostAny.length) console.log(`note: ours lost required headings at ${lostAny.map((r) => r.label).join(', ')}`)
  return { sizeRows, heavyRows }
}

module.exports = { benchCompaction, inputOfSize }
