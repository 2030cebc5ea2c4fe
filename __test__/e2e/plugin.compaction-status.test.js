'use strict'
// At gateway start the plugin says, in one line, when the running OpenClaw carries the buggy
// compaction cap unpatched, and names the command that fixes it; it patches nothing. On the
// real 2026.7.2-beta.4 (buggy), on a hard-linked copy patched by `openclaw-context patch`,
// and on 2026.9.6 (fixed upstream).
const { spawnSync } = require('node:child_process')
const crypto = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')

const { PLUGIN_ID, ROOT, createWorld, releaseNamed, removeWorld, runGateway } = require('./plugin-harness')

const { OPENCLAW_DIR } = process.env
const CLI = path.join(ROOT, 'cli', 'openclaw-context.js')

let world
let nextWorld

const distDigest = (openclawDir) => {
  const hash = crypto.createHash('sha256')
  const dist = path.join(openclawDir, 'dist')
  for (const name of fs
    .readdirSync(dist)
    .filter((n) => n.endsWith('.js'))
    .sort())
    hash.update(fs.readFileSync(path.join(dist, name)))
  return hash.digest('hex')
}

/**
 * The gateway starts; the status line (or the debug line that says there is nothing to say).
 * `compactionRefresh` off: its own start-up line (plugin.continuity.test.js) is not this spec's.
 */
function startGateway(openclawDir, on = world) {
  const run = runGateway(on, [{ op: 'gatewayStart' }, { op: 'waitForLine', text: `${PLUGIN_ID}: ` }], {
    openclawDir,
    env: { OPENCLAW_LOG_LEVEL: 'debug' },
    pluginConfig: { compactionRefresh: false },
  })
  return run.steps[1].lines
}

beforeAll(() => {
  world = createWorld('compaction-status')
})

afterAll(() => {
  removeWorld(world)
  removeWorld(nextWorld)
})

test('an unpatched 2026.7 gateway: one line naming `openclaw-context patch`, and the dist is left as it was', () => {
  const before = distDigest(OPENCLAW_DIR)
  const lines = startGateway(OPENCLAW_DIR)
  expect(lines).toHaveLength(1)
  expect(lines[0]).toContain(`${PLUGIN_ID}: openclaw 2026.7.2-beta.4`)
  expect(lines[0]).toContain('capCompactionSummaryPreservingSuffix')
  expect(lines[0]).toContain(`run \`openclaw-context patch ${OPENCLAW_DIR}\``)
  expect(distDigest(OPENCLAW_DIR)).toBe(before)
})

test('after `openclaw-context patch`: nothing to say (a debug line only)', () => {
  // A hard-linked copy of the install (the patch replaces the chunk by rename, so the shared
  // cache keeps its bytes), with this package next to it for the patched chunk to load.
  const installRoot = path.resolve(OPENCLAW_DIR, '..', '..')
  // Hard links need one file system: beside the install when the scratch folder is not on it.
  const sameDevice = fs.statSync(world.dir).dev === fs.statSync(installRoot).dev
  const copy = sameDevice
    ? path.join(world.dir, 'install')
    : fs.mkdtempSync(path.join(path.dirname(installRoot), 'occn-plugin-copy-'))
  if (!sameDevice) world.extraDirs = [copy]
  const cp = spawnSync('cp', ['-al', installRoot, copy], { encoding: 'utf8' })
  if (cp.status !== 0) throw new Error(`cp -al failed: ${cp.stderr}`)
  fs.symlinkSync(ROOT, path.join(copy, 'node_modules', 'openclaw-context-native'), 'dir')
  const openclawDir = path.join(copy, 'node_modules', 'openclaw')
  const patch = spawnSync(process.execPath, [CLI, 'patch', openclawDir], { encoding: 'utf8' })
  expect(patch.status).toBe(0)

  const lines = startGateway(openclawDir)
  expect(lines).toEqual([`${PLUGIN_ID}: compaction cap patched (openclaw 2026.7.2-beta.4)`])
})

test('2026.9.6, where upstream fixed the cap: nothing to say', () => {
  const next = releaseNamed('2026.9.6')
  nextWorld = createWorld('compaction-status-next', next)
  const lines = startGateway(next.openclawDir, nextWorld)
  expect(lines).toEqual([`${PLUGIN_ID}: compaction cap fixed-upstream (openclaw ${next.name})`])
})
