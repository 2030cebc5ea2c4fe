#!/usr/bin/env node
// Installs the OpenClaw releases of scripts/openclaw-plugin-releases.json (those whose
// `openclaw plugins install` scans a plugin's files) with their dependencies, under Node 22,
// from the npm registry only, each into <cache>/<version>/node_modules/openclaw
// (--ignore-scripts, exact version; the lock file's sha512 checked against the pinned one).
// Idempotent: an install that is there and matches is kept. Cache: $PLUGIN_RELEASES_CACHE_DIR,
// else scripts/cache-dir.js's plugin-releases folder (outside the checkout).
// Needs NODE22 (scripts/setup-oracle.sh prints it). Prints, on stdout,
// OPENCLAW_PLUGIN_RELEASES=<package folder>,<package folder>,…
'use strict'
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')

const { releases } = require('./openclaw-plugin-releases.json')
const cacheDir = require('./cache-dir.js').cacheDir('plugin-releases')
const scratchHome = path.join(cacheDir, 'home')

const log = (message) => process.stderr.write(`setup-plugin-releases: ${message}\n`)
const fail = (message) => {
  log(message)
  process.exit(1)
}

/** The integrity npm recorded for the installed openclaw, or undefined. */
function installedIntegrity(installRoot, version) {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(installRoot, 'node_modules', 'openclaw', 'package.json'), 'utf8'))
    const lock = JSON.parse(fs.readFileSync(path.join(installRoot, 'package-lock.json'), 'utf8'))
    return pkg.version === version ? lock.packages?.['node_modules/openclaw']?.integrity : undefined
  } catch {
    return undefined
  }
}

function install({ version, integrity }) {
  const installRoot = path.join(cacheDir, version)
  const pkg = path.join(installRoot, 'node_modules', 'openclaw')
  if (installedIntegrity(installRoot, version) === integrity) return pkg
  const started = Date.now()
  fs.rmSync(installRoot, { recursive: true, force: true })
  fs.mkdirSync(installRoot, { recursive: true })
  const npmCache = fs.mkdtempSync(path.join(cacheDir, '.npm-'))
  try {
    const args = ['install', '--prefix', installRoot, '--ignore-scripts', '--omit=dev', '--save-exact', `openclaw@${version}`]
    const result = spawnSync('bash', [path.join(__dirname, 'npm-scratch.sh'), scratchHome, npmCache, '--node', process.env.NODE22, ...args], {
      encoding: 'utf8',
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    if (result.status !== 0) fail(`npm install openclaw@${version} failed: ${(result.stderr || '').trim().split('\n').slice(-3).join(' | ')}`)
  } finally {
    fs.rmSync(npmCache, { recursive: true, force: true })
  }
  const got = installedIntegrity(installRoot, version)
  if (got !== integrity) fail(`openclaw@${version}: installed with integrity ${got}, not the pinned ${integrity}`)
  log(`openclaw@${version}: installed in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  return pkg
}

if (!process.env.NODE22) fail('NODE22 must be set (scripts/setup-oracle.sh prints it)')
fs.mkdirSync(scratchHome, { recursive: true })
process.stdout.write(`OPENCLAW_PLUGIN_RELEASES=${releases.map(install).join(',')}\n`)
