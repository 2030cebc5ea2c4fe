'use strict'
// Helpers for the plugin's end-to-end specs: a scratch OpenClaw home per spec file, gateway
// processes (plugin-gateway.mjs under Node 22, on the real OpenClaw from setup-oracle.sh),
// and readers for what the fake backend received and what the plugin wrote.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const { NODE22, OPENCLAW_DIR } = process.env
const ROOT = path.resolve(__dirname, '..', '..')
const DRIVER = path.join(__dirname, 'plugin-gateway.mjs')
const FAKE_ACPX = path.join(__dirname, 'fixtures', 'fake-acpx')
const PLUGIN_ID = 'openclaw-context-native'
const LIVE_TURN = '--- LIVE TURN ---\n'
const BOOTSTRAP = '--- BOOTSTRAP CONTEXT (already resolved) ---'

function requireOracle() {
  if (!NODE22 || !OPENCLAW_DIR) {
    throw new Error('NODE22 and OPENCLAW_DIR must be set: run `npm test` (it runs scripts/setup-oracle.sh)')
  }
}

/** A scratch OpenClaw home: state, config, the fake backend's record. */
function createWorld(name) {
  requireOracle()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `occn-plugin-${name}-`))
  const world = {
    dir,
    home: path.join(dir, 'home'),
    stateDir: path.join(dir, 'home', '.openclaw'),
    workspaceDir: path.join(dir, 'workspace'),
    record: path.join(dir, 'backend-record.jsonl'),
    failResumeFile: path.join(dir, 'fail-resume'),
    processes: 0,
  }
  fs.mkdirSync(world.workspaceDir, { recursive: true })
  fs.mkdirSync(world.stateDir, { recursive: true })
  return world
}

function removeWorld(world) {
  if (!world || process.env.OCCN_KEEP_E2E) return
  for (const dir of [world.dir, ...(world.extraDirs ?? [])]) fs.rmSync(dir, { recursive: true, force: true })
}

const stripAnsi = (text) => text.replace(/\x1b\[[0-9;]*m/g, '')

/**
 * One gateway process: loads the plugin (this package) and the fake acpx with the real
 * loader, runs `steps` in order, exits. Returns the driver's results and the lines this
 * plugin logged (its `api.logger` writes through OpenClaw's logger to stdout).
 */
function runGateway(
  world,
  steps,
  { pluginConfig = {}, failResume = false, pluginDirs = [ROOT, FAKE_ACPX], openclawDir = OPENCLAW_DIR, env = {} } = {},
) {
  world.processes += 1
  const n = world.processes
  const jobFile = path.join(world.dir, `job-${n}.json`)
  const outFile = path.join(world.dir, `out-${n}.json`)
  fs.writeFileSync(
    jobFile,
    JSON.stringify({
      openclawDir,
      workspaceDir: world.workspaceDir,
      pluginDirs,
      pluginIds: [PLUGIN_ID, 'fake-acpx'],
      pluginConfig,
      outFile,
      steps,
    }),
  )
  if (failResume) fs.writeFileSync(world.failResumeFile, '')
  else fs.rmSync(world.failResumeFile, { force: true })
  const result = spawnSync(NODE22, [DRIVER, jobFile], {
    encoding: 'utf8',
    timeout: 240000,
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env,
      HOME: world.home,
      OPENCLAW_STATE_DIR: world.stateDir,
      FAKE_ACP_RECORD: world.record,
      FAKE_ACP_FAIL_RESUME: world.failResumeFile,
      NO_COLOR: '1',
      ...env,
    },
  })
  const stdout = stripAnsi(`${result.stdout}\n${result.stderr}`)
  fs.writeFileSync(path.join(world.dir, `process-${n}.log`), stdout)
  if (result.status !== 0 || !fs.existsSync(outFile)) {
    throw new Error(`gateway process ${n} failed (${result.status ?? result.signal}):\n${stdout.slice(-4000)}`)
  }
  const out = JSON.parse(fs.readFileSync(outFile, 'utf8'))
  for (const [i, step] of out.steps.entries()) {
    if (step.error) throw new Error(`gateway process ${n}, step ${i} (${JSON.stringify(steps[i])}): ${step.error}`)
  }
  const pluginLines = [...stdout.split('\n'), ...out.logs.map((l) => l.msg)].filter((line) => line.includes(`${PLUGIN_ID}:`))
  return { ...out, pluginLines, stdout }
}

/** Everything the fake backend recorded, in order. */
function readRecord(world) {
  if (!fs.existsSync(world.record)) return []
  return fs
    .readFileSync(world.record, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
}

/** The texts the backend received (`turn` events), optionally those after `from`. */
function backendTurns(world, from = 0) {
  return readRecord(world)
    .filter((event) => event.type === 'turn')
    .slice(from)
}

function readLog(logPath) {
  if (!fs.existsSync(logPath)) return []
  return fs
    .readFileSync(logPath, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
}

/** The prompt's parts: the injected excerpt lines, the summary, the live turn. */
function parsePrompt(text) {
  const at = text.lastIndexOf(LIVE_TURN)
  const live = at < 0 ? text : text.slice(at + LIVE_TURN.length)
  const head = at < 0 ? '' : text.slice(0, at)
  const excerpt = []
  const marker = head.indexOf('## Recent Perpetual Log Excerpt\n')
  if (marker >= 0) {
    for (const line of head.slice(marker).split('\n').slice(1)) {
      // `N. [ts] role: text`, or `role (STATUS)` for a failed turn's reply.
      const match = /^\d+\. \[([^\]]*)\] (\w+)(?: \(([^)]*)\))?: (.*)$/.exec(line)
      if (match) excerpt.push({ ts: match[1], role: match[2], status: match[3], text: match[4] })
    }
  }
  const summaryAt = head.indexOf('## Rolling Continuity Summary\n')
  const summary =
    summaryAt < 0 ? undefined : head.slice(summaryAt, marker >= 0 && marker > summaryAt ? marker : undefined)
  return { live, excerpt, summary, reload: head.includes(BOOTSTRAP), metadata: head.startsWith('## Turn Metadata') }
}

/** The log entry an excerpt line shows (its first line: entries can span lines). */
function entryOfExcerptLine(log, line) {
  return log.find((entry) => entry.role === line.role && String(entry.ts) === line.ts && entry.text.split('\n')[0] === line.text)
}

module.exports = {
  BOOTSTRAP,
  FAKE_ACPX,
  PLUGIN_ID,
  ROOT,
  backendTurns,
  createWorld,
  entryOfExcerptLine,
  parsePrompt,
  readLog,
  readRecord,
  removeWorld,
  runGateway,
}
