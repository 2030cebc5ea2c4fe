#!/usr/bin/env node
// `npm test`: build the addon (incremental), run the Rust tests and the jest
// specs against the built .node on Node 20 (this machine's), then on Node 22
// and 24, then the end-to-end specs against the real OpenClaw (Node 22 +
// openclaw@2026.7.2-beta.4, and the release matrix of scripts/setup-releases.js).
// Node 22/24 and OpenClaw are installed into .cache/oracle and .cache/releases
// from the npm registry on first use. SKIP_E2E=1 skips all of that last part.
'use strict'
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const root = path.resolve(__dirname, '..')
const bin = (name) => path.join(root, 'node_modules', '.bin', name)

function run(command, args, options = {}, onFailure = () => {}) {
  console.log(`\n$ ${[command, ...args].join(' ')}`)
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options })
  if (result.status !== 0) {
    onFailure()
    console.error(`\n${command} failed (${result.status ?? result.signal})`)
    process.exit(result.status || 1)
  }
  return result
}

/**
 * A jest run whose failures are repeated, short, as the very last lines: a CI
 * log is often read from its end, and jest prints them amid console output.
 */
function jest(command, args, options = {}) {
  const report = path.join(os.tmpdir(), `occn-jest-${process.pid}-${Date.now()}.json`)
  run(command, [...args, '--json', `--outputFile=${report}`], options, () => printFailures(report))
  fs.rmSync(report, { force: true })
}

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

// The release build (scripts/build.js: on Linux x64 glibc, napi-rs's cross toolchain
// from the npm registry) so the .node needs glibc 2.17 at most; check that it does.
run(process.execPath, [path.join(root, 'scripts', 'build.js')])
run('bash', [path.join(root, 'scripts', 'check-glibc.sh'), path.join(root, 'openclaw-context-native.linux-x64-gnu.node'), '2.17'])
run('cargo', ['test', '--workspace', '--quiet'])
jest(bin('jest'), ['--ci'])

if (process.env.SKIP_E2E === '1') {
  console.log('\nSKIP_E2E=1: skipping Node 22/24 and the end-to-end specs against the real OpenClaw')
} else {
  const setup = run('bash', [path.join(root, 'scripts', 'setup-oracle.sh')], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' })
  const env = { ...process.env }
  const readVars = (stdout) => {
    for (const line of stdout.split('\n')) {
      const match = /^(NODE22|NODE24|OPENCLAW_DIR|OPENCLAW_NEXT_DIR|RELEASES_DIR|OPENCLAW_OLD_DIR|OPENCLAW_PLUGIN_RELEASES)=(.*)$/.exec(line.trim())
      if (match) env[match[1]] = match[2]
    }
  }
  readVars(setup.stdout)
  // The release matrix: one OpenClaw release of each kind, and 2026.6.35 installed in full.
  readVars(run(process.execPath, [path.join(root, 'scripts', 'setup-releases.js')], { env, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' }).stdout)
  // The releases whose `openclaw plugins install` scans the plugin (2026.4.5, 2026.5.2), installed in full.
  readVars(run(process.execPath, [path.join(root, 'scripts', 'setup-plugin-releases.js')], { env, stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' }).stdout)
  // The same prebuilt .node under every Node an operator runs (N-API: no rebuild).
  const jestScript = path.join(root, 'node_modules', 'jest', 'bin', 'jest.js')
  for (const node of [env.NODE22, env.NODE24]) jest(node, [jestScript, '--ci'], { env })
  jest(bin('jest'), ['--ci', '-c', 'jest.e2e.config.js'], { env })
}
