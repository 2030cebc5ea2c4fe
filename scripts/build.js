#!/usr/bin/env node
// `npm run build` (and `prepare`, so `npm install` builds): the release .node for the host.
// On Linux x64 with glibc it is built with napi-rs's cross toolchain (from the npm registry,
// runs on Linux x64 only), so that the binary needs glibc 2.17 at most; everywhere else (a
// Mac, arm64, Alpine, Windows) it is the plain host build. Extra arguments go to `napi build`.
// Then the generated loader's musl check is rewritten to start no process (scripts/loader-musl.js).
// Cargo is run through scripts/cargo-steady-force.js (napi's `CARGO` override), so that an
// unchanged addon is not compiled again by the build after the first (that file says why).
'use strict'
const { spawnSync } = require('node:child_process')
const path = require('node:path')

const root = path.resolve(__dirname, '..')
const napi = require.resolve('@napi-rs/cli/package.json', { paths: [root] })
const cli = path.join(path.dirname(napi), require(napi).bin.napi)

// glibcVersionRuntime is in the report on glibc only (not on musl).
const linuxX64Gnu =
  process.platform === 'linux' &&
  process.arch === 'x64' &&
  Boolean(process.report.getReport().header.glibcVersionRuntime)
const args = ['build', '--platform', '--release']
if (linuxX64Gnu) args.push('--target', 'x86_64-unknown-linux-gnu', '--use-napi-cross')
args.push(...process.argv.slice(2))

/**
 * The environment of `napi build`: cargo through the steady-force wrapper. Not on Windows,
 * where a script cannot be spawned as a program without a shell: there napi's own rule stands
 * (the second build of a fresh target folder compiles the addon again).
 */
function napiEnv() {
  if (process.platform === 'win32') return process.env
  const env = { ...process.env, CARGO: path.join(__dirname, 'cargo-steady-force.js') }
  if (process.env.CARGO) env.OCCN_REAL_CARGO = process.env.CARGO
  // The wrapper's `#!/usr/bin/env node` finds the Node running this script first.
  env.PATH = `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`
  return env
}

console.log(`$ napi ${args.join(' ')}`)
const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, stdio: 'inherit', env: napiEnv() })
if (result.status !== 0) process.exit(result.status ?? 1)
const loader = spawnSync(process.execPath, [path.join(__dirname, 'loader-musl.js'), path.join(root, 'index.js')], {
  cwd: root,
  stdio: 'inherit',
})
process.exit(loader.status ?? 1)
