'use strict'
// The `openclaw-context` command against small fake OpenClaw installs (no real OpenClaw:
// __test__/e2e/patch.test.js does that). Each fake is a temp folder with
// node_modules/openclaw (package.json + dist/) and node_modules/openclaw-context-native
// symlinked to this package, as `npm install openclaw-context-native` next to it would.
const { spawnSync } = require('node:child_process')
const crypto = require('node:crypto')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const ROOT = path.resolve(__dirname, '..')
const CLI = path.join(ROOT, 'cli', 'openclaw-context.js')
const native = require('../index.js')
const { locateFunction } = require('../lib/js-scan')

const {
  HEADINGS,
  FAKE_FUNCTION,
  FAKE_FUNCTION_A,
  FAKE_WRAPPER,
  fakeChunk,
  writeFakeInstall,
  callChunk,
} = require('./fixtures/fake-openclaw-dist.js')
const v1 = require('./fixtures/patch-text-v1.js')
const {
  onWindows,
  onWasi,
  underWine,
  posixTest,
  testUnless,
  otherUidTest,
  unreadableTest,
  withoutReadOverride,
} = require('./fixtures/platform.js')

const BODY = HEADINGS.map((h, i) => `${h}\n- item ${i}`).join('\n\n')
const CHUNK = 'selection-XYZ.js'
// The command prints native paths (dist\\x.js on Windows).
const DIST_CHUNK = path.join('dist', CHUNK)
// The fake chunk's mode (0o640), as Windows keeps it: it has only a read-only attribute.
const CHUNK_MODE = onWindows ? 0o666 : 0o640
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

// The same flaw, written so that naive brace counting ends the function too early.
const TRICKY_FUNCTION = `function capCompactionSummaryPreservingSuffix(summaryBody, suffix = "}", maxChars = MAX_COMPACTION_SUMMARY_CHARS) {
\t// a closing brace in a comment: }
\t/* and an opening one: { */
\tconst braces = ["}", '}', \`}\${ { a: "}" }.a }\`, /[}]\\}/.source];
\tif (braces.length !== 4) throw new Error("}");
\tif (!suffix) return capCompactionSummary(summaryBody, maxChars);
\tif (suffix.length >= maxChars) return sliceUtf16Safe(suffix, -maxChars);
\treturn \`\${capCompactionSummary(summaryBody, Math.max(0, maxChars - suffix.length))}\${suffix}\`;
}`

const temps = []
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true })
})

function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  fs.chmodSync(dir, 0o755) // readable by the unprivileged user of the read-only test
  temps.push(dir)
  return dir
}

/** A fake install in a new temp folder (see writeFakeInstall). */
const fakeInstall = (options) => writeFakeInstall(tempDir('occn-cli-'), options)

function cli(args, options = {}) {
  const command = [process.execPath, [options.cli || CLI, ...args]]
  const result = spawnSync(...(options.withoutOverride ? withoutReadOverride(...command) : command), {
    cwd: options.cwd || os.tmpdir(),
    encoding: 'utf8',
    timeout: 60000,
    env: { ...process.env, ...options.env },
    uid: options.uid,
    gid: options.gid,
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

const bytes = (file) => fs.readFileSync(file)
const sha = (file) => crypto.createHash('sha256').update(bytes(file)).digest('hex')
const strays = (dir) => fs.readdirSync(dir).filter((name) => name.endsWith('.tmp'))

const LONG_SUFFIX = `\n\n## Recent turns preserved verbatim\n${Array.from({ length: 400 }, (_, i) => `- Tool result (web_fetch): {"id":"evt_${i}","body":"lorem ipsum dolor"}`).join('\n')}`

describe('patch', () => {
  const install = fakeInstall()
  let original

  test('unpatched, the fake loses the body when the suffix fills the budget', () => {
    expect(LONG_SUFFIX.length).toBeGreaterThan(16000)
    const { summary } = callChunk(install.chunk, BODY, LONG_SUFFIX)
    expect(summary).toHaveLength(16000)
    expect(summary).not.toContain('## Decisions')
    original = bytes(install.chunk)
  })

  test('--dry-run prints the change and writes nothing', () => {
    const { code, stdout } = cli(['patch', install.pkg, '--dry-run'])
    expect(code).toBe(0)
    expect(stdout).toContain(`--- a/dist/${CHUNK}`)
    expect(stdout).toContain('+import { createRequire as __occnCreateRequire } from "node:module";')
    expect(stdout).toContain('-\tif (suffix.length >= maxChars) return sliceUtf16Safe(suffix, -maxChars);')
    expect(stdout).toContain(
      '+\treturn __occnNative().capCompactionSummaryPreservingSuffix(summaryBody, suffix, maxChars);',
    )
    expect(stdout).toMatch(/nothing was written/)
    expect(bytes(install.chunk).equals(original)).toBe(true)
    expect(strays(install.dist)).toEqual([])
  })

  test('patches the chunk found by its text, atomically, keeping its mode', () => {
    const { code, stdout, stderr } = cli(['patch', install.pkg])
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    const addon = path.join(install.addon, 'index.js')
    expect(stdout).toMatch(
      new RegExp(
        `^patched: ${escape(DIST_CHUNK)} .*loaded from ${escape(addon)} and from nowhere else \\(found by name from the dist\\)`,
        'm',
      ),
    )
    const text = fs.readFileSync(install.chunk, 'utf8')
    expect(
      text.startsWith(
        'import { createRequire as __occnCreateRequire } from "node:module"; /* openclaw-context-native patch v2 */\n',
      ),
    ).toBe(true)
    expect(text).toContain('/* openclaw-context-native patch v2 BEGIN')
    // The one file it resolved, as an absolute path: no package name is left to resolve later.
    expect(text).toContain(`\tconst addon = ${JSON.stringify(addon)};`)
    expect(text).not.toMatch(/candidates|"openclaw-context-native"/)
    expect(text).toContain(
      'function capCompactionSummaryPreservingSuffix(summaryBody, suffix, maxChars = MAX_COMPACTION_SUMMARY_CHARS) {',
    )
    expect(text).not.toContain('sliceUtf16Safe(suffix, -maxChars)')
    expect(fs.statSync(install.chunk).mode & 0o777).toBe(CHUNK_MODE)
    expect(strays(install.dist)).toEqual([])
  })

  test('the patched function delegates to the addon: the body keeps its headings', () => {
    const { summary, after } = callChunk(install.chunk, BODY, LONG_SUFFIX)
    expect(after).toBe('still here ✓')
    expect(summary.length).toBeLessThanOrEqual(16000)
    for (const heading of HEADINGS) expect(summary).toContain(heading)
    expect(summary).toBe(native.capCompactionSummaryPreservingSuffix(BODY, LONG_SUFFIX, 16000))
    // the default parameter still comes from the chunk's own constant
    expect(callChunk(install.chunk, BODY, LONG_SUFFIX, 2000).summary.length).toBeLessThanOrEqual(2000)
  })

  test('a second run changes nothing and says so', () => {
    const before = bytes(install.chunk)
    const mtime = fs.statSync(install.chunk).mtimeMs
    const { code, stdout } = cli(['patch', install.pkg])
    expect(code).toBe(0)
    expect(stdout).toMatch(/already patched.*nothing changed/)
    expect(bytes(install.chunk).equals(before)).toBe(true)
    expect(fs.statSync(install.chunk).mtimeMs).toBe(mtime)
    expect(cli(['patch', install.pkg, '--dry-run']).stdout).toMatch(/already patched/)
  })

  test('finds the install from the current folder when no folder is given, and prints which', () => {
    const cwd = path.join(install.root, 'node_modules')
    const { code, stdout, stderr } = cli(['patch', '--check'], { cwd })
    expect(code).toBe(0)
    expect(stderr).toBe(`openclaw: ${fs.realpathSync(install.pkg)} (found by walking up from ${cwd})\n`)
    expect(stdout).toMatch(
      /^patched: .*the addon loads from .*index\.js, the only file the chunk loads \(openclaw-context-native /m,
    )
  })

  test('--check exits 0 when patched and the addon loads', () => {
    const { code, stdout, stderr } = cli(['patch', install.pkg, '--check'])
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    expect(stdout).toContain(path.join(install.addon, 'index.js'))
  })

  test('--revert restores the original bytes; then --check fails and --revert has nothing to do', () => {
    const reverted = cli(['patch', install.pkg, '--revert'])
    expect(reverted.code).toBe(0)
    expect(reverted.stdout).toMatch(/reverted: .*byte for byte/)
    expect(bytes(install.chunk).equals(original)).toBe(true)
    expect(fs.statSync(install.chunk).mode & 0o777).toBe(CHUNK_MODE)

    const check = cli(['patch', install.pkg, '--check'])
    expect(check.code).toBe(1)
    expect(check.stderr.trim().split('\n')).toHaveLength(1)
    expect(check.stderr).toMatch(/^not patched: /)

    const again = cli(['patch', install.pkg, '--revert'])
    expect(again.code).toBe(0)
    expect(again.stdout).toMatch(/not patched.*nothing to revert/)
  })

  test('--revert refuses a patched chunk that was edited afterwards, and changes nothing', () => {
    expect(cli(['patch', install.pkg]).code).toBe(0)
    fs.appendFileSync(install.chunk, '// edited by hand\n')
    const edited = bytes(install.chunk)
    const { code, stderr } = cli(['patch', install.pkg, '--revert'])
    expect(code).toBe(1)
    expect(stderr).toMatch(/cannot be restored exactly/)
    expect(bytes(install.chunk).equals(edited)).toBe(true)
  })
})

// Another local user may own or write a folder above the current one (/tmp is the usual
// case): nothing found there by walking up is loaded or rewritten, and nothing outside dist/
// is followed into. Ownership is POSIX: Windows' stat has no owner (nothing is checked there).
describe('patch loads nothing it was not pointed at', () => {
  const isRoot = Boolean(process.getuid && process.getuid() === 0)
  /** Gives `dir` and what it holds to `uid`; a symbolic link itself, never what it leads to (this package). */
  function chownTree(dir, uid) {
    fs.lchownSync(dir, uid, uid)
    if (!fs.lstatSync(dir).isDirectory()) return
    for (const name of fs.readdirSync(dir)) chownTree(path.join(dir, name), uid)
  }
  /** A planted install: its addon leaves a file behind when anything loads it. */
  function plantedInstall(parent) {
    const planted = writeFakeInstall(parent, { link: false })
    const addon = path.join(parent, 'node_modules', 'openclaw-context-native')
    const loaded = path.join(parent, 'LOADED')
    fs.mkdirSync(addon, { recursive: true })
    fs.writeFileSync(
      path.join(addon, 'package.json'),
      JSON.stringify({ name: 'openclaw-context-native', version: '6.6.6', main: 'index.js' }),
    )
    fs.writeFileSync(
      path.join(addon, 'index.js'),
      `require('node:fs').writeFileSync(${JSON.stringify(loaded)}, 'pwned'); module.exports = { capCompactionSummaryPreservingSuffix: (b, s, m) => b.slice(0, m) }`,
    )
    return { ...planted, loaded }
  }

  posixTest('Windows keeps no mode bits for others')(
    'a planted install under a world-writable folder: refused with the reason, its addon never loaded, its chunk unchanged',
    () => {
      const open = tempDir('occn-open-')
      fs.chmodSync(open, 0o777)
      const planted = plantedInstall(open)
      const cwd = path.join(open, 'work')
      fs.mkdirSync(cwd)
      const before = sha(planted.chunk)
      for (const mode of [['--check'], [], ['--dry-run'], ['--revert']]) {
        const { code, stdout, stderr } = cli(['patch', ...mode], { cwd })
        expect({ mode, code, stdout }).toEqual({ mode, code: 1, stdout: '' })
        expect(stderr).toBe(
          `openclaw-context: found openclaw at ${fs.realpathSync(planted.pkg)} (found by walking up from ${cwd}), but ${fs.realpathSync(open)} is writable by every user (mode 0777): another user could have put it there, so it is not used; if it is yours, pass its folder: openclaw-context patch ${fs.realpathSync(planted.pkg)}\n`,
        )
      }
      expect(fs.existsSync(planted.loaded)).toBe(false)
      expect(sha(planted.chunk)).toBe(before)
    },
  )

  testUnless(
    onWindows || !isRoot,
    onWindows
      ? 'on win32: Windows keeps no owner in stat'
      : 'when not root: only root can make a folder of another user',
  )(
    "an install another user owns below a sticky folder (as in /tmp), run as root: refused; the user's own is used",
    () => {
      const sticky = tempDir('occn-sticky-')
      fs.chmodSync(sticky, 0o1777)
      const theirs = path.join(sticky, 'theirs')
      fs.mkdirSync(theirs)
      const planted = plantedInstall(theirs)
      chownTree(theirs, 65534)
      const { code, stderr } = cli(['patch', '--check'], { cwd: theirs })
      expect(code).toBe(1)
      expect(stderr).toMatch(
        new RegExp(
          `but ${escape(fs.realpathSync(path.join(planted.pkg, 'dist')))} belongs to uid 65534, not to you \\(uid 0\\) or root: another user could have put it there`,
        ),
      )
      expect(fs.existsSync(planted.loaded)).toBe(false)
      // Root's own install below the same sticky folder is found, printed and used.
      const mine = writeFakeInstall(fs.mkdtempSync(path.join(sticky, 'mine-')))
      const ok = cli(['patch', '--dry-run'], { cwd: mine.root })
      expect({ code: ok.code, stderr: ok.stderr }).toEqual({
        code: 0,
        stderr: `openclaw: ${fs.realpathSync(mine.pkg)} (found by walking up from ${mine.root})\n`,
      })
    },
  )

  otherUidTest('the install owner checks')(
    "run as uid 65534: an install it owns is used, one of another user is refused, root's is used",
    () => {
      const nobody = { uid: 65534, gid: 65534 }
      const own = writeFakeInstall(tempDir('occn-nobody-'))
      chownTree(own.root, 65534)
      const used = cli(['patch', '--dry-run'], { cwd: own.root, ...nobody })
      expect({ code: used.code, stderr: used.stderr }).toEqual({
        code: 0,
        stderr: `openclaw: ${fs.realpathSync(own.pkg)} (found by walking up from ${own.root})\n`,
      })
      const other = writeFakeInstall(tempDir('occn-other-'))
      fs.chownSync(path.join(other.pkg, 'dist'), 1234, 1234)
      const refused = cli(['patch', '--dry-run'], { cwd: other.root, ...nobody })
      expect(refused.code).toBe(1)
      expect(refused.stderr).toMatch(/belongs to uid 1234, not to you \(uid 65534\) or root/)
      const roots = writeFakeInstall(tempDir('occn-roots-'))
      fs.chmodSync(roots.chunk, 0o644) // readable by uid 65534
      const byRoot = cli(['patch', '--dry-run'], { cwd: roots.root, ...nobody })
      expect({ code: byRoot.code, stderr: byRoot.stderr }).toEqual({
        code: 0,
        stderr: `openclaw: ${fs.realpathSync(roots.pkg)} (found by walking up from ${roots.root})\n`,
      })
    },
  )

  test('a folder named on the command line is used as named (the user pointed at it)', () => {
    const open = tempDir('occn-named-')
    const install = writeFakeInstall(open)
    if (!onWindows) fs.chmodSync(open, 0o777)
    const { code, stderr } = cli(['patch', install.pkg, '--dry-run'])
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
  })

  posixTest('symbolic links need a privilege on Windows')(
    'a chunk that is a symbolic link out of dist/ is not read nor followed: the file outside keeps its bytes',
    () => {
      const install = fakeInstall()
      const outside = path.join(tempDir('occn-outside-'), 'victim.js')
      fs.renameSync(install.chunk, outside)
      fs.symlinkSync(outside, install.chunk)
      const before = sha(outside)
      for (const mode of [[], ['--check'], ['--dry-run']]) {
        const { code, stdout, stderr } = cli(['patch', install.pkg, ...mode])
        expect({ mode, code }).toEqual({ mode, code: 1 })
        expect(stdout).toBe('')
        expect(stderr.split('\n')[0]).toBe(
          `note: ${DIST_CHUNK} is a symbolic link; only regular files in dist/ are read or patched`,
        )
      }
      expect(sha(outside)).toBe(before)
      expect(fs.lstatSync(install.chunk).isSymbolicLink()).toBe(true)
      // a dist/ that is itself a link out of the package: refused as a whole
      const other = fakeInstall()
      const movedDist = path.join(tempDir('occn-outside-dist-'), 'dist')
      fs.renameSync(other.dist, movedDist)
      fs.symlinkSync(movedDist, other.dist)
      const refused = cli(['patch', other.pkg])
      expect(refused.code).toBe(1)
      expect(refused.stderr).toBe(
        `openclaw-context: ${path.join(fs.realpathSync(other.pkg), 'dist')} leads to ${movedDist}, outside the openclaw package; not reading it\n`,
      )
    },
  )

  test('temp files of an interrupted write: reported by --check and --dry-run, removed by the next patch; only our own names, only regular files', () => {
    const install = fakeInstall()
    const dead = 2 ** 22 + 4321 // above Linux's pid_max default: no such process
    const leftover = path.join(install.dist, `.${CHUNK}.openclaw-context-native-${dead}-0badc0de.tmp`)
    const notOurs = path.join(install.dist, `.${CHUNK}.some-other-tool-${dead}-0badc0de.tmp`)
    fs.writeFileSync(leftover, 'half a chunk')
    fs.writeFileSync(notOurs, 'theirs')
    const real = (file) => path.join(fs.realpathSync(install.dist), path.basename(file))
    for (const mode of [['--check'], ['--dry-run']]) {
      const { stderr } = cli(['patch', install.pkg, ...mode])
      expect(stderr).toContain(
        `note: ${real(leftover)} was left by an interrupted run; the next patch or --revert removes it\n`,
      )
      expect(fs.existsSync(leftover)).toBe(true)
    }
    const { code, stderr } = cli(['patch', install.pkg])
    expect({ code, stderr }).toEqual({ code: 0, stderr: `removed ${real(leftover)}, left by an interrupted run\n` })
    expect(fs.existsSync(leftover)).toBe(false)
    expect(fs.readFileSync(notOurs, 'utf8')).toBe('theirs')
  })
})

describe('patch finds the end of the function by scanning, not by counting braces', () => {
  test('braces in strings, template literals, comments and regexes', () => {
    const text = fakeChunk(TRICKY_FUNCTION)
    const start = text.indexOf('function capCompactionSummaryPreservingSuffix(')
    const fn = locateFunction(text, start, 'capCompactionSummaryPreservingSuffix')
    expect(text.slice(fn.start, fn.end)).toBe(TRICKY_FUNCTION)
    expect(fn.params).toEqual(['summaryBody', 'suffix', 'maxChars'])
  })

  test('patch and revert of such a function', () => {
    const install = fakeInstall({ fn: TRICKY_FUNCTION })
    const original = bytes(install.chunk)
    expect(cli(['patch', install.pkg]).code).toBe(0)
    const { summary, after } = callChunk(install.chunk, BODY, LONG_SUFFIX)
    expect(after).toBe('still here ✓')
    for (const heading of HEADINGS) expect(summary).toContain(heading)
    expect(cli(['patch', install.pkg, '--revert']).code).toBe(0)
    expect(bytes(install.chunk).equals(original)).toBe(true)
  })
})

describe('patch in other situations', () => {
  test.each([
    ['2026.3.13', null, 'has no capCompactionSummaryPreservingSuffix yet (it first appears in 2026.3.22); nothing to'],
    [
      '2026.8.1-beta.3',
      null,
      'has no capCompactionSummaryPreservingSuffix: fixed upstream (budgetCompactionSummary replaced it); nothing to',
    ],
    [
      '2026.9.6',
      null,
      'has no capCompactionSummaryPreservingSuffix: fixed upstream (budgetCompactionSummary replaced it); nothing to',
    ],
  ])('openclaw %s without the function: every mode says why, exit 0, nothing written', (version, fn, said) => {
    const install = fakeInstall({ fn, version })
    const before = sha(install.chunk)
    for (const [mode, verb] of [
      [[], 'patch'],
      [['--check'], 'patch'],
      [['--dry-run'], 'patch'],
      [['--revert'], 'revert'],
    ]) {
      const { code, stdout, stderr } = cli(['patch', install.pkg, ...mode])
      expect({ mode, code, stderr }).toEqual({ mode, code: 0, stderr: '' })
      expect(stdout).toBe(`openclaw ${version} at ${fs.realpathSync(install.pkg)} ${said} ${verb}.\n`)
    }
    expect(sha(install.chunk)).toBe(before)
  })

  test('2026.8.1-beta.2 (a wrapper over budgetCompactionSummary, the upstream fix): left alone in every mode, exit 0', () => {
    const install = fakeInstall({ fn: FAKE_WRAPPER, version: '2026.8.1-beta.2' })
    const before = sha(install.chunk)
    for (const mode of [[], ['--check'], ['--dry-run'], ['--revert']]) {
      const { code, stdout, stderr } = cli(['patch', install.pkg, ...mode])
      expect({ mode, code, stderr }).toEqual({ mode, code: 0, stderr: '' })
      expect(stdout).toMatch(
        mode[0] === '--revert'
          ? /^not patched: .* is OpenClaw's original; nothing to revert\.$/m
          : new RegExp(
              `^openclaw 2026\\.8\\.1-beta\\.2 at .*: ${escape(DIST_CHUNK)}'s capCompactionSummaryPreservingSuffix wraps budgetCompactionSummary, the upstream fix: nothing to patch\\.$`,
              'm',
            ),
      )
    }
    expect(sha(install.chunk)).toBe(before)
  })

  test('2026.8.1-beta.2 whose wrapper an earlier version of this tool replaced: --check warns, patch puts the original back', () => {
    const install = fakeInstall({ fn: FAKE_WRAPPER, version: '2026.8.1-beta.2' })
    const original = bytes(install.chunk)
    fs.writeFileSync(
      install.chunk,
      v1.planPatch(original.toString('latin1'), ['openclaw-context-native', ROOT]).patched,
      'latin1',
    )
    const check = cli(['patch', install.pkg, '--check'])
    expect(check.code).toBe(1) // it also loads the package by name first (patch v1)
    expect(check.stderr).toMatch(
      /^patched by an earlier openclaw-context: .*\nwarning: .* is patched, but its original capCompactionSummaryPreservingSuffix was upstream's fix \(budgetCompactionSummary\); `openclaw-context patch .*` restores it\.\n$/,
    )
    const dry = cli(['patch', install.pkg, '--dry-run'])
    expect(dry.stdout).toMatch(/would get back its original capCompactionSummaryPreservingSuffix, upstream's fix/)
    const restored = cli(['patch', install.pkg])
    expect({ code: restored.code, stderr: restored.stderr }).toEqual({ code: 0, stderr: '' })
    expect(restored.stdout).toMatch(
      /^restored: .*wraps budgetCompactionSummary, upstream's fix, which an earlier openclaw-context had replaced/,
    )
    expect(bytes(install.chunk).equals(original)).toBe(true)
    expect(cli(['patch', install.pkg]).stdout).toMatch(
      /wraps budgetCompactionSummary, the upstream fix: nothing to patch/,
    )
  })

  test('a release that should have the function but does not (a modified dist): exit 1 with the reason', () => {
    const install = fakeInstall({ fn: null, version: '2026.6.35' })
    for (const mode of [[], ['--check'], ['--dry-run']]) {
      const { code, stdout, stderr } = cli(['patch', install.pkg, ...mode])
      expect({ mode, code, stdout }).toEqual({ mode, code: 1, stdout: '' })
      expect(stderr).toMatch(
        /^openclaw-context: openclaw 2026\.6\.35 at .* has no chunk defining capCompactionSummaryPreservingSuffix, nor upstream's budgetCompactionSummary, .*cannot tell whether it needs patching\.\n$/,
      )
    }
    expect(cli(['patch', install.pkg, '--revert']).code).toBe(0)
  })

  test('the older text (2026.3.22 … 2026.7.1-beta.2, `.slice`): patched like the newer, no note, reverted byte for byte', () => {
    const install = fakeInstall({ fn: FAKE_FUNCTION_A, version: '2026.6.35' })
    const original = bytes(install.chunk)
    expect(callChunk(install.chunk, BODY, LONG_SUFFIX).summary).not.toContain('## Decisions')
    const patched = cli(['patch', install.pkg])
    expect({ code: patched.code, stderr: patched.stderr }).toEqual({ code: 0, stderr: '' })
    expect(patched.stdout).toMatch(
      /^patched: .*\(openclaw 2026\.6\.35\); capCompactionSummaryPreservingSuffix now delegates/,
    )
    const { summary } = callChunk(install.chunk, BODY, LONG_SUFFIX)
    expect(summary).toBe(native.capCompactionSummaryPreservingSuffix(BODY, LONG_SUFFIX, 16000))
    expect(cli(['patch', install.pkg, '--check']).code).toBe(0)
    expect(cli(['patch', install.pkg, '--revert']).code).toBe(0)
    expect(bytes(install.chunk).equals(original)).toBe(true)
  })

  test('a body that is neither released text: patched with a note on stderr', () => {
    const other = FAKE_FUNCTION.replace('if (!suffix)', 'if (suffix === "")')
    const install = fakeInstall({ fn: other })
    const { code, stderr } = cli(['patch', install.pkg])
    expect(code).toBe(0)
    expect(stderr).toMatch(
      /^note: .*body is neither released text; replacing it anyway \(same signature: capCompactionSummaryPreservingSuffix\(summaryBody, suffix, maxChars = MAX_COMPACTION_SUMMARY_CHARS\)\)\n$/,
    )
  })

  test('.mjs chunks (2026.9.3 on): a chunk that defines the function is patched, a persistent-chat file is listed', () => {
    const extra = {
      'dispatch-acp-FAKE.mjs':
        'function buildPersistentChatInjectedPrompt(params) {\n\treturn params.userMessage;\n}\nexport { buildPersistentChatInjectedPrompt };\n',
    }
    const install = fakeInstall({ chunk: 'builtin-FAKE.mjs', version: '2026.9.3', extra })
    const { code, stdout, stderr } = cli(['patch', install.pkg])
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    expect(stdout).toContain(`patched: ${path.join('dist', 'builtin-FAKE.mjs')} (openclaw 2026.9.3)`)
    expect(stdout).toContain(`${path.join('dist', 'dispatch-acp-FAKE.mjs')}: buildPersistentChatInjectedPrompt`)
    const { summary } = callChunk(install.chunk, BODY, LONG_SUFFIX)
    for (const heading of HEADINGS) expect(summary).toContain(heading)
    expect(cli(['patch', install.pkg, '--check']).code).toBe(0)
  })

  unreadableTest('folder permissions are not how Windows makes a file read-only (the read-only chunk case below is)')(
    'a read-only dist: exit 1, nothing changed',
    () => {
      const install = fakeInstall()
      fs.chmodSync(install.chunk, 0o644) // readable by the unprivileged user
      const before = bytes(install.chunk)
      // Root writes through a mode: the command runs without the capabilities that do.
      fs.chmodSync(install.dist, 0o555)
      let result
      try {
        result = cli(['patch', install.pkg], { withoutOverride: true })
      } finally {
        fs.chmodSync(install.dist, 0o755)
      }
      expect(result.code).toBe(1)
      expect(result.stderr.trim().split('\n')).toHaveLength(1)
      expect(result.stderr).toMatch(
        /cannot write .*selection-XYZ\.js \((EACCES|EPERM|EROFS)\).*read-only.*nothing was changed/,
      )
      expect(bytes(install.chunk).equals(before)).toBe(true)
      expect(strays(install.dist)).toEqual([])
    },
  )

  // Windows refuses to replace a read-only file (MoveFileExW: access denied); the
  // rename is retried as for a file in use, then the run fails. Wine replaces it.
  testUnless(
    !onWindows || underWine,
    onWindows
      ? 'under Wine: it replaces a read-only file, which Windows refuses'
      : `on ${process.platform}: the read-only attribute is Windows'`,
  )('a read-only chunk (the read-only attribute): exit 1 after the in-use retries, nothing changed', () => {
    const install = fakeInstall()
    fs.chmodSync(install.chunk, 0o444)
    const before = bytes(install.chunk)
    const result = cli(['patch', install.pkg])
    expect(result.code).toBe(1)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toMatch(
      /cannot write .*selection-XYZ\.js \((EACCES|EPERM)\): the chunk is in use or read-only.*nothing was changed/,
    )
    expect(bytes(install.chunk).equals(before)).toBe(true)
    expect(strays(install.dist)).toEqual([])
  })

  test('an operator-patched persistent chat: files and adapter listed, not modified', () => {
    const extra = {
      'dispatch-acp-FAKE.js':
        'export function rebuildPersistentChatContinuitySummary(state) {\n\treturn "";\n}\nfunction buildPersistentChatInjectedPrompt(params) {\n\treturn params.userMessage;\n}\n',
    }
    const install = fakeInstall({ extra })
    const { code, stdout } = cli(['patch', install.pkg])
    expect(code).toBe(0)
    expect(stdout).toContain(
      `${path.join('dist', 'dispatch-acp-FAKE.js')}: rebuildPersistentChatContinuitySummary, buildPersistentChatInjectedPrompt`,
    )
    // The file patch resolved and checked, as for its own patch: never the package by name.
    expect(stdout).toContain(
      `__occnCreateRequire(import.meta.url)(${JSON.stringify(path.join(install.addon, 'index.js'))})`,
    )
    expect(stdout).not.toContain('("openclaw-context-native")')
    expect(stdout).toContain('__occnPersistentChat.buildPersistentChatInjectedPrompt({')
    expect(stdout).toContain('__occnPersistentChat.rebuildPersistentChatContinuitySummary({')
    expect(fs.readFileSync(path.join(install.dist, 'dispatch-acp-FAKE.js'), 'utf8')).toBe(extra['dispatch-acp-FAKE.js'])
  })

  test('a folder that is not an openclaw package: exit 1', () => {
    const dir = tempDir('occn-cli-empty-')
    const { code, stderr } = cli(['patch', dir])
    expect(code).toBe(1)
    expect(stderr).toMatch(/is not an openclaw package/)
    expect(cli(['patch', path.join(dir, 'missing')]).stderr).toMatch(/does not exist/)
  })

  test('the addon missing when the gateway runs: the chunk still loads, the function throws what to do', () => {
    // Patch from a copy of this package (so its absolute path is the one written), without
    // the by-name link; then delete the copy, as when an npx cache is cleaned.
    const copy = tempDir('occn-cli-pkg-')
    for (const name of ['package.json', 'index.js', ...fs.readdirSync(ROOT).filter((n) => n.endsWith('.node'))]) {
      fs.copyFileSync(path.join(ROOT, name), path.join(copy, name))
    }
    for (const name of ['cli', 'lib']) fs.cpSync(path.join(ROOT, name), path.join(copy, name), { recursive: true })
    const install = fakeInstall({ link: false })
    const patched = cli(['patch', install.pkg], { cli: path.join(copy, 'cli', 'openclaw-context.js') })
    expect(patched.code).toBe(0)
    const copyAddon = path.join(fs.realpathSync(copy), 'index.js') // the path written by that run
    expect(patched.stdout).toContain(`loaded from ${copyAddon} and from nowhere else (this command's own copy`)
    fs.rmSync(copy, { recursive: true, force: true })

    const { error, after } = callChunk(install.chunk, BODY, LONG_SUFFIX)
    expect(after).toBe('still here ✓')
    expect(error).toMatch(
      new RegExp(`^openclaw-context-native could not be loaded from ${escape(copyAddon)} \\(Cannot find module`),
    )
    expect(error).toContain(
      'run `openclaw-context patch` again (it records where the package is) or `openclaw-context patch --revert`',
    )

    const check = cli(['patch', install.pkg, '--check'])
    expect(check.code).toBe(1)
    expect(check.stderr).toMatch(
      new RegExp(`^patched, but openclaw-context-native does not load from ${escape(copyAddon)}: `),
    )

    // Patching again from an installed copy updates the load path (only that line).
    const dry = cli(['patch', install.pkg, '--dry-run'])
    expect(dry.code).toBe(0)
    expect(dry.stdout).toMatch(/would be updated/)
    expect(dry.stdout.split('\n').filter((l) => /^[-+][^-+]/.test(l))).toEqual([
      `-\tconst addon = ${JSON.stringify(copyAddon)};`,
      `+\tconst addon = ${JSON.stringify(path.join(ROOT, 'index.js'))};`,
    ])
    const updated = cli(['patch', install.pkg])
    expect(updated.code).toBe(0)
    expect(updated.stdout).toMatch(/^updated: /)
    expect(callChunk(install.chunk, BODY, LONG_SUFFIX).summary).toContain('## Decisions')

    // --revert restores the original, whichever copy patched it.
    const original = fakeChunk(FAKE_FUNCTION)
    expect(cli(['patch', install.pkg, '--revert']).code).toBe(0)
    expect(fs.readFileSync(install.chunk, 'utf8')).toBe(original)
  })
})

// The patched chunk loads the one file `patch` resolved and checked, by its absolute path:
// a package planted later in a node_modules above the dist (by another user, where a folder
// on the way up is writable) is never resolved, let alone loaded. A chunk patched by 0.1.0
// (patch v1: the package name first, then a path) is recognised and updated.
describe('the patched chunk loads only what patch trusted', () => {
  /** A package that leaves LOADED beside it when anything loads it, at `dir`/node_modules/openclaw-context-native. */
  function plantPackage(dir) {
    const addon = path.join(dir, 'node_modules', 'openclaw-context-native')
    const loaded = path.join(dir, 'LOADED')
    fs.mkdirSync(addon, { recursive: true })
    fs.writeFileSync(
      path.join(addon, 'package.json'),
      JSON.stringify({ name: 'openclaw-context-native', version: '6.6.6', main: 'index.js' }),
    )
    fs.writeFileSync(
      path.join(addon, 'index.js'),
      `require('node:fs').writeFileSync(${JSON.stringify(loaded)}, 'pwned'); module.exports = { capCompactionSummaryPreservingSuffix: () => 'planted' }`,
    )
    return loaded
  }

  test('a package planted after patch in a node_modules above the dist is never loaded: not at compaction, not by --check', () => {
    // Patched with this command's own copy (nothing by name next to OpenClaw yet).
    const above = tempDir('occn-above-')
    const install = writeFakeInstall(path.join(above, 'gateway'), { link: false })
    const patched = cli(['patch', install.pkg])
    expect({ code: patched.code, stderr: patched.stderr }).toEqual({ code: 0, stderr: '' })
    expect(patched.stdout).toContain(`loaded from ${path.join(ROOT, 'index.js')}`)
    // Then someone plants the package where Node's resolution by name from the dist looks:
    // the install's own node_modules, and a folder above it.
    const loaded = [plantPackage(install.root), plantPackage(path.dirname(install.root))]
    const { summary, after } = callChunk(install.chunk, BODY, LONG_SUFFIX)
    expect(after).toBe('still here ✓')
    expect(summary).toBe(native.capCompactionSummaryPreservingSuffix(BODY, LONG_SUFFIX, 16000))
    const check = cli(['patch', install.pkg, '--check'])
    expect({ code: check.code, stderr: check.stderr }).toEqual({ code: 0, stderr: '' })
    expect(check.stdout).toContain(`the addon loads from ${path.join(ROOT, 'index.js')}, the only file the chunk loads`)
    for (const file of loaded) expect(fs.existsSync(file)).toBe(false)
  })

  test('a chunk patched by 0.1.0 (the package name first): --check says so and fails, patch updates it, --revert restores the original', () => {
    const install = fakeInstall()
    const original = bytes(install.chunk)
    const oldPatch = v1.planPatch(original.toString('latin1'), ['openclaw-context-native', ROOT]).patched
    fs.writeFileSync(install.chunk, oldPatch, 'latin1')

    const check = cli(['patch', install.pkg, '--check'])
    expect(check.code).toBe(1)
    expect(check.stderr).toBe(
      `patched by an earlier openclaw-context: ${DIST_CHUNK} loads openclaw-context-native by name first, which a package planted later in a node_modules above the dist would win; run \`openclaw-context patch ${fs.realpathSync(install.pkg)}\` to update it\n`,
    )
    // The plugin's start-up line (lib/compaction-status.js) says the same.
    const { compactionStatus } = require('../lib/compaction-status')
    expect(compactionStatus(install.pkg)).toMatchObject({
      state: 'patched',
      message: expect.stringMatching(
        /is patched by an earlier openclaw-context, which loads openclaw-context-native by name first/,
      ),
    })

    // --revert of the old patch gives the original back, byte for byte.
    expect(cli(['patch', install.pkg, '--revert']).code).toBe(0)
    expect(bytes(install.chunk).equals(original)).toBe(true)

    // patch over the old patch: the same bytes as a patch of the original.
    fs.writeFileSync(install.chunk, oldPatch, 'latin1')
    const updated = cli(['patch', install.pkg])
    expect({ code: updated.code, stderr: updated.stderr }).toEqual({ code: 0, stderr: '' })
    expect(updated.stdout).toMatch(/^updated: /)
    const viaOld = bytes(install.chunk)
    expect(cli(['patch', install.pkg, '--revert']).code).toBe(0)
    expect(cli(['patch', install.pkg]).stdout).toMatch(/^patched: /)
    expect(bytes(install.chunk).equals(viaOld)).toBe(true)
    expect(cli(['patch', install.pkg]).stdout).toMatch(/already patched/)
    expect(cli(['patch', install.pkg, '--check']).code).toBe(0)
  })

  // Under Wine 8, node.exe does not find the entry script in the copied non-ASCII folder
  // (MODULE_NOT_FOUND with the right path; real Windows is not run here); the WASI build needs its
  // runtime packages, which a copy without node_modules lacks.
  testUnless(
    underWine || onWasi,
    underWine ? 'under Wine: a non-ASCII entry path is not found' : 'on WASI: the copy has no WASI runtime',
  )('a path outside ASCII is written as \\u escapes (the chunk is edited byte for byte) and loads', () => {
    const dir = tempDir('occn-cli-ünï-')
    const copy = path.join(dir, 'пакет ✓')
    fs.mkdirSync(copy)
    for (const name of ['package.json', 'index.js', ...fs.readdirSync(ROOT).filter((n) => n.endsWith('.node'))]) {
      fs.copyFileSync(path.join(ROOT, name), path.join(copy, name))
    }
    for (const name of ['cli', 'lib']) fs.cpSync(path.join(ROOT, name), path.join(copy, name), { recursive: true })
    const install = fakeInstall({ link: false })
    const patched = cli(['patch', install.pkg], { cli: path.join(copy, 'cli', 'openclaw-context.js') })
    expect({ code: patched.code, stderr: patched.stderr }).toEqual({ code: 0, stderr: '' })
    const line = /\tconst addon = .*\n/.exec(bytes(install.chunk).toString('latin1'))[0]
    expect(line).toMatch(/^[\x20-\x7e\t\n]*$/)
    expect(line).toContain('\\u043f\\u0430\\u043a\\u0435\\u0442 \\u2713')
    expect(callChunk(install.chunk, BODY, LONG_SUFFIX).summary).toContain('## Decisions')
    expect(cli(['patch', install.pkg, '--check'], { cli: path.join(copy, 'cli', 'openclaw-context.js') }).code).toBe(0)
  })
})

// A folder's name is the user's or anyone's who could name a folder above the install: printed
// by `patch`, it is shell-quoted with its control characters escaped (lib/shell-quote.js), so it
// can neither forge a line of the output nor add a command to one the user pastes back.
describe('paths printed by patch', () => {
  posixTest('no newline or $ in a Windows file name')(
    'a folder named with $(…) and a newline: one line per message, and the command printed pastes back as that folder, running nothing',
    () => {
      const parent = tempDir('occn-cli-named-')
      const hostile = path.join(parent, 'gw $(touch PWNED)\nproblem: none')
      const install = writeFakeInstall(hostile)
      const pkg = fs.realpathSync(install.pkg)
      const lines = (result) => `${result.stdout}${result.stderr}`.split('\n').filter(Boolean)
      const check = cli(['patch', install.pkg, '--check'], { cwd: parent })
      expect(check.code).toBe(1)
      expect(lines(check)).toHaveLength(1)
      const command = /run `openclaw-context (patch .*)`\)$/.exec(check.stderr.trim())[1]
      const run = spawnSync('bash', ['-c', `printf '%s\\0' ${command}`], { cwd: parent, encoding: 'utf8' })
      expect(run.stdout.split('\0').slice(0, -1)).toEqual(['patch', pkg])
      expect(fs.existsSync(path.join(parent, 'PWNED'))).toBe(false)
      for (const args of [[], ['--check'], ['--dry-run'], ['--revert'], [path.join(hostile, 'missing')]]) {
        const result = cli(['patch', ...(args[0]?.startsWith('/') ? args : [install.pkg, ...args])], { cwd: parent })
        for (const line of lines(result))
          expect([args, line]).not.toEqual([args, expect.stringMatching(/^problem: none/)])
        expect(`${result.stdout}${result.stderr}`).not.toContain('\nproblem: none')
      }
      expect(fs.existsSync(path.join(parent, 'PWNED'))).toBe(false)
    },
  )
})

describe('usage', () => {
  test('--help prints the overview, patch --help its own usage, exit 0', () => {
    const { code, stdout } = cli(['--help'])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Usage: openclaw-context COMMAND/)
    expect(stdout).toMatch(/^ {2}patch +make an installed OpenClaw/m)
    const patch = cli(['patch', '--help'])
    expect(patch.code).toBe(0)
    expect(patch.stdout).toMatch(
      /^Usage: openclaw-context patch \[OPENCLAW_DIR\] \[--check \| --revert \| --dry-run\]\n/,
    )
  })

  test('starts with a node shebang', () => {
    expect(fs.readFileSync(CLI, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true)
  })

  posixTest('Windows has no execute bit (npm makes an openclaw-context.cmd there)')('is executable', () => {
    expect(fs.statSync(CLI).mode & 0o111).toBeTruthy()
  })

  test.each([
    [[]],
    [['frobnicate']],
    [['patch', '--check', '--revert']],
    [['patch', '--bogus']],
    [['patch', 'a', 'b']],
    [['summary']],
    [['summary', '--state', 's.json']],
    [['summary', '--state', 's.json', '--log', 'l.jsonl', '--max-chars', 'abc']],
    [['summary', '--state', 's.json', '--log', 'l.jsonl', '--max-chars', '0']],
    [['summary', '--state', 's.json', '--log']],
    [['summary', '--state', 's.json', '--log', 'l.jsonl', 'extra']],
  ])('bad usage %j: exit 2, what is wrong and which help to read', (args) => {
    const { code, stderr } = cli(args)
    expect(code).toBe(2)
    const [what, see, end] = stderr.split('\n')
    expect(what).toMatch(/^openclaw-context: /)
    const help =
      args[0] === 'patch' || args[0] === 'summary' ? `openclaw-context ${args[0]} --help` : 'openclaw-context --help'
    expect([see, end]).toEqual([`see '${help}'`, ''])
  })
})

describe('summary passes its options through (a stub binding via NAPI_RS_NATIVE_LIBRARY_PATH)', () => {
  const dir = tempDir('occn-cli-stub-')
  const stub = path.join(dir, 'stub.js')
  fs.writeFileSync(
    stub,
    [
      'module.exports = {',
      '  rebuildPersistentChatContinuitySummary(params) {',
      '    if (params.logPath.endsWith("fifo")) throw Object.assign(new Error(`not a regular file: ${params.logPath}\\nsecond line`), { code: "ENOTREGULAR" });',
      '    return `Current thread / pending next action:\\n${JSON.stringify(params)}\\n`;',
      '  },',
      '};',
    ].join('\n'),
  )
  const env = { NAPI_RS_NATIVE_LIBRARY_PATH: stub }

  test('maps the flags to the SPEC params and prints the result once', () => {
    const { code, stdout } = cli(
      [
        'summary',
        '--state',
        's.json',
        '--log=l.jsonl',
        '--current-session',
        'ses_9',
        '--now',
        '2026-05-15T10:00:00Z',
        '--max-chars',
        '1200',
      ],
      { env, cwd: dir },
    )
    expect(code).toBe(0)
    const [heading, json, rest] = stdout.split('\n')
    expect(heading).toBe('Current thread / pending next action:')
    expect(JSON.parse(json)).toEqual({
      statePath: path.join(dir, 's.json'),
      logPath: path.join(dir, 'l.jsonl'),
      currentSession: 'ses_9',
      now: '2026-05-15T10:00:00Z',
      maxChars: 1200,
    })
    expect(rest).toBe('')
    expect(stdout.endsWith('}\n')).toBe(true)
  })

  test('optional flags are left out, not passed as undefined strings', () => {
    const { stdout } = cli(['summary', '--log', 'l.jsonl', '--state', 's.json'], { env, cwd: dir })
    expect(Object.keys(JSON.parse(stdout.split('\n')[1]))).toEqual(['statePath', 'logPath'])
  })

  test('an error from the addon: exit 1 with its first line and code', () => {
    const { code, stderr } = cli(['summary', '--state', 's.json', '--log', 'fifo'], { env, cwd: dir })
    expect(code).toBe(1)
    expect(stderr).toBe(`openclaw-context: not a regular file: ${path.join(dir, 'fifo')} (ENOTREGULAR)\n`)
  })
})

// Not skipped when the export is missing: a renamed export must fail here.
describe('summary', () => {
  const dir = tempDir('occn-cli-summary-')
  const statePath = path.join(dir, 'state.json')
  const logPath = path.join(dir, 'log.jsonl')
  fs.writeFileSync(
    statePath,
    JSON.stringify({
      decisions: ['Use queue billing-v2'],
      timers: [{ name: 'deploy check', status: 'pending', due: '2026-05-15T09:00:00Z' }],
    }),
  )
  fs.writeFileSync(
    logPath,
    `${[
      { ts: '2026-05-15T10:00:00Z', role: 'user', text: 'Is the deploy green?', session: 'ses_2' },
      { ts: '2026-05-15T10:00:05Z', role: 'assistant', text: 'Checking.', session: 'ses_2', status: 'ok' },
    ]
      .map((e) => JSON.stringify(e))
      .join('\n')}\n`,
  )

  test('prints rebuildPersistentChatContinuitySummary for the given files', () => {
    const args = [
      'summary',
      '--state',
      statePath,
      '--log',
      logPath,
      '--current-session',
      'ses_2',
      '--now',
      '2026-05-15T11:00:00Z',
      '--max-chars',
      '4000',
    ]
    const { code, stdout, stderr } = cli(args)
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
    const expected = native.rebuildPersistentChatContinuitySummary({
      statePath,
      logPath,
      currentSession: 'ses_2',
      now: '2026-05-15T11:00:00Z',
      maxChars: 4000,
    })
    expect(stdout).toBe(expected.endsWith('\n') ? expected : `${expected}\n`)
    expect(stdout).toMatch(/^Current thread \/ pending next action:/)
    expect(stdout).toContain('Use queue billing-v2')
  })

  test('files that do not exist yet count as empty (first run)', () => {
    const { code, stdout } = cli([
      'summary',
      '--state',
      path.join(dir, 'none.json'),
      '--log',
      path.join(dir, 'none.jsonl'),
    ])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^Current thread \/ pending next action:/)
  })

  test('a file problem: exit 1 with a one-line reason', () => {
    const { code, stderr } = cli(['summary', '--state', statePath, '--log', dir])
    expect(code).toBe(1)
    expect(stderr.trim().split('\n')).toHaveLength(1)
    expect(stderr).toMatch(/^openclaw-context: /)
  })
})
