'use strict'
// Finding the installed `openclaw` package folder. The pure parts take a `path`
// implementation (path.posix or path.win32) so that Windows paths are tested anywhere.
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { PatchError } = require('./errors')

/** The folders `dir` may name the package by: itself, a folder above its node_modules, its dist/. */
function candidatesFor(dir, paths = path) {
  return [dir, paths.join(dir, 'node_modules', 'openclaw'), paths.dirname(dir)]
}

/** `node_modules/openclaw` in `from` and each folder above it, nearest first (how Node resolves). */
function nodeModulesCandidates(from, paths = path) {
  const out = []
  for (let current = from; ; current = paths.dirname(current)) {
    out.push(paths.join(current, 'node_modules', 'openclaw'))
    if (paths.dirname(current) === current) return out
  }
}

function readPackageJson(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'))
  } catch {
    return undefined
  }
}

const isOpenClaw = (dir) => readPackageJson(dir)?.name === 'openclaw'

/** The installed version ('?' when package.json has none). */
function openclawVersion(openclawDir) {
  const version = readPackageJson(openclawDir)?.version
  return typeof version === 'string' && version !== '' ? version : '?'
}

/**
 * How to run `npm root -g`: `[command, args, options]` for spawnSync. npm is a .cmd on
 * Windows, which Node runs only through a shell (cmd.exe); there the whole fixed command
 * line is one string, since Node 24 warns (DEP0190) on arguments passed with a shell.
 */
function npmRootCommand(platform = process.platform) {
  const options = { encoding: 'utf8', timeout: 30000, windowsHide: true }
  if (platform === 'win32') return ['npm.cmd root -g', [], { ...options, shell: true }]
  return ['npm', ['root', '-g'], options]
}

function npmGlobalRoot() {
  const result = spawnSync(...npmRootCommand())
  return result.status === 0 ? result.stdout.trim() : null
}

/** The openclaw package that `dir` names (see candidatesFor), or a PatchError. */
function openclawAt(dir) {
  const abs = path.resolve(dir)
  if (!fs.existsSync(abs)) throw new PatchError(`${abs} does not exist`)
  const found = candidatesFor(abs).find(isOpenClaw)
  if (found) return fs.realpathSync(found)
  throw new PatchError(`${abs} is not an openclaw package (no package.json named "openclaw" there or in its node_modules)`)
}

/**
 * The `openclaw` package folder: the one `dir` names, else the one Node would resolve
 * from the current folder, else the global npm root's.
 */
function findOpenClaw(dir) {
  if (dir) return openclawAt(dir)
  // openclaw's `exports` hides package.json from require.resolve: walk up instead.
  const local = nodeModulesCandidates(process.cwd()).find(isOpenClaw)
  if (local) return fs.realpathSync(local)
  const globalRoot = npmGlobalRoot()
  if (globalRoot && isOpenClaw(path.join(globalRoot, 'openclaw'))) return fs.realpathSync(path.join(globalRoot, 'openclaw'))
  throw new PatchError(
    `no openclaw package found from ${process.cwd()} or in the global npm root${globalRoot ? ` (${globalRoot})` : ''}; pass its folder: openclaw-context patch ${path.join(path.parse(process.cwd()).root, 'path', 'to', 'node_modules', 'openclaw')}`,
  )
}

module.exports = { candidatesFor, nodeModulesCandidates, npmRootCommand, openclawAt, findOpenClaw, openclawVersion }
