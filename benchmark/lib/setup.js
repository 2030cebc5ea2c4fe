'use strict'
// Where the peers are (scripts/setup-bench.sh) and which Node runs the bench: 2026.9.6 needs
// Node >= 24.16 and 2026.7.2 >= 22.22, so on an older Node the bench re-runs itself under the
// cached Node 24, passing what setup found in OCCN_BENCH_SETUP.
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { parseVersion, compareVersions } = require('../../lib/openclaw-release.js')
const { oraclePaths } = require('../../dev/oracle-paths.js')
const { cacheDir } = require('../../dev/cache-dir.js')

/** The oldest Node each peer's dist loads on (benchmark/lib/peers.mjs loads them). */
const PEER_NODE = { openclaw9: '24.16.0', openclaw7: '22.22.0' }

/** Whether `version` (default: this Node's) is `floor` or newer, by SemVer precedence. */
function nodeAtLeast(floor, version = process.versions.node) {
  return compareVersions(parseVersion(version), parseVersion(floor)) >= 0
}

/** The bench's cache (peers, generated logs): $BENCH_CACHE_DIR, as for scripts/setup-bench.sh. */
function benchCacheDir() {
  return cacheDir('bench')
}

/** NODE22, NODE24, OPENCLAW_DIR (2026.7) and OPENCLAW_2026_9_DIR, those that exist. */
function readSetup(root, { runSetup }) {
  if (process.env.OCCN_BENCH_SETUP) return JSON.parse(process.env.OCCN_BENCH_SETUP)
  const setup = {}
  if (runSetup) {
    console.log('bench: scripts/setup-bench.sh (Node 22/24, openclaw 2026.7.2 and 2026.9.6; skipped steps are quick)')
    const r = spawnSync('bash', [path.join(root, 'scripts/setup-bench.sh')], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    if (r.status !== 0) console.log(`bench: setup-bench.sh failed (exit ${r.status}); running with what is there`)
    for (const line of (r.stdout || '').split('\n')) {
      const m = /^([A-Z0-9_]+)=(.*)$/.exec(line)
      if (m) setup[m[1]] = m[2]
    }
  }
  // Defaults: where the setup scripts put things.
  const oracle = oraclePaths()
  const defaults = {
    NODE22: oracle.node22,
    NODE24: oracle.node24,
    OPENCLAW_DIR: oracle.openclawDir,
    OPENCLAW_2026_9_DIR: oracle.openclawNextDir,
  }
  for (const [k, v] of Object.entries(defaults)) if (setup[k] === undefined && fs.existsSync(v)) setup[k] = v
  return setup
}

/**
 * Re-runs `script` with `argv` under a newer cached Node when this one is too old for a peer;
 * returns its exit code, or null when this Node will do (or re-running is off).
 */
function rerunUnderNewerNode(script, argv, setup, { allowed }) {
  if (process.env.OCCN_BENCH_REEXEC || !allowed) return null
  const exe = (p) => p && fs.existsSync(p) && p
  const target =
    !nodeAtLeast(PEER_NODE.openclaw9) && exe(setup.NODE24)
      ? setup.NODE24
      : !nodeAtLeast(PEER_NODE.openclaw7) && exe(setup.NODE22)
        ? setup.NODE22
        : null
  if (!target) return null
  const v = spawnSync(target, ['--version'], { encoding: 'utf8' }).stdout.trim()
  console.log(
    `bench: this is Node ${process.version}; re-running under ${v} (${target}) so that every peer loads in one process`,
  )
  const r = spawnSync(target, [script, ...argv], {
    stdio: 'inherit',
    env: { ...process.env, OCCN_BENCH_REEXEC: '1', OCCN_BENCH_SETUP: JSON.stringify(setup) },
  })
  return r.status ?? 1
}

module.exports = { PEER_NODE, nodeAtLeast, benchCacheDir, readSetup, rerunUnderNewerNode }
