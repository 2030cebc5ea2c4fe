#!/usr/bin/env node
// The cargo that `napi build` runs, by way of its `CARGO` override (scripts/build.js sets it):
// cargo itself, with NAPI_FORCE_BUILD_OPENCLAW_CONTEXT_NATIVE held steady between builds.
//
// Why: napi-rs sets that variable to the current time when the crate's type definitions are
// missing from its cache under target/napi-rs (on a fresh target folder, as after `npm ci`),
// and leaves it unset otherwise; napi-build's build script has cargo rerun it when the
// variable changes, and a value going away is a change. So the build after the first one
// (`npm test` after `npm ci`) compiled the addon again for nothing. Here a build that napi
// forces keeps its value (the new time, recorded), and a build it does not force gets the
// value last recorded for the same cargo command line: cargo then sees no change.
'use strict'
const { spawnSync } = require('node:child_process')
const crypto = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')

const VARIABLE = 'NAPI_FORCE_BUILD_OPENCLAW_CONTEXT_NATIVE'
const args = process.argv.slice(2)
const env = { ...process.env }
const real = env.OCCN_REAL_CARGO || 'cargo'
delete env.OCCN_REAL_CARGO
delete env.CARGO

// One record per cargo command line: each target and profile has a fingerprint of its own.
const targetDir = env.CARGO_TARGET_DIR || env.CARGO_BUILD_TARGET_DIR || path.join(__dirname, '..', 'target')
const key = crypto.createHash('sha256').update(args.join('\0')).digest('hex').slice(0, 16)
const record = path.join(targetDir, 'napi-rs', `force-build-${key}`)

if (args[0] === 'build') {
  if (env[VARIABLE] !== undefined) {
    fs.mkdirSync(path.dirname(record), { recursive: true })
    fs.writeFileSync(record, env[VARIABLE])
  } else if (fs.existsSync(record)) {
    env[VARIABLE] = fs.readFileSync(record, 'utf8')
  }
}
const result = spawnSync(real, args, { stdio: 'inherit', env })
if (result.error) {
  console.error(`cargo-steady-force: cannot run ${real}: ${result.error.message}`)
  process.exit(1)
}
process.exit(result.status ?? 1)
