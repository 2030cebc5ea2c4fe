#!/usr/bin/env node
// `npm run build` (and `prepare`, so `npm install` builds): the release .node for the host.
// On Linux x64 with glibc it is built with napi-rs's cross toolchain (from the npm registry,
// runs on Linux x64 only), so that the binary needs glibc 2.17 at most; everywhere else (a
// Mac, arm64, Alpine, Windows) it is the plain host build. Extra arguments go to `napi build`.
// Then the generated loader's musl check is rewritten to start no process (scripts/loader-musl.js).
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

console.log(`$ napi ${args.join(' ')}`)
const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, stdio: 'inherit' })
if (result.status !== 0) process.exit(result.status ?? 1)
const loader = spawnSync(process.execPath, [path.join(__dirname, 'loader-musl.js'), path.join(root, 'index.js')], {
  cwd: root,
  stdio: 'inherit',
})
process.exit(loader.status ?? 1)
