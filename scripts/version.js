#!/usr/bin/env node
// One version for the nine packages. `npm version <x>` bumps package.json and package-lock.json,
// then runs this (the `version` script): `napi version` writes the version into every
// npm/<platform>/package.json; the changed files are staged for npm's version commit.
// `--check` changes nothing and exits 1, naming each file that disagrees.
// The root's optionalDependencies (the eight platform packages) are not in the repository: the
// release's `napi prepublish` writes them, at this version, into the manifest it publishes, so
// that package.json and package-lock.json never name a version the registry does not hold yet
// (and `npm ci` works on a fresh clone).
'use strict'
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')

const root = path.resolve(__dirname, '..')
const read = (file) => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'))

/** Every place that must carry the root's version, as [file, where, the version found]. */
function versions() {
  const pkg = read('package.json')
  const lock = read('package-lock.json')
  const found = [
    ['package-lock.json', 'version', lock.version],
    ['package-lock.json', 'packages[""].version', lock.packages[''].version],
  ]
  for (const dir of fs.readdirSync(path.join(root, 'npm')).sort()) {
    const manifest = read(`npm/${dir}/package.json`)
    found.push([`npm/${dir}/package.json`, 'version', manifest.version])
  }
  return { version: pkg.version, found }
}

/** The root's optionalDependencies, in package.json and the lock's root entry: none (napi prepublish adds them). */
function pinned() {
  return [
    ['package.json', 'optionalDependencies', read('package.json').optionalDependencies],
    [
      'package-lock.json',
      'packages[""].optionalDependencies',
      read('package-lock.json').packages[''].optionalDependencies,
    ],
  ].filter(([, , value]) => value !== undefined)
}

function check() {
  const { version, found } = versions()
  const wrong = found.filter(([, , value]) => value !== version)
  for (const [file, where, value] of wrong) console.error(`${file} ${where}: ${value ?? 'missing'}, not ${version}`)
  const pins = pinned()
  for (const [file, where] of pins)
    console.error(
      `${file} ${where}: present; the release's napi prepublish adds them (npm ci cannot lock unpublished versions)`,
    )
  return wrong.length === 0 && pins.length === 0
}

function bump() {
  const napi = require.resolve('@napi-rs/cli/package.json', { paths: [root] })
  const cli = path.join(path.dirname(napi), require(napi).bin.napi)
  const result = spawnSync(process.execPath, [cli, 'version'], { cwd: root, stdio: 'inherit' })
  if (result.status !== 0) process.exit(result.status ?? 1)
  // Staged for the commit `npm version` makes (a copy outside git has nothing to stage).
  if (fs.existsSync(path.join(root, '.git')))
    spawnSync('git', ['add', 'package.json', 'package-lock.json', 'npm'], { cwd: root, stdio: 'inherit' })
  if (!check()) process.exit(1)
}

if (require.main === module) {
  if (process.argv.includes('--check')) process.exit(check() ? 0 : 1)
  bump()
}

module.exports = { versions, pinned, check }
