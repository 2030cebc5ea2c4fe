#!/usr/bin/env node
// summarize.js PLATFORM SUMMARY_JSON [GATE]: one line of counts ("N passed,
// N failed, N skipped") and the failed tests, from jest-summary-reporter.js's
// file. GATE (comma-separated spec files): exit 1 if any of them has a failure
// or did not run; failures elsewhere are reported only.
'use strict'
const [platform, file, gate] = process.argv.slice(2)
const tests = require(require('node:path').resolve(file))
const count = (status) => tests.filter((test) => test.status === status).length
const skipped = tests.length - count('passed') - count('failed')
const specs = new Set(tests.map((test) => test.spec)).size
console.log(`${platform}: ${count('passed')} passed, ${count('failed')} failed, ${skipped} skipped (${specs} spec files)`)
for (const test of tests.filter((t) => t.status === 'failed')) console.log(`  failed: ${test.spec} > ${test.name}`)
if (gate) {
  const gated = gate.split(',')
  const missing = gated.filter((spec) => !tests.some((test) => test.spec === spec && test.status === 'passed'))
  const broken = tests.filter((test) => test.status === 'failed' && gated.includes(test.spec))
  console.log(`  gate (${gated.length} spec files that must pass here): ${broken.length + missing.length === 0 ? 'passed' : `FAILED (${[...new Set([...broken.map((t) => t.spec), ...missing])].join(', ')})`}`)
  if (broken.length + missing.length > 0) process.exit(1)
}
