'use strict'
// The napi-rs loader index.js as every build leaves it (scripts/loader-musl.js after
// `napi build`): its last musl check reads the libraries this process mapped instead of running
// `ldd` in a child process, so OpenClaw's install-time scanner (2026.4.5 to 2026.6.x) finds
// nothing to refuse; and the binary it picks is the same. The packaging checks
// (scripts/pack-check.sh, the cross-platform kit) load it on musl and glibc for real.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')

const { rewriteLoader } = require('../scripts/loader-musl.js')

const ROOT = path.resolve(__dirname, '..')
const LOADER = path.join(ROOT, 'index.js')
const posixLinux = process.platform === 'linux'

test('the committed loader is the rewritten one: it starts no process and mentions none', () => {
  const text = fs.readFileSync(LOADER, 'utf8')
  expect(rewriteLoader(text)).toBe(text)
  expect(text).not.toMatch(/child_process|execSync|spawnSync/)
  expect(text).toContain("readFileSync('/proc/self/maps', 'utf-8')")
})

test("a loader that is not napi-rs's expected text fails the build instead of shipping unrewritten", () => {
  expect(() => rewriteLoader('const isMusl = () => false\n')).toThrow(
    /does not hold the expected isMuslFromChildProcess/,
  )
})

// What the scanner's critical rules look for (see README, "Install as an OpenClaw plugin"), in
// every file the package ships that it scans.
require('./fixtures/platform.js').testUnless(
  require('./fixtures/platform.js').underWine,
  'under Wine: the Windows Node package brings no npm to pack with',
)('no file the package ships holds what the install scanner refuses', () => {
  const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' })
  expect(packed.status).toBe(0)
  const files = JSON.parse(packed.stdout)[0]
    .files.map((f) => f.path)
    .filter((name) => /\.(?:[cm]?[jt]s|[jt]sx|[cm]ts)$/.test(name))
  expect(files).toEqual(
    expect.arrayContaining(['index.js', 'lib/find-openclaw.js', 'lib/probe-addon.js', 'plugin/index.mjs']),
  )
  const findings = []
  for (const name of files) {
    const text = fs.readFileSync(path.join(ROOT, name), 'utf8')
    if (/child_process/.test(text) && /\b(exec|execSync|spawn|spawnSync|execFile|execFileSync)\s*\(/.test(text))
      findings.push(`${name}: a child process`)
    if (/\beval\s*\(|new\s+Function\s*\(/.test(text)) findings.push(`${name}: dynamic code`)
    if (/process\.env/.test(text) && /\bfetch\s*\(|\bpost\s*\(|\.\s*post\s*\(|http\.request\s*\(/i.test(text))
      findings.push(`${name}: environment and network`)
  }
  expect(findings).toEqual([])
})

/**
 * Loads a copy of index.js, alone in a folder of its own (so that no binary is there to load,
 * whatever this checkout holds: the platform runs place theirs beside index.js), in a fresh node
 * where /usr/bin/ldd cannot be read and process.report is gone (the only case that reaches the
 * last check), /proc/self/maps reading `maps`; any child process throws. The failure names the
 * binary it asked for.
 */
function loadWith(maps) {
  const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'occn-loader-'))
  const copy = path.join(dir, 'index.js')
  fs.copyFileSync(LOADER, copy)
  const preload = `
    const fs = require('fs');
    const read = fs.readFileSync;
    fs.readFileSync = function (file, ...rest) {
      if (file === '/usr/bin/ldd') throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
      if (file === '/proc/self/maps') return ${JSON.stringify(maps)};
      return read.call(this, file, ...rest);
    };
    Object.defineProperty(process, 'report', { value: undefined });
    const cp = require('child_process');
    for (const name of ['exec', 'execSync', 'spawn', 'spawnSync', 'execFile', 'execFileSync']) cp[name] = () => { throw new Error('a child process was started'); };
  `
  const script = `${preload}
    try { require(${JSON.stringify(copy)}); console.log(JSON.stringify({ loaded: true })) }
    catch (err) { const causes = []; for (let c = err; c; c = c.cause) causes.push(String(c.message).split('\\n')[0]); console.log(JSON.stringify({ loaded: false, message: causes.join(' | ') })) }`
  const result = spawnSync(process.execPath, ['-e', script], {
    encoding: 'utf8',
    env: { ...process.env, NAPI_RS_NATIVE_LIBRARY_PATH: '' },
  })
  fs.rmSync(dir, { recursive: true, force: true })
  return JSON.parse(result.stdout.trim().split('\n').pop())
}

require('./fixtures/platform.js').testUnless(
  !(posixLinux && process.arch === 'x64'),
  `on ${process.platform} ${process.arch}: the musl check is Linux x64's`,
)('on Linux x64, the last check tells musl from glibc by the mapped libraries, with no child process', () => {
  const glibc = loadWith('7f00-7f01 r-xp 0 08:01 1 /usr/lib/x86_64-linux-gnu/libc.so.6\n')
  expect(glibc.loaded).toBe(false)
  expect(glibc.message).toContain("Cannot find module './openclaw-context-native.linux-x64-gnu.node'")
  expect(glibc.message).not.toMatch(/a child process was started|linux-x64-musl/)
  const musl = loadWith('7f00-7f01 r-xp 0 08:01 1 /lib/ld-musl-x86_64.so.1\n')
  expect(musl.loaded).toBe(false)
  expect(musl.message).toContain("Cannot find module './openclaw-context-native.linux-x64-musl.node'")
  expect(musl.message).not.toMatch(/a child process was started|linux-x64-gnu/)
})
