'use strict'
// Does the addon load from a dist chunk's folder, as the patched chunk will load it?
// `probeAddon()` runs this file in a fresh `node` (away from the command's own module
// cache and NODE_OPTIONS); that child runs `probe()` and prints its answer as one JSON line.
//
//   node probe-addon.js CHUNK_FILE CANDIDATES_JSON
const { createRequire } = require('node:module')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const FUNCTION_NAME = 'capCompactionSummaryPreservingSuffix'

/**
 * Tries each candidate (a package name or an absolute path) from `chunkFile`'s location;
 * the first that loads and caps a small case correctly wins:
 * `{ ok: true, id, resolved, version }`, else `{ ok: false, failures: [...] }`.
 */
function probe(chunkFile, candidates) {
  const req = createRequire(chunkFile)
  const failures = []
  for (const id of candidates) {
    try {
      const resolved = req.resolve(id)
      const binding = req(id)
      if (typeof binding[FUNCTION_NAME] !== 'function') {
        failures.push(`${id}: it has no ${FUNCTION_NAME}`)
        continue
      }
      const out = binding[FUNCTION_NAME]('## Decisions\n- keep this', 'S'.repeat(200), 80)
      if (typeof out !== 'string' || out.length > 80 || !out.includes('## Decisions')) {
        failures.push(`${id}: it returned an unexpected result`)
        continue
      }
      return { ok: true, id, resolved, version: packageVersion(resolved) }
    } catch (err) {
      failures.push(`${id}: ${String((err && err.message) || err).split('\n')[0]}`)
    }
  }
  return { ok: false, failures }
}

/** The version in the package.json beside the resolved entry point ('?' if none). */
function packageVersion(resolved) {
  try {
    return require(path.join(path.dirname(resolved), 'package.json')).version || '?'
  } catch {
    return '?'
  }
}

/** `probe()` in a fresh `node` (this one's binary), from the chunk's folder. */
function probeAddon(chunkFile, candidates) {
  const result = spawnSync(process.execPath, [__filename, chunkFile, JSON.stringify(candidates)], {
    cwd: path.dirname(chunkFile),
    encoding: 'utf8',
    timeout: 60000,
    env: { ...process.env, NODE_OPTIONS: '' },
    windowsHide: true,
  })
  const line = (result.stdout || '').trim().split('\n').pop()
  try {
    return JSON.parse(line)
  } catch {
    return { ok: false, failures: [`node exited with ${result.status ?? result.signal}: ${(result.stderr || '').trim().split('\n')[0]}`] }
  }
}

if (require.main === module) {
  const [chunkFile, list] = process.argv.slice(2)
  console.log(JSON.stringify(probe(chunkFile, JSON.parse(list))))
}

module.exports = { probe, probeAddon }
