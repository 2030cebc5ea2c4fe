#!/usr/bin/env node
// merge-rerun.js FIRST_JSON [RERUN_JSON]: the rerun of a platform's failed spec files.
//   With FIRST_JSON only: prints the spec files that had a failure, one a line (jest's
//   path patterns, as __test__/NAME), for the rerun; nothing when none failed.
//   With both: FIRST_JSON becomes the first run's results for the spec files that were
//   not rerun plus the rerun's for those that were, and each test that failed first and
//   passed on the rerun is printed as flaky, with its first failure's message, so that
//   a flake is seen in the log even when it does not fail the step.
// For Wine (test-wine.sh), whose emulated process starts and file handles fail now
// and then where Windows itself does not.
'use strict'
const fs = require('node:fs')
const [firstFile, rerunFile] = process.argv.slice(2)
const first = JSON.parse(fs.readFileSync(firstFile, 'utf8'))
const failedSpecs = [...new Set(first.filter((t) => t.status === 'failed').map((t) => t.spec))]
if (!rerunFile) {
  for (const spec of failedSpecs) console.log(`__test__/${spec}`)
  process.exit(0)
}
const rerun = JSON.parse(fs.readFileSync(rerunFile, 'utf8'))
const rerunSpecs = new Set(rerun.map((t) => t.spec))
const key = (t) => `${t.spec} > ${t.name}`
const firstByKey = new Map(first.map((t) => [key(t), t]))
for (const test of rerun) {
  const before = firstByKey.get(key(test))
  if (before && before.status === 'failed' && test.status === 'passed')
    console.log(`  flaky: ${key(test)} (failed once, passed on the rerun): ${firstLine(before.message)}`)
}
// A spec file that failed but did not run again (its rerun could not start) keeps its failures.
const merged = [...first.filter((t) => !rerunSpecs.has(t.spec)), ...rerun]
fs.writeFileSync(firstFile, JSON.stringify(merged, null, 1))

function firstLine(message) {
  return (
    String(message || '')
      .split('\n')
      .map((line) => line.trim())
      .find(Boolean) || '(no message)'
  )
}
