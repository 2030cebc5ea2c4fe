#!/usr/bin/env node
// Part of every build (scripts/build.js, build:host, build:debug): after `napi build` writes
// the loader index.js, its last-resort musl check, which runs `ldd --version` in a child
// process, is replaced by one that reads the shared objects this process has mapped
// (/proc/self/maps), the test the loader's process.report check already makes. Why: OpenClaw's
// install-time scanner (2026.4.5 to 2026.6.x) refuses a plugin package in which any file
// calls a child process, and this loader is in the plugin package. The check is the third
// of three (after /usr/bin/ldd and process.report) and only runs where process.report is
// missing, which no Node this package supports lacks: the platform chosen stays the same.
// @napi-rs/cli has no option for this. If its generated text changes, this fails the build
// rather than ship a loader it did not rewrite.
//
//   node scripts/loader-musl.js [index.js]
'use strict'
const fs = require('node:fs')
const path = require('node:path')

const GENERATED = `const isMuslFromChildProcess = () => {
  try {
    return require('child_process').execSync('ldd --version', { encoding: 'utf8' }).includes('musl')
  } catch (e) {
    // If we reach this case, we don't know if the system is musl or not, so is better to just fallback to false
    return false
  }
}`

const REPLACEMENT = `// Rewritten after napi build by scripts/loader-musl.js: no process is started (OpenClaw's
// plugin install scanner refuses packages that start one); the libraries mapped into this
// process tell musl as the report's sharedObjects do. Unknown: false, as before.
const isMuslFromMappedFiles = () => {
  try {
    return isFileMusl(readFileSync('/proc/self/maps', 'utf-8'))
  } catch {
    return false
  }
}`

const GENERATED_CALL = 'musl = isMuslFromChildProcess()'
const REPLACEMENT_CALL = 'musl = isMuslFromMappedFiles()'

/** The loader's text with the musl fallback rewritten; throws when it is not napi's text. */
function rewriteLoader(text) {
  if (text.includes(REPLACEMENT) && text.includes(REPLACEMENT_CALL)) return text
  const count = (needle) => text.split(needle).length - 1
  if (count(GENERATED) !== 1 || count(GENERATED_CALL) !== 1) {
    throw new Error(
      "napi build's loader does not hold the expected isMuslFromChildProcess (did @napi-rs/cli change?); update scripts/loader-musl.js",
    )
  }
  const out = text.replace(GENERATED, REPLACEMENT).replace(GENERATED_CALL, REPLACEMENT_CALL)
  if (/child_process/.test(out)) throw new Error('the rewritten loader still mentions child_process')
  return out
}

if (require.main === module) {
  const file = path.resolve(process.argv[2] || path.join(__dirname, '..', 'index.js'))
  const before = fs.readFileSync(file, 'utf8')
  const after = rewriteLoader(before)
  if (after !== before) fs.writeFileSync(file, after)
  console.log(`loader-musl: ${path.relative(process.cwd(), file) || file}: musl check without a child process`)
}

module.exports = { rewriteLoader }
