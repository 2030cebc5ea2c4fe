#!/usr/bin/env node
// Differential of the compaction caps between two builds of the addon, in one process:
//
//   node scripts/differential/cap.js OLD.node NEW.node [--cases N] [--seed S] [--show K] [--case I]
//
// Runs `capCompactionSummaryReport` (and, on every fourth case, `capCompactionSummary`) of both
// builds on N generated cases (default 20,000; scripts/differential/cap-inputs.js says which) and
// compares the results byte for byte: every report field, or the error thrown. Prints a tally by
// kind and budget range and the first K differences (default 5), with the case index to re-run
// alone with --case. Exit code: 0 when the builds agree on every case, 1 when they differ, 2 on
// bad usage.
'use strict'

const path = require('node:path')
const { caseAt } = require('./cap-inputs.js')
const { parseCommandLine, loadBuild, outcome } = require('./lib.js')

const USAGE = 'node scripts/differential/cap.js OLD.node NEW.node [--cases N] [--seed S] [--show K] [--case I]'

/** The comparable outcome of one call: its value, or the error it threw. */
const capOutcome = (call) => outcome(call, (error) => `${error.code || error.name}: ${error.message}`)

function sameOutcome(a, b) {
  if ('error' in a || 'error' in b) return a.error === b.error
  if (typeof a.value === 'string') return a.value === b.value
  const keys = new Set([...Object.keys(a.value), ...Object.keys(b.value)])
  return [...keys].every((key) => Object.is(a.value[key], b.value[key]))
}

function budgetRange(maxChars) {
  if (typeof maxChars !== 'number' || !Number.isFinite(maxChars) || maxChars <= 0) return 'special'
  if (maxChars <= 200) return '0-200'
  if (maxChars <= 2000) return '200-2K'
  if (maxChars <= 20000) return '2K-20K'
  return '>20K'
}

/** Where two strings first differ, with a little context on each side. */
function firstDifference(a, b) {
  let at = 0
  while (at < a.length && at < b.length && a[at] === b[at]) at++
  const around = (s) => JSON.stringify(s.slice(Math.max(0, at - 30), at + 50))
  return `at unit ${at} (lengths ${a.length} and ${b.length}): ${around(a)} vs ${around(b)}`
}

function describe(index, c, calls) {
  const lines = [
    `case ${index} (${c.kind}): body ${c.body.length}, suffix ${c.suffix.length}, maxChars ${c.maxChars}, options ${JSON.stringify(c.options)}`,
  ]
  for (const { name, old, now } of calls) {
    if (sameOutcome(old, now)) continue
    if ('error' in old || 'error' in now)
      lines.push(`  ${name}: ${old.error ?? 'no error'} vs ${now.error ?? 'no error'}`)
    else if (typeof old.value === 'string') lines.push(`  ${name}: ${firstDifference(old.value, now.value)}`)
    else {
      for (const key of Object.keys(old.value)) {
        if (Object.is(old.value[key], now.value[key])) continue
        const detail =
          typeof old.value[key] === 'string'
            ? firstDifference(old.value[key], now.value[key])
            : `${old.value[key]} vs ${now.value[key]}`
        lines.push(`  ${name}.${key}: ${detail}`)
      }
    }
  }
  return lines.join('\n')
}

function main() {
  const args = parseCommandLine(USAGE, { counts: { cases: 20000, seed: 1, show: 5, case: null } })
  const [oldBuild, newBuild] = args.builds.map((file) => loadBuild(file, USAGE))
  const tally = new Map() // "kind budget-range" -> { cases, suffixTrimmed, bodyTrimmed, differ }
  const shown = []
  let differ = 0
  const started = performance.now()
  const indices = args.case === null ? Array.from({ length: args.cases }, (_, i) => i) : [args.case]
  for (const index of indices) {
    const c = caseAt(args.seed, index)
    const calls = [
      {
        name: 'capCompactionSummaryReport',
        old: capOutcome(() => oldBuild.capCompactionSummaryReport(c.body, c.suffix, c.maxChars, c.options)),
        now: capOutcome(() => newBuild.capCompactionSummaryReport(c.body, c.suffix, c.maxChars, c.options)),
      },
    ]
    if (index % 4 === 0) {
      const text = c.body + c.suffix
      calls.push({
        name: 'capCompactionSummary',
        old: capOutcome(() => oldBuild.capCompactionSummary(text, c.maxChars)),
        now: capOutcome(() => newBuild.capCompactionSummary(text, c.maxChars)),
      })
    }
    const key = `${c.kind.padEnd(11)} ${budgetRange(c.maxChars)}`
    const row = tally.get(key) ?? { cases: 0, suffixTrimmed: 0, bodyTrimmed: 0, differ: 0 }
    tally.set(key, row)
    row.cases++
    const report = calls[0].now.value
    if (report?.suffixTrimmed) row.suffixTrimmed++
    if (report?.bodyTrimmed) row.bodyTrimmed++
    if (!calls.every(({ old, now }) => sameOutcome(old, now))) {
      row.differ++
      differ++
      if (shown.length < args.show) shown.push(describe(index, c, calls))
    }
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(
    `cap differential: ${path.basename(args.builds[0])} vs ${path.basename(args.builds[1])}, seed ${args.seed}, ${indices.length} cases in ${seconds} s`,
  )
  console.log('kind        budget    cases  suffix cut  body cut  differ')
  for (const [key, row] of [...tally].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(
      `${key.padEnd(19)} ${String(row.cases).padStart(6)} ${String(row.suffixTrimmed).padStart(11)} ${String(row.bodyTrimmed).padStart(9)} ${String(row.differ).padStart(7)}`,
    )
  }
  for (const text of shown) console.log(text)
  console.log(
    differ === 0 ? 'same: every case gave identical results' : `DIFFERENT: ${differ} of ${indices.length} cases`,
  )
  process.exit(differ === 0 ? 0 : 1)
}

main()
