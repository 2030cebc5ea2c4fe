#!/usr/bin/env node
// `npm test` (the contributor loop) and `npm run test:e2e` (`--e2e`: the real-OpenClaw suites),
// step by step as scripts/test-plan.js lists them for this host; a step that does not apply
// here prints why. `--dry-run` prints the plan only. Each step is announced by name, says how
// long it took, and while it runs says every 30 s that it still does: cargo and jest print
// nothing for minutes at times (a cold compile, `cargo test --quiet`), and a log that stops
// looks like a hang.
'use strict'
const { spawn } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { currentHost, plan } = require('./test-plan.js')

const root = path.resolve(__dirname, '..')
const e2e = process.argv.includes('--e2e')
const dryRun = process.argv.includes('--dry-run')
const env = { ...process.env }

/** `node` is the Node running this script; `$NAME` a variable an earlier step printed. */
const resolveArg = (arg) => (arg === 'node' ? process.execPath : arg.startsWith('$') ? env[arg.slice(1)] : arg)

/** How often a running step says it still runs. */
const HEARTBEAT_MS = 30000

/** `command args` run to its end: `{ status, signal, stdout }` (stdout only when captured). */
function run(command, args, { capture }) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env,
      stdio: capture ? ['ignore', 'pipe', 'inherit'] : 'inherit',
    })
    let stdout = ''
    child.stdout?.on('data', (chunk) => {
      stdout += chunk
    })
    child.on('error', (error) => resolve({ status: null, signal: error.code, stdout }))
    child.on('close', (status, signal) => resolve({ status, signal, stdout }))
  })
}

async function runStep(step) {
  const [command, ...args] = step.run.map(resolveArg)
  if (!command) throw new Error(`${step.name}: ${step.run[0]} is not set`)
  const report = step.jest ? path.join(os.tmpdir(), `occn-jest-${process.pid}-${Date.now()}.json`) : undefined
  const fullArgs = report ? [...args, '--json', `--outputFile=${report}`] : args
  console.log(`\n== ${step.name}\n$ ${[command, ...fullArgs].join(' ')}`)
  const started = Date.now()
  const seconds = () => Math.round((Date.now() - started) / 1000)
  const heartbeat = setInterval(() => console.log(`== ${step.name}: still running (${seconds()} s)`), HEARTBEAT_MS)
  const result = await run(command, fullArgs, { capture: step.vars })
  clearInterval(heartbeat)
  if (step.vars) readVars(result.stdout)
  if (result.status !== 0) {
    if (report) printFailures(report)
    console.error(`\n${step.name} failed (${result.status ?? result.signal}) after ${seconds()} s`)
    process.exit(result.status || 1)
  }
  console.log(`== ${step.name}: ${seconds()} s`)
  if (report) fs.rmSync(report, { force: true })
}

/** The NAME=value lines a setup script prints (where it put Node 22/24, the releases, …). */
function readVars(stdout) {
  for (const line of stdout.split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim())
    if (match) env[match[1]] = match[2]
  }
}

/**
 * A jest run's failures, repeated short as the very last lines: a CI log is often read from
 * its end, and jest prints them amid console output.
 */
function printFailures(report) {
  let results
  try {
    results = JSON.parse(fs.readFileSync(report, 'utf8'))
  } catch {
    return
  }
  console.error('\n== failing tests')
  for (const suite of results.testResults) {
    const file = path.relative(root, suite.name)
    const failed = suite.assertionResults.filter((test) => test.status === 'failed')
    if (failed.length === 0 && suite.status === 'failed') console.error(`${file}: ${brief(suite.message)}`)
    for (const test of failed) {
      console.error(`${file} > ${test.ancestorTitles.concat(test.title).join(' > ')}`)
      for (const message of test.failureMessages) console.error(brief(message))
    }
  }
  fs.rmSync(report, { force: true })
}

/** A failure message without jest's own stack frames, 25 lines at most. */
const brief = (message) =>
  message
    .split('\n')
    .filter((line) => !/^\s+at .*node_modules/.test(line))
    .slice(0, 25)
    .join('\n')

async function main() {
  for (const step of plan(currentHost(), { e2e })) {
    if (step.skip) console.log(`\n== ${step.name}: left out: ${step.skip}`)
    else if (dryRun) console.log(`${step.name}: ${step.run.join(' ')}`)
    else await runStep(step)
  }
}

main()
