'use strict'
// Fault injection for `openclaw-context patch` (SPEC § Command line: idempotent, atomic,
// `--revert` restores the original bytes, `--check` exits 0 only when patched and the
// addon loads): SIGKILL at many moments of a run, a dist the user may not write, and
// several runs (patch with patch, patch with --revert) at once. The fake install
// (fixtures/faults/fake-openclaw.js) is built like __test__/cli.test.js's, with a
// ~650 KB chunk so that writing it takes a moment.
const { spawn } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const {
  PACKAGE_ROOT,
  CLI,
  CHUNK,
  CHUNK_TEXT,
  BODY,
  LONG_SUFFIX,
  HEADINGS,
  fakeInstall: fakeInstallOf,
  resetChunk,
  cliSync,
  callChunk,
  sha256,
  fileSha,
} = require('./fixtures/faults/fake-openclaw.js')
const { otherUidTest, underWine } = require('./fixtures/platform.js')

const ORIGINAL_SHA = sha256(Buffer.from(CHUNK_TEXT))
const DIST_FILES = ['compact-Fault123.js', 'entry.js', 'utf16-slice-FAKE.js']
// What writeAtomic's temporary file is called: hidden, and not *.js.
const TEMP_NAME = new RegExp(`^\\.${CHUNK.replace(/\./g, '\\.')}\\.openclaw-context-native-\\d+-[0-9a-f]+\\.tmp$`)

let parent
let PATCHED_SHA
let typicalMs
beforeAll(() => {
  parent = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-faults-patch-'))
  fs.chmodSync(parent, 0o755)
  // One clean run gives the patched bytes every other run must produce.
  const reference = fakeInstall(parent)
  const durations = []
  for (let i = 0; i < 3; i++) {
    resetChunk(reference)
    const result = cliSync(['patch', reference.pkg])
    if (result.code !== 0) throw new Error(`a clean patch run failed: ${result.stderr}`)
    durations.push(result.ms)
  }
  PATCHED_SHA = fileSha(reference.chunk)
  typicalMs = durations.sort((a, b) => a - b)[1]
  if (PATCHED_SHA === ORIGINAL_SHA) throw new Error('the clean run did not change the chunk')
}, 30000)
afterAll(() => {
  if (parent) fs.rmSync(parent, { recursive: true, force: true })
})

/**
 * A fake install. The patched chunk names the absolute path of the addon it checked: every
 * install that links this package gets the reference's bytes; one with a copy of it (Windows
 * where no junction can be made, as under Wine) gets its own, taken by a clean run first.
 */
function fakeInstall(dir) {
  const install = fakeInstallOf(dir)
  if (install.addon !== fs.realpathSync(PACKAGE_ROOT)) {
    const result = cliSync(['patch', install.pkg])
    if (result.code !== 0) throw new Error(`a clean patch run failed: ${result.stderr}`)
    install.patchedSha = fileSha(install.chunk)
    resetChunk(install)
  }
  return install
}

const stateOf = (install) => {
  const sha = fileSha(install.chunk)
  const patched = install.patchedSha ?? PATCHED_SHA
  return sha === ORIGINAL_SHA ? 'original' : sha === patched ? 'patched' : `other (${sha.slice(0, 12)})`
}
const strayFiles = (install) => fs.readdirSync(install.dist).filter((name) => !DIST_FILES.includes(name))

/** Starts `openclaw-context patch ARGS`; resolves with { code, signal, stdout, stderr }. */
function start(args) {
  const child = spawn(process.execPath, [CLI, ...args], { cwd: os.tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => {
    stdout += d
  })
  child.stderr.on('data', (d) => {
    stderr += d
  })
  const safety = setTimeout(() => child.kill('SIGKILL'), 30000)
  const done = new Promise((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(safety)
      resolve({ code, signal, stdout, stderr })
    }),
  )
  return { child, done }
}

/** The patched chunk imports, and for a suffix >= maxChars keeps the body's headings. */
function expectDelegates(install) {
  expect(LONG_SUFFIX.length).toBeGreaterThan(16000)
  const out = callChunk(install.chunk, BODY, LONG_SUFFIX)
  expect(out.error).toBeUndefined()
  expect(out.after).toBe('still here ✓')
  expect(out.summary.length).toBeLessThanOrEqual(16000)
  expect(out.summary).toContain(HEADINGS[0])
  for (const heading of HEADINGS) expect(out.summary).toContain(heading)
}

describe('patch killed with SIGKILL mid-run', () => {
  test('at 30 moments from 0 to past its usual duration (SIGKILL after a delay): the chunk is always the original or the patched bytes', async () => {
    const install = fakeInstall(parent)
    // 20 delays spread evenly over 0..1.5x a clean run, 10 more packed into its last
    // quarter, where the temporary file is written and renamed.
    const upTo = Math.round(typicalMs * 1.5)
    const delays = [
      ...Array.from({ length: 20 }, (_, k) => Math.round((k * upTo) / 19)),
      ...Array.from({ length: 10 }, (_, k) => Math.round(typicalMs * (0.75 + (k * 0.35) / 9))),
    ].sort((a, b) => a - b)
    const outcomes = []
    for (const delay of delays) {
      resetChunk(install)
      const before = new Set(strayFiles(install))
      const { child, done } = start(['patch', install.pkg])
      const timer = setTimeout(() => child.kill('SIGKILL'), delay)
      const result = await done
      clearTimeout(timer)
      const state = stateOf(install)
      const newStrays = strayFiles(install).filter((name) => !before.has(name))
      outcomes.push({ delay, killed: result.signal === 'SIGKILL', code: result.code, state, newStrays })
      expect({ delay, state }).toEqual({ delay, state: expect.stringMatching(/^(original|patched)$/) })
      if (result.signal !== 'SIGKILL') {
        // A run that finishes says nothing but the removal of an earlier killed run's leftovers.
        const removals = [...before].map(
          (name) => `removed ${path.join(install.dist, name)}, left by an interrupted run`,
        )
        const said = result.stderr.split('\n').filter((line) => line && !removals.includes(line))
        expect({ delay, code: result.code, said }).toEqual({ delay, code: 0, said: [] })
      }
      for (const name of newStrays) {
        expect(name).toMatch(TEMP_NAME)
        expect(name.endsWith('.js')).toBe(false)
      }
    }
    const leftovers = strayFiles(install)
    const count = (pred) => outcomes.filter(pred).length
    console.log(
      `SIGKILL at delays 0..${upTo} ms (a clean run takes ~${typicalMs} ms): ` +
        `${count((o) => o.killed && o.state === 'original')} killed -> original, ` +
        `${count((o) => o.killed && o.state === 'patched')} killed -> patched, ` +
        `${count((o) => !o.killed)} finished before the kill (patched); ` +
        `temp files left: ${leftovers.length}; per run: ${outcomes.map((o) => `${o.delay}ms:${o.killed ? 'K' : 'done'}:${o.state[0]}${o.newStrays.length ? '+tmp' : ''}`).join(' ')}`,
    )
    expect(count((o) => o.state === 'original')).toBeGreaterThan(0)

    // The next run (from the original bytes, with any leftovers present) works.
    resetChunk(install)
    const next = cliSync(['patch', install.pkg])
    // and says so, one line per file it removes
    const removed = leftovers
      .map((name) => `removed ${path.join(fs.realpathSync(install.dist), name)}, left by an interrupted run\n`)
      .join('')
    expect(next).toEqual(expect.objectContaining({ code: 0, stderr: removed }))
    expect(stateOf(install)).toBe('patched')
    expect(cliSync(['patch', install.pkg, '--check']).code).toBe(0)
    expectDelegates(install)
    // Leftover temp files (if any) are ignored, not imported: the only .js files are OpenClaw's.
    expect(
      fs
        .readdirSync(install.dist)
        .filter((name) => name.endsWith('.js'))
        .sort(),
    ).toEqual(DIST_FILES)
  }, 60000)

  test('the moment its temporary file appears: the chunk is untouched; the leftover temp file is inert and the next run still patches', async () => {
    const install = fakeInstall(parent)
    const outcomes = []
    for (let k = 0; k < 6; k++) {
      resetChunk(install)
      const before = new Set(strayFiles(install))
      const { child, done } = start(['patch', install.pkg])
      const started = Date.now()
      let killedAt = null
      const watcher = fs.watch(install.dist, (_event, name) => {
        if (killedAt === null && name && name.endsWith('.tmp') && !before.has(name)) {
          killedAt = Date.now() - started
          child.kill('SIGKILL')
        }
      })
      const result = await done
      watcher.close()
      const state = stateOf(install)
      const newStrays = strayFiles(install).filter((name) => !before.has(name))
      outcomes.push({ killedAt, killed: result.signal === 'SIGKILL', state, newStrays })
      expect(state).toMatch(/^(original|patched)$/)
      for (const name of newStrays) {
        expect(name).toMatch(TEMP_NAME)
        const size = fs.statSync(path.join(install.dist, name)).size
        // A partial copy, at most the patched chunk's size: never picked up as a chunk.
        expect(size).toBeLessThanOrEqual(CHUNK_TEXT.length * 2)
      }
    }
    const leftovers = strayFiles(install)
    console.log(
      `SIGKILL on the temp file's creation: ${outcomes.map((o) => `${o.killedAt ?? '-'}ms:${o.killed ? 'K' : 'done'}:${o.state}`).join(' ')}; ` +
        `${leftovers.length} temp files left in dist/ (${leftovers.slice(0, 2).join(', ')}${leftovers.length > 2 ? ', …' : ''}); the next run removes them`,
    )
    // Each run removes the temp files of killed runs before it: at most the last kill's is left.
    expect(leftovers.length).toBeLessThanOrEqual(1)
    const next = cliSync(['patch', install.pkg])
    // and says so, one line per file it removes
    const removed = leftovers
      .map((name) => `removed ${path.join(fs.realpathSync(install.dist), name)}, left by an interrupted run\n`)
      .join('')
    expect(next).toEqual(expect.objectContaining({ code: 0, stderr: removed }))
    expect(strayFiles(install)).toEqual([])
    expect(stateOf(install)).toBe('patched')
    expect(cliSync(['patch', install.pkg, '--check']).code).toBe(0)
    expect(
      fs
        .readdirSync(install.dist)
        .filter((name) => name.endsWith('.js'))
        .sort(),
    ).toEqual(DIST_FILES)
    const revert = cliSync(['patch', install.pkg, '--revert'])
    expect(revert.code).toBe(0)
    expect(stateOf(install)).toBe('original')
  }, 40000)
})

test('--revert killed at 12 moments: the chunk is the patched or the original bytes, and a new --revert restores the original', async () => {
  const install = fakeInstall(parent)
  const outcomes = []
  for (let k = 0; k < 12; k++) {
    resetChunk(install)
    expect(cliSync(['patch', install.pkg]).code).toBe(0)
    const delay = Math.round((k * typicalMs) / 11)
    const { child, done } = start(['patch', install.pkg, '--revert'])
    const timer = setTimeout(() => child.kill('SIGKILL'), delay)
    const result = await done
    clearTimeout(timer)
    const state = stateOf(install)
    outcomes.push(`${delay}ms:${result.signal === 'SIGKILL' ? 'K' : 'done'}:${state[0]}`)
    expect({ delay, state }).toEqual({ delay, state: expect.stringMatching(/^(original|patched)$/) })
    for (const name of strayFiles(install)) expect(name).toMatch(TEMP_NAME)
    const again = cliSync(['patch', install.pkg, '--revert'])
    expect(again.code).toBe(0)
    expect(stateOf(install)).toBe('original')
  }
  console.log(`--revert killed: ${outcomes.join(' ')}`)
}, 60000) // ~4 s natively, 23 s under Wine alone, more with the machine loaded

describe('a dist the user may not write (root-owned, run as uid 65534)', () => {
  // Windows' read-only chunk: __test__/cli.test.js.
  otherUidTest('the read-only dist case')(
    'patch and --revert exit 1 with a one-line reason; the chunk is unchanged; --check still works',
    () => {
      const install = fakeInstall(parent)
      expect(fs.statSync(install.dist).uid).toBe(0)
      const nobody = { uid: 65534, gid: 65534 }

      const patch = cliSync(['patch', install.pkg], nobody)
      expect(patch.code).toBe(1)
      expect(patch.stderr.trim().split('\n')).toHaveLength(1)
      expect(patch.stderr).toMatch(
        /cannot write .*compact-Fault123\.js \((EACCES|EPERM)\).*read-only.*nothing was changed/,
      )
      expect(stateOf(install)).toBe('original')
      expect(strayFiles(install)).toEqual([])

      // Patched by root; the unprivileged user can check it but not revert it.
      expect(cliSync(['patch', install.pkg]).code).toBe(0)
      const check = cliSync(['patch', install.pkg, '--check'], nobody)
      expect(check).toEqual(expect.objectContaining({ code: 0 }))
      const revert = cliSync(['patch', install.pkg, '--revert'], nobody)
      expect(revert.code).toBe(1)
      expect(revert.stderr.trim().split('\n')).toHaveLength(1)
      expect(revert.stderr).toMatch(/cannot write .*\((EACCES|EPERM)\)/)
      expect(stateOf(install)).toBe('patched')
      expect(strayFiles(install)).toEqual([])
    },
    30000,
  )
})

describe('runs at once', () => {
  test('2 and then 5 (under Wine 2 again) concurrent patch runs, many times: exactly the patched bytes; --check 0; it delegates; --revert restores the original', async () => {
    const install = fakeInstall(parent)
    // Under Wine, 2 at a time: Wine failed to start one of 5 child processes started at once
    // (spawn UNKNOWN, before any of our code ran) in one CI run of many.
    const most = underWine ? 2 : 5
    const rounds = [2, 2, 2, most, most, most]
    const summary = []
    for (const n of rounds) {
      resetChunk(install)
      const results = await Promise.all(Array.from({ length: n }, () => start(['patch', install.pkg]).done))
      const codes = results.map((r) => r.code)
      const said = results.map((r) =>
        r.stdout.startsWith('already patched')
          ? 'already'
          : r.stdout.startsWith('patched')
            ? 'patched'
            : r.stdout.split(':')[0] || r.stderr.split('\n')[0],
      )
      summary.push(`${n}x: ${said.join('/')}`)
      expect({ n, codes, stderr: results.map((r) => r.stderr) }).toEqual({
        n,
        codes: Array(n).fill(0),
        stderr: Array(n).fill(''),
      })
      expect(stateOf(install)).toBe('patched')
      expect(strayFiles(install)).toEqual([])
      const check = cliSync(['patch', install.pkg, '--check'])
      expect(check).toEqual(expect.objectContaining({ code: 0, stderr: '' }))
      expectDelegates(install)
      const revert = cliSync(['patch', install.pkg, '--revert'])
      expect(revert.code).toBe(0)
      expect(fs.readFileSync(install.chunk).equals(Buffer.from(CHUNK_TEXT))).toBe(true)
    }
    console.log(`concurrent patch runs: ${summary.join('; ')}`)
  }, 60000)

  test('patch and --revert at once: the chunk ends as the original or the patched bytes, never a mix', async () => {
    const install = fakeInstall(parent)
    const finals = { original: 0, patched: 0 }
    const plan = []
    for (let round = 0; round < 10; round++) {
      const startPatched = round % 2 === 1
      const pairs = 1 + (round % 3)
      resetChunk(install)
      if (startPatched) expect(cliSync(['patch', install.pkg]).code).toBe(0)
      const runs = []
      for (let i = 0; i < pairs; i++) {
        runs.push(start(['patch', install.pkg]).done)
        // A small stagger so that either may read first.
        await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 40)))
        runs.push(start(['patch', install.pkg, '--revert']).done)
      }
      const results = await Promise.all(runs)
      const state = stateOf(install)
      finals[state] = (finals[state] || 0) + 1
      plan.push(`${startPatched ? 'P' : 'O'}${pairs}->${state[0]}`)
      expect(results.map((r) => r.code)).toEqual(Array(results.length).fill(0))
      expect(state).toMatch(/^(original|patched)$/)
      expect(strayFiles(install)).toEqual([])
      if (round >= 8) {
        // --check agrees with the bytes, and a patched chunk delegates.
        const check = cliSync(['patch', install.pkg, '--check'])
        expect(check.code).toBe(state === 'patched' ? 0 : 1)
        if (state === 'patched') expectDelegates(install)
      }
    }
    console.log(
      `patch + --revert at once (start state, pairs -> end state): ${plan.join(' ')}; ends: ${JSON.stringify(finals)}`,
    )
  }, 60000)
})
