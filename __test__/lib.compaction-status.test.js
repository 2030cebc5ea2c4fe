'use strict'
// lib/compaction-status.js: the state of an install's compaction cap, as `patch --check`
// and the OpenClaw plugin's start-up check read it, on small fake installs of each kind of
// release (the real releases: __test__/e2e/releases.test.js).
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const { compactionStatus } = require('../lib/compaction-status')
const {
  FAKE_FUNCTION,
  FAKE_FUNCTION_A,
  FAKE_WRAPPER,
  fakeChunk,
  writeFakeInstall,
} = require('./fixtures/fake-openclaw-dist.js')

const CLI = path.join(__dirname, '..', 'cli', 'openclaw-context.js')
const temps = []
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true })
})
function fakeInstall(options) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-status-'))
  temps.push(dir)
  return writeFakeInstall(dir, options)
}

describe('compactionStatus', () => {
  test('text B (2026.7.2-beta.4): buggy, with the chunk and a message naming the patch command', () => {
    const install = fakeInstall({ fn: FAKE_FUNCTION })
    const status = compactionStatus(install.pkg)
    expect(status).toEqual({
      state: 'buggy',
      version: '2026.7.2-beta.4',
      chunk: fs.realpathSync(install.chunk),
      chunks: [{ file: fs.realpathSync(install.chunk), state: 'buggy', text: 'B', message: status.message }],
      message: expect.stringContaining(`run \`openclaw-context patch ${fs.realpathSync(install.pkg)}\``),
    })
    expect(status.message).toContain(path.join('dist', 'selection-XYZ.js'))
    expect(status.message.split('\n')).toHaveLength(1)
  })

  test('text A (2026.6.35): buggy too', () => {
    const status = compactionStatus(fakeInstall({ fn: FAKE_FUNCTION_A, version: '2026.6.35' }).pkg)
    expect([status.state, status.chunks[0].text]).toEqual(['buggy', 'A'])
    expect(status.message).toContain('text A')
  })

  test('a .mjs chunk (2026.9.3 on) is read as well', () => {
    const status = compactionStatus(fakeInstall({ fn: FAKE_FUNCTION, chunk: 'builtin-X.mjs', version: '2026.9.3' }).pkg)
    expect(status.state).toBe('buggy')
    expect(path.basename(status.chunk)).toBe('builtin-X.mjs')
  })

  test('the 2026.8.1-beta.2 wrapper over budgetCompactionSummary: upstream-wrapper', () => {
    const status = compactionStatus(fakeInstall({ fn: FAKE_WRAPPER, version: '2026.8.1-beta.2' }).pkg)
    expect([status.state, status.chunks[0].text]).toEqual(['upstream-wrapper', 'upstream-fix'])
    expect(status.message).toMatch(/wraps budgetCompactionSummary, the upstream fix: nothing to patch\.$/)
  })

  test.each([
    [
      '2026.3.13',
      null,
      'not-yet',
      /has no capCompactionSummaryPreservingSuffix yet \(it first appears in 2026\.3\.22\); nothing to patch\.$/,
    ],
    ['2026.3.22-beta.1', null, 'not-yet', /yet/],
    ['2026.8.1-beta.3', null, 'fixed-upstream', /fixed upstream/],
    ['2026.9.6', null, 'fixed-upstream', /fixed upstream \(budgetCompactionSummary replaced it\); nothing to patch\.$/],
    // the text wins over the version: upstream's fix in a release that should have the old function
    [
      '2026.5.2',
      'function budgetCompactionSummary(a, b, c) {\n\treturn { summary: a };\n}',
      'fixed-upstream',
      /fixed upstream/,
    ],
    // neither the function nor the fix where the version says the function should be
    ['2026.5.2', null, 'not-found', /cannot tell whether it needs patching\.$/],
    ['not-a-version', null, 'not-found', /cannot tell/],
  ])('openclaw %s without the function (extra chunk %j): %s', (version, extra, state, message) => {
    const install = fakeInstall({ fn: null, version, extra: extra ? { 'budget-X.mjs': `\n${extra}\n` } : {} })
    const status = compactionStatus(install.pkg)
    expect(status).toEqual({ state, version, chunks: [], message: expect.stringMatching(message) })
    expect(status.message).toContain(`openclaw ${version} at ${fs.realpathSync(install.pkg)}`)
  })

  test('patched by the command: patched; reverted: buggy again', () => {
    const install = fakeInstall()
    const run = (...args) => spawnSync(process.execPath, [CLI, 'patch', install.pkg, ...args], { encoding: 'utf8' })
    expect(run().status).toBe(0)
    expect(compactionStatus(install.pkg)).toEqual(
      expect.objectContaining({ state: 'patched', chunk: fs.realpathSync(install.chunk) }),
    )
    expect(compactionStatus(install.pkg).message).toMatch(
      /is patched: capCompactionSummaryPreservingSuffix delegates to openclaw-context-native\.$/,
    )
    expect(run('--revert').status).toBe(0)
    expect(compactionStatus(install.pkg).state).toBe('buggy')
  })

  test('a function it cannot read (defined twice) still counts as buggy, with the reason', () => {
    const text = fakeChunk(`${FAKE_FUNCTION}\n${FAKE_FUNCTION}`)
    const install = fakeInstall()
    fs.writeFileSync(install.chunk, text)
    const status = compactionStatus(install.pkg)
    expect([status.state, status.chunks[0].text]).toEqual(['buggy', 'other'])
  })

  test('accepts the folder above node_modules and dist/, like the command', () => {
    const install = fakeInstall()
    for (const dir of [install.root, install.dist])
      expect(compactionStatus(dir).chunk).toBe(fs.realpathSync(install.chunk))
  })

  test('not an openclaw package, or no dist/: an Error with a one-line message', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-status-empty-'))
    temps.push(dir)
    expect(() => compactionStatus(dir)).toThrow(/is not an openclaw package/)
    const install = fakeInstall()
    fs.rmSync(install.dist, { recursive: true })
    expect(() => compactionStatus(install.pkg)).toThrow(/^cannot read .*dist: ENOENT$/)
  })
})
