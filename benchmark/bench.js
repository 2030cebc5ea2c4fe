#!/usr/bin/env node
// `npm run bench`: side-by-side timings in one process (the machine is shared
// and noisy: compare the ratios, not the absolute numbers).
'use strict'
const native = require('..')
const shapes = require('../__test__/fixtures/shapes.js')

function median(fn, { minMs = 300, minRuns = 20 } = {}) {
  for (let i = 0; i < 5; i++) fn() // warm up
  const samples = []
  const start = process.hrtime.bigint()
  while (samples.length < minRuns || Number(process.hrtime.bigint() - start) / 1e6 < minMs) {
    const t0 = process.hrtime.bigint()
    fn()
    samples.push(Number(process.hrtime.bigint() - t0) / 1e3)
  }
  samples.sort((a, b) => a - b)
  return samples[samples.length >> 1]
}

// A straightforward JS version of the seed's proposed rule: half-budget floor
// for the body, the suffix's tail sliced to what is left.
function seedProposedRule(body, suffix, maxChars) {
  if (!suffix) return native.capCompactionSummary(body, maxChars)
  if (maxChars <= 0 || body.length + suffix.length <= maxChars) return body + suffix
  const bodyBudget = Math.min(body.length, Math.ceil(maxChars / 2))
  const suffixBudget = Math.min(suffix.length, maxChars - bodyBudget)
  const head = body.length <= maxChars - suffixBudget ? body : body.slice(0, maxChars - suffixBudget)
  return head + suffix.slice(suffix.length - suffixBudget)
}

const rows = []
for (const scale of [1, 16, 256]) {
  const body = shapes.structuredBody({ linesPerSection: 30 * scale })
  const suffix = shapes.preservedSuffix({ turns: 3 * scale, toolsPerTurn: 13 })
  const max = 16000
  const both = body + suffix
  const ours = median(() => native.capCompactionSummaryPreservingSuffix(body, suffix, max))
  const floor = median(() => native.capCompactionSummary(both, 0))
  const js = median(() => seedProposedRule(body, suffix, max))
  rows.push({ input: both.length, 'ours µs': ours.toFixed(1), 'copy floor µs': floor.toFixed(1), '(ours-floor)/floor': ((ours - floor) / floor).toFixed(2), 'seed JS rule µs': js.toFixed(1), 'ours/seed JS': (ours / js).toFixed(2) })
}
console.log('capCompactionSummaryPreservingSuffix at maxChars 16000 (median per call)')
console.table(rows)
