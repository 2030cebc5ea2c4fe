#!/usr/bin/env node
// Prepares the release matrix of `openclaw-context patch` (__test__/e2e/releases*.test.js)
// in a cache folder, from the npm registry only:
//   <cache>/dist/<version>/{package.json,dist/*.js,dist/*.mjs}  each release of
//       scripts/openclaw-releases.json, from its `npm pack` tarball (no dependencies), the
//       tarball's sha512 checked against the pinned integrity, then deleted;
//   <cache>/full-<version>/node_modules/openclaw  the `full` release installed with its
//       dependencies (--ignore-scripts, exact version) under Node 22, to drive its real
//       compaction handler.
// Idempotent: finished steps are skipped. Cache: $RELEASES_CACHE_DIR, else scripts/cache-dir.js's
// releases folder (outside the checkout).
// Needs NODE22 (the path of a Node 22 binary: scripts/setup-oracle.sh prints it) for the
// full install. Prints, on stdout, RELEASES_DIR=<cache>/dist and OPENCLAW_OLD_DIR=<package>.
'use strict'
const { spawnSync } = require('node:child_process')
const crypto = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')

const root = path.resolve(__dirname, '..')
const { releases, full } = require('./openclaw-releases.json')
const cacheDir = require('./cache-dir.js').cacheDir('releases')
const distRoot = path.join(cacheDir, 'dist')
// A scratch HOME, and an npm cache that lives only as long as each step (the tarballs and
// dependencies are not needed once unpacked: 415 MB less on disk). Nothing touches the
// user's ~/.openclaw, npm settings or cache.
const scratchHome = path.join(cacheDir, 'home')

const log = (message) => process.stderr.write(`setup-releases: ${message}\n`)
const fail = (message) => {
  log(message)
  process.exit(1)
}

function run(command, args, options = {}, label = `${command} ${args.join(' ')}`) {
  const result = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, ...options })
  if (result.status !== 0) fail(`${label} failed (${result.status ?? result.signal}): ${(result.stderr || String(result.error || '')).trim().split('\n').slice(-3).join(' | ')}`)
  return result.stdout
}

/** `npm ARGS` through scripts/npm-scratch.sh: HOME is scratchHome, the npm cache `npmCache`. */
function npm(args, { npmCache, node, ...options }) {
  const script = path.join(__dirname, 'npm-scratch.sh')
  return run('bash', [script, scratchHome, npmCache, ...(node ? ['--node', node] : []), ...args], options, `npm ${args.join(' ')}`)
}

const sriOf = (file) => `sha512-${crypto.createHash('sha512').update(fs.readFileSync(file)).digest('base64')}`
// What the matrix needs from a tarball: package.json and the top-level chunks.
const WANTED = /^package\/(?:package\.json|dist\/[^/]+\.m?js)$/

/** The dist-only copy of one release; skipped when its marker says it is complete. */
function fetchRelease({ version, integrity }) {
  const dir = path.join(distRoot, version)
  const marker = path.join(dir, '.integrity')
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8') === integrity) return
  const started = Date.now()
  const tmp = fs.mkdtempSync(path.join(cacheDir, `.pack-${version}-`))
  try {
    const packed = JSON.parse(npm(['pack', `openclaw@${version}`, '--json'], { cwd: tmp, npmCache: path.join(tmp, 'npm-cache') }))
    const tgz = path.join(tmp, packed[0].filename)
    const sri = sriOf(tgz)
    if (sri !== integrity) fail(`openclaw@${version}: the tarball's sha512 is ${sri}, not the pinned ${integrity}`)
    const names = run('tar', ['tzf', tgz]).split('\n').filter((name) => WANTED.test(name))
    fs.writeFileSync(path.join(tmp, 'wanted.txt'), `${names.join('\n')}\n`)
    fs.rmSync(dir, { recursive: true, force: true })
    fs.mkdirSync(dir, { recursive: true })
    run('tar', ['xzf', tgz, '-C', dir, '--strip-components=1', '-T', path.join(tmp, 'wanted.txt')])
    fs.writeFileSync(marker, integrity)
    log(`openclaw@${version}: ${(packed[0].size / 1e6).toFixed(1)} MB packed, ${names.length - 1} chunks kept, ${((Date.now() - started) / 1000).toFixed(1)} s`)
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

/** The full install of one release under Node 22; skipped when it is there. */
function installFull(version) {
  const installRoot = path.join(cacheDir, `full-${version}`)
  const pkg = path.join(installRoot, 'node_modules', 'openclaw')
  const installed = (() => {
    try { return JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).version } catch { return undefined }
  })()
  if (installed === version && fs.existsSync(path.join(pkg, 'dist'))) return pkg
  const node22 = process.env.NODE22
  if (!node22 || !fs.existsSync(node22)) fail('NODE22 is not set to a Node 22 binary (run scripts/setup-oracle.sh first; npm test does)')
  const started = Date.now()
  fs.rmSync(installRoot, { recursive: true, force: true })
  fs.mkdirSync(installRoot, { recursive: true })
  fs.writeFileSync(path.join(installRoot, 'package.json'), `${JSON.stringify({
    name: 'openclaw-release-matrix',
    private: true,
    description: `openclaw@${version} with its dependencies, installed by scripts/setup-releases.js`,
  }, null, 2)}\n`)
  // --ignore-scripts: the postinstall would write ~/.openclaw state. Exact: a caret range
  // would pick a later release. Its engines want Node >= 22: npm runs on Node 22.
  const npmCache = fs.mkdtempSync(path.join(cacheDir, '.npm-cache-'))
  try {
    npm(['install', `openclaw@${version}`, '--save-exact', '--ignore-scripts'], { cwd: installRoot, npmCache, node: node22, stdio: ['ignore', 'ignore', 'pipe'] })
  } finally {
    fs.rmSync(npmCache, { recursive: true, force: true })
  }
  log(`openclaw@${version} installed with its dependencies in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  return pkg
}

fs.mkdirSync(scratchHome, { recursive: true })
fs.mkdirSync(distRoot, { recursive: true })
for (const release of releases) fetchRelease(release)
const oldDir = installFull(full)
log('ready')
process.stdout.write(`RELEASES_DIR=${distRoot}\nOPENCLAW_OLD_DIR=${oldDir}\n`)
