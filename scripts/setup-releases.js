#!/usr/bin/env node
// Prepares the release matrix of `openclaw-context patch` (__test__/e2e/releases*.test.js)
// in a cache folder, from the npm registry only:
//   <cache>/dist/<version>/{package.json,dist/*.js,dist/*.mjs}  each release of
//       scripts/openclaw-releases.json, from its `npm pack` tarball (no dependencies), the
//       tarball's sha512 checked against the pinned integrity, then deleted;
//   <cache>/full-<version>/node_modules/openclaw  the `full` release installed with its
//       dependencies (--ignore-scripts, exact version) under Node 22, to drive its real
//       compaction handler; and so each release of the `plugin` list (the plugin's release
//       matrix, __test__/e2e/plugin*.test.js) that setup-oracle.sh does not install already,
//       under the Node its engines want, the installed tarball's sha512 checked.
// Idempotent: finished steps are skipped. Cache: $RELEASES_CACHE_DIR, else dev/cache-dir.js's
// releases folder (outside the checkout).
// Needs NODE22 (the path of a Node 22 binary: scripts/setup-oracle.sh prints it) for the
// full install (NODE24 for a plugin release that wants Node 24). Prints, on stdout,
// RELEASES_DIR=<cache>/dist, OPENCLAW_OLD_DIR=<package> and PLUGIN_RELEASES_DIR=<cache> (the
// plugin releases are its full-<version>/node_modules/openclaw).
'use strict'
const { spawnSync } = require('node:child_process')
const crypto = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')

const { releases, full, plugin } = require('./openclaw-releases.json')
const cacheDir = require('../dev/cache-dir.js').cacheDir('releases')
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
  if (result.status !== 0)
    fail(
      `${label} failed (${result.status ?? result.signal}): ${(result.stderr || String(result.error || '')).trim().split('\n').slice(-3).join(' | ')}`,
    )
  return result.stdout
}

/** `npm ARGS` through dev/npm-scratch.sh: HOME is scratchHome, the npm cache `npmCache`. */
function npm(args, { npmCache, node, ...options }) {
  const script = path.join(__dirname, '..', 'dev', 'npm-scratch.sh')
  return run(
    'bash',
    [script, scratchHome, npmCache, ...(node ? ['--node', node] : []), ...args],
    options,
    `npm ${args.join(' ')}`,
  )
}

/** `npm install ARGS` in `cwd` on `node`, with an npm cache that lives only as long as the install. */
function npmInstall(args, { cwd, node }) {
  const npmCache = fs.mkdtempSync(path.join(cacheDir, '.npm-cache-'))
  try {
    npm(['install', ...args], { cwd, npmCache, node, stdio: ['ignore', 'ignore', 'pipe'] })
  } finally {
    fs.rmSync(npmCache, { recursive: true, force: true })
  }
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
    const packed = JSON.parse(
      npm(['pack', `openclaw@${version}`, '--json'], { cwd: tmp, npmCache: path.join(tmp, 'npm-cache') }),
    )
    const tgz = path.join(tmp, packed[0].filename)
    const sri = sriOf(tgz)
    if (sri !== integrity) fail(`openclaw@${version}: the tarball's sha512 is ${sri}, not the pinned ${integrity}`)
    const names = run('tar', ['tzf', tgz])
      .split('\n')
      .filter((name) => WANTED.test(name))
    fs.writeFileSync(path.join(tmp, 'wanted.txt'), `${names.join('\n')}\n`)
    fs.rmSync(dir, { recursive: true, force: true })
    fs.mkdirSync(dir, { recursive: true })
    run('tar', ['xzf', tgz, '-C', dir, '--strip-components=1', '-T', path.join(tmp, 'wanted.txt')])
    fs.writeFileSync(marker, integrity)
    log(
      `openclaw@${version}: ${(packed[0].size / 1e6).toFixed(1)} MB packed, ${names.length - 1} chunks kept, ${((Date.now() - started) / 1000).toFixed(1)} s`,
    )
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

/**
 * The full install of one release, under Node 22 (or the `node` named: '24'); skipped when it
 * is there. `integrity`: the sha512 the installed tarball must have (from npm's lock file).
 */
function installFull(version, { node = '22', integrity } = {}) {
  const installRoot = path.join(cacheDir, `full-${version}`)
  const pkg = path.join(installRoot, 'node_modules', 'openclaw')
  const installed = (() => {
    try {
      return JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).version
    } catch {
      return undefined
    }
  })()
  if (installed === version && fs.existsSync(path.join(pkg, 'dist'))) return pkg
  const nodeBin = process.env[`NODE${node}`]
  if (!nodeBin || !fs.existsSync(nodeBin))
    fail(`NODE${node} is not set to a Node ${node} binary (run scripts/setup-oracle.sh first; npm test does)`)
  const started = Date.now()
  fs.rmSync(installRoot, { recursive: true, force: true })
  fs.mkdirSync(installRoot, { recursive: true })
  fs.writeFileSync(
    path.join(installRoot, 'package.json'),
    `${JSON.stringify(
      {
        name: 'openclaw-release-matrix',
        private: true,
        description: `openclaw@${version} with its dependencies, installed by scripts/setup-releases.js`,
      },
      null,
      2,
    )}\n`,
  )
  // --ignore-scripts: the postinstall would write ~/.openclaw state. Exact: a caret range
  // would pick a later release. npm runs on the Node the release's engines want.
  npmInstall([`openclaw@${version}`, '--save-exact', '--ignore-scripts'], { cwd: installRoot, node: nodeBin })
  if (integrity) {
    const lock = JSON.parse(fs.readFileSync(path.join(installRoot, 'package-lock.json'), 'utf8'))
    const installedIntegrity = lock.packages?.['node_modules/openclaw']?.integrity
    if (installedIntegrity !== integrity) {
      fs.rmSync(installRoot, { recursive: true, force: true })
      fail(`openclaw@${version}: the installed tarball's sha512 is ${installedIntegrity}, not the pinned ${integrity}`)
    }
  }
  log(`openclaw@${version} installed with its dependencies in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  return pkg
}

/**
 * For a release whose `bundledPluginDeps` says so (2026.4.5 imports every bundled channel
 * plugin when a plugin imports its ACP SDK): what its own postinstall
 * (scripts/postinstall-bundled-plugins.mjs), skipped by --ignore-scripts, installs: the runtime
 * dependencies of its bundled plugins (dist/extensions/<id>/package.json) but `skip`, next to
 * openclaw in the install root, where its dist chunks resolve them. (The postinstall's own
 * `npm install` in the package folder stops on its devDependencies' peer conflicts.)
 */
function installBundledPluginDeps(installRoot, pkg, nodeBin, { skip = [] }) {
  const extensions = path.join(pkg, 'dist', 'extensions')
  const wanted = new Map()
  for (const id of fs.readdirSync(extensions).sort()) {
    let manifest
    try {
      manifest = JSON.parse(fs.readFileSync(path.join(extensions, id, 'package.json'), 'utf8'))
    } catch {
      continue
    }
    for (const [name, range] of Object.entries({ ...manifest.dependencies, ...manifest.optionalDependencies })) {
      const resolvable = [pkg, installRoot].some((dir) =>
        fs.existsSync(path.join(dir, 'node_modules', ...name.split('/'), 'package.json')),
      )
      if (!resolvable && !skip.includes(name) && !wanted.has(name)) wanted.set(name, `${name}@${range}`)
    }
  }
  if (wanted.size === 0) return
  npmInstall(['--save-exact', '--ignore-scripts', '--legacy-peer-deps', ...wanted.values()], {
    cwd: installRoot,
    node: nodeBin,
  })
  log(`${path.basename(installRoot)}: ${wanted.size} bundled plugin dependencies installed`)
}

fs.mkdirSync(scratchHome, { recursive: true })
fs.mkdirSync(distRoot, { recursive: true })
for (const release of releases) fetchRelease(release)
const oldDir = installFull(full)
// The plugin matrix, one install at a time (each ~500 MB, ~30 s); the oracle's own skipped.
for (const release of plugin) {
  if (release.oracle) continue
  const pkg = installFull(release.version, release)
  if (release.bundledPluginDeps)
    installBundledPluginDeps(
      path.dirname(path.dirname(pkg)),
      pkg,
      process.env[`NODE${release.node}`],
      release.bundledPluginDeps,
    )
}
log('ready')
process.stdout.write(`RELEASES_DIR=${distRoot}\nOPENCLAW_OLD_DIR=${oldDir}\nPLUGIN_RELEASES_DIR=${cacheDir}\n`)
