#!/usr/bin/env node
// `npm run demo`: the seed's case on a bundled sample (no network). Shows
// what OpenClaw 2026.7's cap stores and what this package stores instead.
'use strict'
const fs = require('node:fs')
const path = require('node:path')
const { execFileSync } = require('node:child_process')
const native = require('..')
const { REQUIRED_SECTIONS, missingSections } = require('../dev/shapes.js')
const { oraclePaths } = require('../dev/oracle-paths.js')

const root = path.resolve(__dirname, '..')
const samplePath = process.argv[2] || path.join(root, 'samples', 'seed-compaction.json')
const { summaryBody, suffix } = JSON.parse(fs.readFileSync(samplePath, 'utf8'))
const MAX_CHARS = 16000

// OpenClaw 2026.7's rule, modelled: when the suffix alone reaches the budget
// the stored summary is the suffix's last maxChars units (no body at all);
// otherwise the body gets only what the suffix leaves.
function openclawRuleModel(body, tail, maxChars) {
  if (tail.length >= maxChars) {
    let start = tail.length - maxChars
    const unit = tail.charCodeAt(start)
    if (unit >= 0xdc00 && unit <= 0xdfff && start > 0) start += 1
    return tail.slice(start)
  }
  return native.capCompactionSummary(body, maxChars - tail.length) + tail
}

// The real function (scripts/demo-openclaw.mjs, under Node 22), when scripts/setup-oracle.sh
// has installed it (in $ORACLE_DIR, as there).
function realOpenClaw() {
  const { node22, openclawDir: dir } = oraclePaths()
  if (!fs.existsSync(node22) || !fs.existsSync(dir)) return null
  try {
    return JSON.parse(
      execFileSync(node22, [path.join(__dirname, 'demo-openclaw.mjs'), dir, samplePath], {
        encoding: 'utf8',
        maxBuffer: 1 << 26,
      }),
    )
  } catch {
    return null
  }
}

function describe(label, summary) {
  const lost = missingSections(summary)
  const kept = REQUIRED_SECTIONS.length - lost.length
  console.log(`\n${label}`)
  console.log(`  length: ${summary.length} (budget ${MAX_CHARS})`)
  console.log(
    `  required headings kept: ${kept}/${REQUIRED_SECTIONS.length}${lost.length > 0 ? `  (lost: ${lost.join(', ')})` : ''}`,
  )
  console.log(`  starts with: ${JSON.stringify(summary.slice(0, 90))}`)
  console.log(`  ends with:   ${JSON.stringify(summary.slice(-90))}`)
}

console.log(`Sample: ${path.relative(process.cwd(), samplePath)}`)
console.log(`  summary body ${summaryBody.length} chars, preserved suffix ${suffix.length} chars`)

const real = realOpenClaw()
describe(
  real !== null
    ? 'Before: OpenClaw 2026.7.2-beta.4 (the real dist)'
    : "Before: OpenClaw 2026.7's rule (modelled here; `npm run test:e2e` installs the real one)",
  real ?? openclawRuleModel(summaryBody, suffix, MAX_CHARS),
)

const report = native.capCompactionSummaryReport(summaryBody, suffix, MAX_CHARS)
describe('After: openclaw-context-native', report.summary)
console.log(
  `  body budget ${report.bodyBudget}, suffix budget ${report.suffixBudget}; body trimmed: ${report.bodyTrimmed}, suffix trimmed: ${report.suffixTrimmed}`,
)
