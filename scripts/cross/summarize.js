#!/usr/bin/env node
// summarize.js PLATFORM SUMMARY_JSON: one line of counts ("N passed, N failed,
// N skipped") and the failed tests, from jest-summary-reporter.js's file.
'use strict'
const [platform, file] = process.argv.slice(2)
const tests = require(require('node:path').resolve(file))
const count = (status) => tests.filter((test) => test.status === status).length
const skipped = tests.length - count('passed') - count('failed')
const specs = new Set(tests.map((test) => test.spec)).size
console.log(`${platform}: ${count('passed')} passed, ${count('failed')} failed, ${skipped} skipped (${specs} spec files)`)
for (const test of tests.filter((t) => t.status === 'failed')) console.log(`  failed: ${test.spec} > ${test.name}`)
