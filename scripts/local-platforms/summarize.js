#!/usr/bin/env node
// summarize.js PLATFORM SUMMARY_JSON [--strict]: one line of counts ("N passed,
// N failed, N skipped"), the failed tests and the skipped ones (their names
// carry the reason: __test__/fixtures/platform.js), from
// jest-summary-reporter.js's file. --strict: exit 1 on any failure (a spec file
// that failed to run counts as one) and on any skip without its reason.
'use strict'
const [platform, file, mode] = process.argv.slice(2)
const tests = require(require('node:path').resolve(file))
const count = (status) => tests.filter((test) => test.status === status).length
const skipped = tests.length - count('passed') - count('failed')
const specs = new Set(tests.map((test) => test.spec)).size
console.log(
  `${platform}: ${count('passed')} passed, ${count('failed')} failed, ${skipped} skipped (${specs} spec files)`,
)
// A failure's message on its line, whitespace folded: CI logs are read from their tail.
const oneLine = (message) =>
  String(message || '')
    .replace(/\s+/g, ' ')
    .trim()
for (const test of tests.filter((t) => t.status === 'failed'))
  console.log(`  failed: ${test.spec} > ${test.name}${test.message ? `: ${oneLine(test.message)}` : ''}`)
for (const test of tests.filter((t) => t.status !== 'failed' && t.status !== 'passed'))
  console.log(`  skipped: ${test.spec} > ${test.name}`)
// (Without --strict, tests left out with -t are skipped too, and need no reason here.)
const unexplained =
  mode !== '--strict'
    ? []
    : tests.filter((t) => t.status !== 'failed' && t.status !== 'passed' && !t.name.includes('[skipped '))
for (const test of unexplained) console.log(`  skipped without a reason in its name: ${test.spec} > ${test.name}`)
if (mode === '--strict' && count('failed') + unexplained.length > 0) process.exit(1)
