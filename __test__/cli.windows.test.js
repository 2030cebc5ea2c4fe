'use strict'
// `openclaw-context` on a Windows-style install, through the real command, on Windows
// (CI runs it under Wine with the official Windows Node): OpenClaw under
// <drive>:\…\node_modules\openclaw, named with back slashes, forward slashes or both,
// on the temp folder's drive and on this package's (C: and Z: under Wine); found from
// the current folder and in npm's global folder (PREFIX\\node_modules); the patched
// chunk loading the addon with createRequire from a file:///C:/… URL; --check loading
// it; --revert byte for byte; a chunk another process holds open (Windows refuses to
// rename over it); and `summary` taking and printing Windows paths.
const { spawn, spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const native = require('../index.js')
const { HEADINGS, writeFakeInstall, callChunk, PACKAGE_ROOT } = require('./fixtures/fake-openclaw-dist.js')
const { windowsDescribe } = require('./fixtures/platform.js')

const CLI = path.join(PACKAGE_ROOT, 'cli', 'openclaw-context.js')
const BODY = HEADINGS.map((h, i) => `${h}\n- item ${i}`).join('\n\n')
const SUFFIX = `\n\n## Recent turns preserved verbatim\n${'- Tool result: {"id":"evt","body":"lorem ipsum"}\n'.repeat(400)}`
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const temps = []
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true })
})
/** A new folder under `base` (its real path: a drive-letter path with back slashes). */
function tempIn(base, prefix = 'occn-win-') {
  fs.mkdirSync(base, { recursive: true })
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(base, prefix)))
  temps.push(dir)
  return dir
}

function cli(args, options = {}) {
  const result = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd || os.tmpdir(),
    encoding: 'utf8',
    timeout: 60000,
    env: options.env || process.env,
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

const bytes = (file) => fs.readFileSync(file)
const strays = (dir) => fs.readdirSync(dir).filter((name) => name.endsWith('.tmp'))
const forward = (p) => p.split('\\').join('/')
const mixed = (p) =>
  p
    .split('\\')
    .map((part, i) => (i % 2 ? `/${part}` : `\\${part}`))
    .join('')
    .slice(1)

windowsDescribe('Windows paths, npm.cmd and cmd.exe exist on Windows only')('on a Windows-style install', () => {
  // The temp folder's drive and this package's (C: and Z: under Wine; both C: on most Windows).
  const bases = [...new Set([os.tmpdir(), path.join(PACKAGE_ROOT, '.cache', 'win-installs')])]
  const spellings = [
    ['back slashes', (p) => p],
    ['forward slashes', forward],
    ['back and forward slashes', mixed],
    ['a trailing slash', (p) => `${forward(p)}/`],
  ]
  const cases = bases.flatMap((base) => spellings.map(([how, spell]) => [path.parse(base).root, how, base, spell]))

  test.each(cases)(
    'on %s, named with %s: patch, the chunk delegates, --check, --revert byte for byte',
    (_drive, _how, base, spell) => {
      const install = writeFakeInstall(tempIn(base))
      const pkg = fs.realpathSync(install.pkg)
      const chunk = fs.realpathSync(install.chunk)
      const given = spell(install.pkg)
      const original = bytes(install.chunk)
      expect(pkg).toMatch(/^[A-Za-z]:\\[^/]*$/)

      const dry = cli(['patch', given, '--dry-run'])
      expect({ code: dry.code, stderr: dry.stderr }).toEqual({ code: 0, stderr: '' })
      expect(dry.stdout).toContain('--- a/dist/selection-XYZ.js\n+++ b/dist/selection-XYZ.js')
      expect(bytes(install.chunk).equals(original)).toBe(true)

      const patched = cli(['patch', given])
      expect({ code: patched.code, stderr: patched.stderr }).toEqual({ code: 0, stderr: '' })
      expect(patched.stdout).toMatch(
        new RegExp(
          `^patched: dist\\\\selection-XYZ\\.js \\(openclaw 2026\\.7\\.2-beta\\.4\\); .* loaded from ${escape(path.join(install.addon, 'index.js'))} and from nowhere else \\(found by name from the dist\\)`,
        ),
      )
      expect(strays(install.dist)).toEqual([])

      // The gateway's import: file:///C:/… and createRequire(import.meta.url) of the absolute path patch wrote.
      const { summary, after, error } = callChunk(install.chunk, BODY, SUFFIX)
      expect(error).toBeUndefined()
      expect(after).toBe('still here ✓')
      expect(summary).toBe(native.capCompactionSummaryPreservingSuffix(BODY, SUFFIX, 16000))
      for (const heading of HEADINGS) expect(summary).toContain(heading)

      const check = cli(['patch', given, '--check'])
      expect({ code: check.code, stderr: check.stderr }).toEqual({ code: 0, stderr: '' })
      expect(check.stdout).toContain(`the addon loads from ${path.join(install.addon, 'index.js')}`)

      const reverted = cli(['patch', given, '--revert'])
      expect(reverted.code).toBe(0)
      expect(bytes(install.chunk).equals(original)).toBe(true)

      // Unpatched again: --check names the chunk and the command to run, as native paths.
      const again = cli(['patch', given, '--check'])
      expect(again.code).toBe(1)
      expect(again.stderr).toBe(
        `not patched: ${chunk} still has OpenClaw's own capCompactionSummaryPreservingSuffix (run \`openclaw-context patch ${pkg}\`)\n`,
      )
    },
  )

  test('a folder with a space: the command to paste back is quoted for cmd and PowerShell', () => {
    const install = writeFakeInstall(tempIn(tempIn(os.tmpdir()), 'my gateway '))
    const pkg = fs.realpathSync(install.pkg)
    expect(pkg).toContain(' ')
    const check = cli(['patch', install.pkg, '--check'])
    expect(check.code).toBe(1)
    expect(check.stderr).toContain(`(run \`openclaw-context patch "${pkg}"\`)`)
    expect(cli(['patch', install.pkg]).code).toBe(0)
    expect(cli(['patch', install.pkg, '--check']).code).toBe(0)
  })

  // Windows keeps no owner in what Node's stat gives: the folder found is printed, not checked.
  test('no folder given: found from the current folder (a Windows path), then in the global npm folder, and printed', () => {
    // From the folder above node_modules, and from inside it.
    const local = writeFakeInstall(tempIn(os.tmpdir()))
    for (const cwd of [local.root, path.join(local.root, 'node_modules')]) {
      const found = cli(['patch', '--dry-run'], { cwd })
      expect({ code: found.code, stderr: found.stderr }).toEqual({
        code: 0,
        stderr: `openclaw: ${fs.realpathSync(local.pkg)} (found by walking up from ${cwd})\n`,
      })
      expect(found.stdout).toMatch(/would be patched; nothing was written/)
    }

    // The global folder: PREFIX\node_modules, PREFIX as npm exec gives it (npm_config_global_prefix).
    const globalDir = tempIn(os.tmpdir(), 'occn-npm-global-')
    const global = writeFakeInstall(globalDir)
    const env = { ...process.env, npm_config_global_prefix: globalDir }
    const away = tempIn(os.tmpdir(), 'occn-no-openclaw-')
    const original = bytes(global.chunk)

    const patched = cli(['patch'], { cwd: away, env })
    expect({ code: patched.code, stderr: patched.stderr }).toEqual({
      code: 0,
      stderr: `openclaw: ${fs.realpathSync(global.pkg)} (found in the global npm folder)\n`,
    })
    expect(patched.stdout).toMatch(/^patched: dist\\selection-XYZ\.js /)
    const { summary } = callChunk(global.chunk, BODY, SUFFIX)
    for (const heading of HEADINGS) expect(summary).toContain(heading)
    expect(cli(['patch', '--check'], { cwd: away, env }).code).toBe(0)
    expect(cli(['patch', '--revert'], { cwd: away, env }).code).toBe(0)
    expect(bytes(global.chunk).equals(original)).toBe(true)

    // None there: the error names the folder it looked from, where it looked, and an example Windows path.
    const empty = tempIn(os.tmpdir(), 'occn-npm-empty-')
    const none = cli(['patch'], { cwd: away, env: { ...process.env, npm_config_global_prefix: empty } })
    expect(none.code).toBe(1)
    expect(none.stderr).toMatch(
      new RegExp(
        `^openclaw-context: no openclaw package found from ${escape(away)} or in the global npm folder \\(${escape(path.join(empty, 'node_modules'))}, .*\\); pass its folder: openclaw-context patch ${escape(path.parse(away).root)}path\\\\to\\\\node_modules\\\\openclaw\\n$`,
      ),
    )
  })

  /** Another process that opens `file` for reading and holds it for `ms`; resolves once it is open. */
  async function holdOpen(file, ms) {
    const script = `const fs = require('fs'); const fd = fs.openSync(${JSON.stringify(file)}, 'r'); console.log('open'); setTimeout(() => fs.closeSync(fd), ${ms})`
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
    const closed = new Promise((resolve) => child.on('close', resolve))
    await new Promise((resolve, reject) => {
      child.stdout.once('data', resolve)
      child.once('exit', (code) => reject(new Error(`the holder exited early (${code})`)))
    })
    return closed
  }

  // Windows will not rename over a file any process has open (a gateway importing the
  // chunk, a second run reading it, a virus scanner): patch retries for 3 s.
  test('the chunk held open by another process for a moment: patch waits for it and succeeds', async () => {
    const install = writeFakeInstall(tempIn(os.tmpdir()))
    const closed = holdOpen(install.chunk, 1000)
    await new Promise((resolve) => setTimeout(resolve, 0))
    const result = cli(['patch', install.pkg])
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' })
    expect(result.stdout).toMatch(/^patched: /)
    await closed
    expect(cli(['patch', install.pkg, '--check']).code).toBe(0)
    expect(strays(install.dist)).toEqual([])
  }, 30000)

  test('the chunk held open longer than the retries: exit 1 with the reason, nothing changed, no temp file left', async () => {
    const install = writeFakeInstall(tempIn(os.tmpdir()))
    const original = bytes(install.chunk)
    const closed = holdOpen(install.chunk, 8000)
    const result = cli(['patch', install.pkg])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(
      /^openclaw-context: cannot write .*selection-XYZ\.js \(EPERM\): the chunk is in use or read-only; stop the gateway.*; nothing was changed\n$/,
    )
    expect(bytes(install.chunk).equals(original)).toBe(true)
    expect(strays(install.dist)).toEqual([])
    await closed
  }, 30000)

  test('summary takes Windows paths in any spelling and prints them natively', () => {
    const dirs = bases.map((base) => tempIn(base))
    const statePath = path.join(dirs[0], 'state.json')
    const logPath = path.join(dirs[dirs.length - 1], 'log.jsonl')
    fs.writeFileSync(statePath, JSON.stringify({ decisions: ['Ship on Windows'] }))
    fs.writeFileSync(
      logPath,
      `${JSON.stringify({ ts: '2026-05-15T10:00:00Z', role: 'user', text: 'Is C:\\gw patched?', session: 's1' })}\r\n`,
    )
    const now = '2026-05-15T11:00:00Z'
    const expected = native.rebuildPersistentChatContinuitySummary({ statePath, logPath, now })
    for (const spell of [(p) => p, forward, mixed]) {
      const { code, stdout, stderr } = cli([
        'summary',
        '--state',
        spell(statePath),
        '--log',
        spell(logPath),
        '--now',
        now,
      ])
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
      expect(stdout).toBe(expected.endsWith('\n') ? expected : `${expected}\n`)
      expect(stdout).toContain('Ship on Windows')
    }
    // A folder given as the log: refused, and named with back slashes.
    const { code, stderr } = cli(['summary', '--state', forward(statePath), '--log', forward(dirs[0])])
    expect(code).toBe(1)
    expect(stderr).toBe(`openclaw-context: not a regular file (directory): ${dirs[0]} (ENOTREGULAR)\n`)
  })
})
