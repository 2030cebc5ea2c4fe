'use strict'
// Does the addon load from a dist chunk's folder, as the patched chunk will load it? The
// probe makes the chunk's own choice (patch-text.js: `createRequire(import.meta.url)`, then
// the first candidate that loads and has the function) and tests only that addon. It runs
// in this process: the command has not loaded the addon itself, so no module cache stands
// in the way, and no child process is started.
const { createRequire } = require('node:module')
const fs = require('node:fs')
const path = require('node:path')
const { oneLine } = require('./errors')
const { FUNCTION_NAME } = require('./patch-text')
const { quoteArg } = require('./shell-quote')
const { untrustedReason } = require('./trust')

/**
 * Goes through `candidates` (package names or absolute paths) from `chunkFile`'s location as
 * the patched chunk does: one that does not resolve, does not load or has no function is
 * passed over (so does the chunk); the first with the function is the one the chunk will
 * use, and the only one tested (a small case, capped right). Before loading a file it
 * checks that no other user could have put it there (trust.js; `trust`: its options, for
 * tests): the chunk would load it too, so an untrusted one ends the probe.
 * `{ ok: true, id, resolved, version }`, else `{ ok: false, failures: [...] }`.
 */
function probe(chunkFile, candidates, { trust } = {}) {
  const req = createRequire(chunkFile)
  const failures = []
  for (const id of candidates) {
    let resolved
    try {
      resolved = fs.realpathSync(req.resolve(id))
    } catch (err) {
      failures.push(`${quoteArg(id)}: ${oneLine(err)}`)
      continue
    }
    const reason = untrustedReason(path.dirname(resolved), trust)
    if (reason) {
      failures.push(`${quoteArg(id)}: resolves to ${quoteArg(resolved)}, but ${reason}; not loaded`)
      return { ok: false, failures }
    }
    let binding
    try {
      binding = req(resolved)
    } catch (err) {
      failures.push(`${quoteArg(id)}: ${oneLine(err)}`)
      continue
    }
    if (!binding || typeof binding[FUNCTION_NAME] !== 'function') {
      failures.push(`${quoteArg(id)}: it has no ${FUNCTION_NAME}`)
      continue
    }
    try {
      const out = binding[FUNCTION_NAME]('## Decisions\n- keep this', 'S'.repeat(200), 80)
      if (typeof out === 'string' && out.length <= 80 && out.includes('## Decisions')) {
        return { ok: true, id, resolved, version: packageVersion(resolved) }
      }
      failures.push(`${quoteArg(id)} (${quoteArg(resolved)}): it returned an unexpected result`)
    } catch (err) {
      failures.push(`${quoteArg(id)} (${quoteArg(resolved)}): ${oneLine(err)}`)
    }
    return { ok: false, failures }
  }
  return { ok: false, failures }
}

/** The version in the package.json beside the resolved entry point ('?' if none). */
function packageVersion(resolved) {
  try {
    return JSON.parse(fs.readFileSync(path.join(path.dirname(resolved), 'package.json'), 'utf8')).version || '?'
  } catch {
    return '?'
  }
}

module.exports = { probe }
