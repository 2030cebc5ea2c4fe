'use strict'
// Where scripts/setup-oracle.sh puts the oracle, for the JS scripts that look there without
// running it (the demo, the bench's defaults): the one $ORACLE_DIR default on the JS side.
// The layout is setup-oracle.sh's (its header lists it); keep the two in step.
const path = require('node:path')

const { cacheDir } = require('./cache-dir.js')

/** The oracle's folder ($ORACLE_DIR, else under cache-dir.js's root) and what setup-oracle.sh puts in it. */
function oraclePaths(env = process.env) {
  const dir = cacheDir('oracle', env)
  return {
    dir,
    node22: path.join(dir, 'node22', 'bin', 'node'),
    node24: path.join(dir, 'node24', 'bin', 'node'),
    openclawDir: path.join(dir, 'openclaw-2026.7', 'node_modules', 'openclaw'),
    openclawNextDir: path.join(dir, 'openclaw-2026.9', 'node_modules', 'openclaw'),
  }
}

module.exports = { oraclePaths }
