'use strict'
// Finding the installed `openclaw` package folder. The pure parts take a `path`
// implementation (path.posix or path.win32) so that Windows paths are tested anywhere.
const fs = require('node:fs')
const path = require('node:path')
const { PatchError } = require('./errors')
const { quoteArg } = require('./shell-quote')
const { untrustedReason } = require('./trust')

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
 * npm's global package folders, without running npm: the prefix npm gave this process (it
 * sets npm_config_global_prefix under `npx` and `npm exec`), else npm's default prefixes
 * for this Node (on Windows %APPDATA%\\npm, from npm's builtin config, then the Node
 * folder; elsewhere the folder above Node's bin/). Globals live in PREFIX/lib/node_modules,
 * on Windows in PREFIX\\node_modules.
 */
function npmGlobalRoots(
  env = process.env,
  platform = process.platform,
  execPath = process.execPath,
  paths = platform === 'win32' ? path.win32 : path.posix,
) {
  const prefixes = []
  const given = env.npm_config_global_prefix || env.npm_config_prefix
  if (given) prefixes.push(given)
  if (platform === 'win32') {
    if (env.APPDATA) prefixes.push(paths.join(env.APPDATA, 'npm'))
    prefixes.push(paths.dirname(execPath))
  } else {
    prefixes.push(paths.dirname(paths.dirname(execPath)))
  }
  const roots = prefixes.map((prefix) =>
    platform === 'win32' ? paths.join(prefix, 'node_modules') : paths.join(prefix, 'lib', 'node_modules'),
  )
  return [...new Set(roots)]
}

/** openclaw beside this package, when it is installed (globally or in a project) next to it. */
function besideThisPackage(packageRoot = path.resolve(__dirname, '..'), paths = path) {
  const parent = paths.dirname(packageRoot)
  return paths.basename(parent) === 'node_modules' ? [paths.join(parent, 'openclaw')] : []
}

/** The openclaw package that `dir` names (see candidatesFor), or a PatchError. */
function openclawAt(dir) {
  const abs = path.resolve(dir)
  if (!fs.existsSync(abs)) throw new PatchError(`${quoteArg(abs)} does not exist`)
  const found = candidatesFor(abs).find(isOpenClaw)
  if (found) return fs.realpathSync(found)
  throw new PatchError(
    `${quoteArg(abs)} is not an openclaw package (no package.json named "openclaw" there or in its node_modules)`,
  )
}

/**
 * An install the command found by itself, as its real path, once it is known to be safe to
 * load code from (see trust.js); else a PatchError naming it and why, since the user did not
 * point at it. `how` says where it was found, for the line that reports it.
 */
function trustedFound(candidate, how, trust) {
  const real = fs.realpathSync(candidate)
  const dist = path.join(real, 'dist')
  // dist/'s chain holds the package folder's: the files loaded and rewritten, and every folder above.
  const reason = untrustedReason(fs.existsSync(dist) ? dist : real, trust)
  if (reason) {
    throw new PatchError(
      `found openclaw at ${quoteArg(real)} (${how}), but ${reason}: another user could have put it there, so it is not used; if it is yours, pass its folder: openclaw-context patch ${quoteArg(real)}`,
    )
  }
  return { dir: real, how }
}

/**
 * The `openclaw` package folder: the one `dir` names, else the one Node would resolve from
 * the current folder, else one beside this package, else npm's global one. A folder found
 * (not named) is reported through `note` and must pass the trust check (trust.js; `trust`
 * passes its options, for tests).
 */
function findOpenClaw(dir, { note = () => {}, trust, env = process.env } = {}) {
  if (dir) return openclawAt(dir)
  // openclaw's `exports` hides package.json from require.resolve: walk up instead.
  const cwd = process.cwd()
  const local = nodeModulesCandidates(cwd).find(isOpenClaw)
  const globalRoots = npmGlobalRoots(env)
  const [candidate, how] =
    (local
      ? [[local, `found by walking up from ${cwd}`]]
      : [
          ...besideThisPackage().map((c) => [c, 'found beside this openclaw-context-native']),
          ...globalRoots.map((root) => [path.join(root, 'openclaw'), 'found in the global npm folder']),
        ].filter(([c]) => isOpenClaw(c)))[0] || []
  const found = candidate && trustedFound(candidate, how, trust)
  if (found) {
    note(`openclaw: ${quoteArg(found.dir)} (${found.how})`)
    return found.dir
  }
  throw new PatchError(
    `no openclaw package found from ${quoteArg(cwd)} or in the global npm folder (${globalRoots.map((root) => quoteArg(root)).join(', ')}); pass its folder: openclaw-context patch ${quoteArg(path.join(path.parse(cwd).root, 'path', 'to', 'node_modules', 'openclaw'))}`,
  )
}

module.exports = {
  candidatesFor,
  nodeModulesCandidates,
  npmGlobalRoots,
  besideThisPackage,
  openclawAt,
  findOpenClaw,
  openclawVersion,
}
