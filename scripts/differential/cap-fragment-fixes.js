#!/usr/bin/env node
// Whether every difference between two builds of the compaction cap is a fragment fix:
//
//   node scripts/differential/cap-fragment-fixes.js OLD.node NEW.node [--cases N] [--seed S] [--show K]
//
// Runs the cases of scripts/differential/cap.js (same generator, same seed and indices) and, for
// each case where the builds differ (any report field, or `capCompactionSummary`), checks that
// the old summary has a fragment line and the new one has none (scripts/differential/fragments.js
// says what one is; either of its two counts), or else that the old suffix part after its marker
// only had more white space first (a tail of blanks, kept where no word start fits: the new one
// has none), and the new result no fragment line. Prints the counts by budget range
// and the first K other differences. Exit code 0 when there are none, 1 otherwise, 2 on bad usage.
'use strict'

const { caseAt } = require('./cap-inputs.js')
const { fragmentLines, fragmentsByPosition } = require('./fragments.js')
const { parseCommandLine, loadBuild, outcome } = require('./lib.js')

const USAGE = 'node scripts/differential/cap-fragment-fixes.js OLD.node NEW.node [--cases N] [--seed S] [--show K]'

const describeError = (error) => `${error.code || error.name}: ${error.message}`
const SUFFIX_MARKER = '[Earlier compaction context truncated to fit budget]'

/** What a result holds after the suffix's marker ('' without one). */
function afterSuffixMarker(summary) {
  const at = summary.indexOf(SUFFIX_MARKER)
  return at < 0 ? '' : summary.slice(at + SUFFIX_MARKER.length)
}

function same(a, b) {
  if ('error' in a || 'error' in b) return a.error === b.error
  if (typeof a.value === 'string') return a.value === b.value
  const keys = new Set([...Object.keys(a.value), ...Object.keys(b.value)])
  return [...keys].every((key) => Object.is(a.value[key], b.value[key]))
}

function range(maxChars) {
  if (typeof maxChars !== 'number' || !Number.isFinite(maxChars) || maxChars <= 0) return 'special'
  if (maxChars <= 400) return '0-400'
  if (maxChars <= 2000) return '400-2K'
  if (maxChars <= 20000) return '2K-20K'
  return '>20K'
}

function main() {
  const args = parseCommandLine(USAGE, { counts: { cases: 20000, seed: 1, show: 5 } })
  const [oldBuild, newBuild] = args.builds.map((file) => loadBuild(file, USAGE))
  const tally = new Map() // range -> { differ, fix, blank, other }
  const counts = { fix: 0, blank: 0, other: 0 }
  const others = []
  let differ = 0
  for (let index = 0; index < args.cases; index++) {
    const c = caseAt(args.seed, index)
    const report = (build) =>
      outcome(() => build.capCompactionSummaryReport(c.body, c.suffix, c.maxChars, c.options), describeError)
    const old = report(oldBuild)
    const now = report(newBuild)
    let plainDiffers = false
    if (index % 4 === 0) {
      const text = c.body + c.suffix
      const plain = (build) => outcome(() => build.capCompactionSummary(text, c.maxChars), describeError)
      plainDiffers = !same(plain(oldBuild), plain(newBuild))
    }
    if (same(old, now) && !plainDiffers) continue
    differ++
    const row = tally.get(range(c.maxChars)) ?? { differ: 0, fix: 0, blank: 0, other: 0 }
    tally.set(range(c.maxChars), row)
    row.differ++
    // Fragments by either count (by position: a piece equal to a line elsewhere is no excuse).
    const loose = (summary) => fragmentLines(summary, [c.body, c.suffix])
    const placed = (summary) => fragmentsByPosition(summary, c.body, c.suffix)
    const errors = 'error' in old || 'error' in now
    let kind = 'other'
    if (!plainDiffers && !errors) {
      const [was, is] = [old.value.summary, now.value.summary]
      const [wasLoose, wasPlaced] = [loose(was), placed(was)]
      // A line that both results hold and a count flags in both is not the change's doing: the
      // count's own miss (a whole line that lost trailing CRs, or matched to an earlier copy of a
      // repeated line).
      const isLoose = loose(is).filter((line) => !wasLoose.includes(line))
      const isPlaced = placed(is).filter((line) => !wasPlaced.includes(line))
      const fixed = wasLoose.length + wasPlaced.length > loose(is).length + placed(is).length
      if (fixed && isLoose.length === 0 && isPlaced.length === 0) kind = 'fix'
      else {
        const [wasAfter, isAfter] = [afterSuffixMarker(was), afterSuffixMarker(is)]
        if (
          isLoose.length === 0 &&
          isPlaced.length === 0 &&
          wasAfter !== isAfter &&
          wasAfter.trimStart() === isAfter.trimStart()
        )
          kind = 'blank'
      }
    }
    row[kind]++
    counts[kind]++
    if (kind === 'other' && others.length < args.show) {
      const lines = (o) =>
        'error' in o ? o.error : JSON.stringify([...loose(o.value.summary), ...placed(o.value.summary)])
      others.push(
        `case ${index} (${c.kind}) maxChars ${c.maxChars}: old fragments ${lines(old)}, new fragments ${lines(now)}${plainDiffers ? ', capCompactionSummary differs' : ''}`,
      )
    }
  }
  console.log(
    `cap fragment fixes: seed ${args.seed}, ${args.cases} cases, ${differ} differ: ${counts.fix} fragment fixes (the old result has a fragment line, the new one none of its own), ${counts.blank} where the old suffix part only had a tail of white space more after its marker, ${counts.other} other`,
  )
  console.log('budget    differ    fix  blank  other')
  for (const [key, row] of [...tally].sort(([a], [b]) => a.localeCompare(b))) {
    console.log(
      `${key.padEnd(9)} ${String(row.differ).padStart(6)} ${[row.fix, row.blank, row.other].map((n) => String(n).padStart(6)).join(' ')}`,
    )
  }
  for (const text of others) console.log(text)
  process.exit(counts.other === 0 ? 0 : 1)
}

main()
