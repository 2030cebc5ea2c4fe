#!/usr/bin/env node
// `npm run bench`: side-by-side timings in ONE process (the machine may be shared and noisy:
// compare the ratios, measured in interleaved rounds, rather than the absolute numbers).
//
//   1. capCompactionSummaryPreservingSuffix (sections/compaction.js): by input size at maxChars
//      16000 and on body-heavy shapes, against the copy floor and OpenClaw's own functions.
//   2. readPersistentChatLogEntries(path, 25) on 10 MB / 256 MB / 1 GB logs (sections/logs.js).
//   3. the persistent-chat builders (sections/chat.js).
//   4. require() time and .node size (sections/load.js).
//   5. the WASI fallback beside the native build on the same cases (sections/wasi.js; skipped, with
//      the reason, when no WASI build is there: `npm run build:all -- wasm32-wasip1` makes one).
//   6. a turn through the plugin against the same dispatch without it (sections/plugin.js).
// Then a summary of the targets (PASS/MISS) and a markdown table, also written to benchmark/results.md.
//
// Peers and Node 22/24 come from scripts/setup-bench.sh (run here, idempotent). On Node < 24 the
// bench re-runs itself under the cached Node 24 (2026.9.6 needs >= 24.16; 2026.7.2 >= 22.22).
//
// Flags: --quick (smaller sizes, 10 MB and 256 MB logs only), --only=compaction,logs,chat,load,wasi,plugin,
//        --no-setup (do not run scripts/setup-bench.sh), --no-reexec (stay on this Node),
//        --no-write (do not write benchmark/results.md),
//        --baseline=OLD.node (another build's cap, timed in the same rounds as this one's).
'use strict'

const fs = require('node:fs')
const path = require('node:path')

const { parseBenchArgs } = require('./lib/args.js')
const { readSetup, rerunUnderNewerNode } = require('./lib/setup.js')
const { fuzzerProcesses, machineLine, loadAverage } = require('./lib/machine.js')
const { Report } = require('./lib/report.js')
const { mdTable } = require('./lib/format.js')
const { now } = require('./lib/harness.js')
const { benchCompaction } = require('./sections/compaction.js')
const { benchLogs } = require('./sections/logs.js')
const { benchChat } = require('./sections/chat.js')
const { benchLoad } = require('./sections/load.js')
const { benchWasi } = require('./sections/wasi.js')
const { benchPlugin } = require('./sections/plugin.js')

const ROOT = path.resolve(__dirname, '..')

// Each section and its place in the document. They run in this array's order: the in-process
// sections that need no peer first, since importing the two OpenClaw dists leaves ~700 MB of
// heap and code behind, which slows later allocation-heavy calls.
const SECTIONS = [
  { name: 'chat', order: 3, run: benchChat },
  { name: 'load', order: 4, run: benchLoad },
  { name: 'wasi', order: 5, run: benchWasi },
  { name: 'plugin', order: 6, run: benchPlugin },
  { name: 'logs', order: 2, run: benchLogs },
  { name: 'compaction', order: 1, run: benchCompaction },
]

function resultsDocument({ report, machine, noise }) {
  const date = new Date().toISOString().slice(0, 10)
  const targets = report
    .sortedTargets()
    .map((t) => ({ target: t.name, goal: t.target, measured: t.value, result: t.status }))
  return (
    `## Benchmarks\n\n` +
    `\`npm run bench\` (${date}): ${machine}; ${noise}; load average at the end ${loadAverage()}. ` +
    'All timings are medians measured side by side in one process (interleaved rounds), except the log reader and `require()`, which run in fresh child processes. ' +
    'The machine is shared: read the ratios rather than the absolute times.\n\n' +
    '### Targets\n\n' +
    mdTable(targets) +
    '\n\n' +
    report.sortedMarkdown().join('\n\n') +
    '\n'
  )
}

async function main(argv) {
  let args
  try {
    args = parseBenchArgs(
      argv,
      SECTIONS.map((s) => s.name),
    )
  } catch (error) {
    console.error(`bench: ${error.message}`)
    return 2
  }
  const setup = readSetup(ROOT, { runSetup: args.setup })
  const rerun = rerunUnderNewerNode(__filename, argv, setup, { allowed: args.reexec })
  if (rerun !== null) return rerun

  const native = require(ROOT)
  const baseline = args.baseline
    ? { name: path.basename(args.baseline), addon: require(path.resolve(args.baseline)) }
    : null
  const machine = machineLine()
  const fuzzAtStart = fuzzerProcesses()
  console.log(`\nbench: ${machine}`)
  console.log(
    `bench: addon ${native.__napiBindingTarget}; load average ${loadAverage()}; ` +
      `fuzzer ${fuzzAtStart ? `RUNNING (${fuzzAtStart} processes): numbers are noisier` : 'not running'}` +
      (baseline ? `; baseline ${path.resolve(args.baseline)}` : ''),
  )

  const started = now()
  const report = new Report()
  for (const section of SECTIONS.filter((s) => args.runs(s.name))) {
    await section.run({ root: ROOT, native, baseline, setup, quick: args.quick, rec: report.section(section.order) })
  }

  const fuzzAtEnd = fuzzerProcesses()
  const noise =
    fuzzAtStart || fuzzAtEnd
      ? `a fuzzer was running on one core (start: ${fuzzAtStart}, end: ${fuzzAtEnd} processes)`
      : 'no fuzzer running'
  console.log('\n== targets ==')
  const targets = report.sortedTargets()
  const w = Math.max(...targets.map((t) => t.name.length))
  for (const t of targets)
    console.log(`${t.status.padEnd(4)}  ${t.name.padEnd(w)}  target ${t.target.padEnd(13)}  measured ${t.value}`)

  const doc = resultsDocument({ report, machine, noise })
  console.log('\n== markdown (also in benchmark/results.md) ==\n')
  console.log(doc)
  if (args.write && !args.only && !args.quick) fs.writeFileSync(path.join(__dirname, 'results.md'), doc)
  else if (args.write) console.log('(partial run: benchmark/results.md left unchanged)')
  console.log(`bench: done in ${((now() - started) / 1000).toFixed(0)} s`)
  return 0
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error) => {
      console.error(error)
      process.exit(1)
    },
  )
}

module.exports = { main, SECTIONS }
