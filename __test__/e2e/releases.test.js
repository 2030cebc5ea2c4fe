'use strict'
// The release matrix: `openclaw-context patch` on one real OpenClaw release of each kind
// (scripts/openclaw-releases.json; their dist-only tarballs unpacked by
// scripts/setup-releases.js), each run through --dry-run, patch, --check, patch again and
// --revert on a hard-linked copy: the outcome and message right, the patched chunk parses
// (`node --check`), the revert byte-identical, the cache's files untouched. The copy is
// what `npm install openclaw-context-native` next to OpenClaw makes: node_modules/openclaw
// and node_modules/openclaw-context-native (a link to this package).
const { spawnSync } = require('node:child_process')
const crypto = require('node:crypto')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const { compactionStatus } = require('../../lib/compaction-status')
const { releases } = require('../../scripts/openclaw-releases.json')

const { RELEASES_DIR } = process.env
const ROOT = path.resolve(__dirname, '..', '..')
const CLI = path.join(ROOT, 'cli', 'openclaw-context.js')

// What each kind of release must get. `chunk`: the chunk's name (a content hash follows).
const EXPECTED = {
  '2026.3.13': {
    state: 'not-yet',
    says: 'has no capCompactionSummaryPreservingSuffix yet (it first appears in 2026.3.22)',
  },
  '2026.4.1': { state: 'buggy', text: 'A', chunk: /^pi-embedded-[\w-]+\.js$/ },
  '2026.6.35': { state: 'buggy', text: 'A', chunk: /^attempt\.model-diagnostic-events-[\w-]+\.js$/ },
  '2026.7.2-beta.4': { state: 'buggy', text: 'B', chunk: /^selection-[\w-]+\.js$/ },
  '2026.7.35': { state: 'buggy', text: 'B', chunk: /^attempt\.model-diagnostic-events-[\w-]+\.js$/ },
  '2026.8.1-beta.1': { state: 'buggy', text: 'B', chunk: /^builtin-openclaw-[\w-]+\.js$/ },
  '2026.8.1-beta.2': { state: 'upstream-wrapper', text: 'upstream-fix', chunk: /^builtin-openclaw-[\w-]+\.js$/ },
  '2026.9.6': {
    state: 'fixed-upstream',
    says: 'has no capCompactionSummaryPreservingSuffix: fixed upstream (budgetCompactionSummary replaced it)',
  },
}

const sha = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

function cli(args) {
  const started = Date.now()
  const result = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120000 })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, ms: Date.now() - started }
}

/** Every file of the package copy, by name: its sha256. */
function fingerprint(pkg) {
  const out = { 'package.json': sha(path.join(pkg, 'package.json')) }
  for (const name of fs.readdirSync(path.join(pkg, 'dist')).sort())
    out[`dist/${name}`] = sha(path.join(pkg, 'dist', name))
  return out
}

/** A hard-linked copy of a cached release as <tmp>/node_modules/openclaw, with the addon beside it. */
function installCopy(release, work) {
  const source = path.join(RELEASES_DIR, release)
  const root = fs.mkdtempSync(path.join(work, `${release}-`))
  const pkg = path.join(root, 'node_modules', 'openclaw')
  fs.mkdirSync(path.join(pkg, 'dist'), { recursive: true })
  const link = (from, to) => {
    try {
      fs.linkSync(from, to)
    } catch {
      fs.copyFileSync(from, to)
    }
  }
  link(path.join(source, 'package.json'), path.join(pkg, 'package.json'))
  for (const name of fs.readdirSync(path.join(source, 'dist')))
    link(path.join(source, 'dist', name), path.join(pkg, 'dist', name))
  fs.symlinkSync(ROOT, path.join(root, 'node_modules', 'openclaw-context-native'), 'dir')
  return { source, pkg: fs.realpathSync(pkg) }
}

/** A folder on the cache's file system (hard links need one). */
function workDir() {
  const tmp = os.tmpdir()
  const base = fs.statSync(tmp).dev === fs.statSync(RELEASES_DIR).dev ? tmp : path.dirname(RELEASES_DIR)
  return fs.mkdtempSync(path.join(base, 'occn-releases-'))
}

const results = []
let work
beforeAll(() => {
  if (!RELEASES_DIR) throw new Error('RELEASES_DIR must be set: run `npm test` (it runs scripts/setup-releases.js)')
  work = workDir()
})
afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true })
  if (results.length === 0) return
  const row = (r) =>
    `${r.version.padEnd(16)} ${r.state.padEnd(17)} exits ${r.codes.join('/')}  revert identical: ${r.revertIdentical}  ${r.ms} ms  ${r.said}`
  console.log(
    [
      'release matrix (version, state, exits of dry-run/patch/--check/patch/--revert, time of the five runs, first line of patch):',
      ...results.map(row),
    ].join('\n'),
  )
})

test('the matrix has one release of each kind, and the data file pins each tarball', () => {
  expect(releases.map((r) => r.version)).toEqual(Object.keys(EXPECTED))
  for (const release of releases) expect(release.integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/)
})

describe.each(releases.map((r) => [r.version, r.kind]))('openclaw %s (%s)', (version) => {
  const expected = EXPECTED[version]

  test(
    expected.state === 'buggy'
      ? 'dry-run, patch, --check, patch again, --revert: patched, parses, delegates, reverted byte for byte'
      : 'every mode says why it needs nothing, exit 0, nothing written',
    () => {
      const { source, pkg } = installCopy(version, work)
      const before = fingerprint(pkg)
      const cacheBefore = fingerprint(source)

      const status = compactionStatus(pkg)
      expect(status.state).toBe(expected.state)
      expect(status.version).toBe(version)
      const where = `openclaw ${version} at ${pkg}`
      const runs = []
      const step = (args) => {
        const result = cli(['patch', pkg, ...args])
        runs.push(result)
        return result
      }

      if (expected.state !== 'buggy') {
        if (expected.chunk) expect(path.basename(status.chunk)).toMatch(expected.chunk)
        for (const [args, verb] of [
          [['--dry-run'], 'patch'],
          [[], 'patch'],
          [['--check'], 'patch'],
          [[], 'patch'],
          [['--revert'], 'revert'],
        ]) {
          const { code, stdout, stderr } = step(args)
          expect({ args, code, stderr }).toEqual({ args, code: 0, stderr: '' })
          if (expected.says) {
            expect(stdout).toBe(`${where} ${expected.says}; nothing to ${verb}.\n`)
          } else if (verb === 'revert') {
            expect(stdout).toMatch(/^not patched: .* is OpenClaw's original; nothing to revert\.\n$/)
          } else {
            expect(stdout).toBe(
              `${where}: ${path.join('dist', path.basename(status.chunk))}'s capCompactionSummaryPreservingSuffix wraps budgetCompactionSummary, the upstream fix: nothing to patch.\n`,
            )
          }
        }
        expect(fingerprint(pkg)).toEqual(before)
        results.push({
          version,
          state: status.state,
          codes: runs.map((r) => r.code),
          revertIdentical: 'n/a (never written)',
          ms: runs.reduce((t, r) => t + r.ms, 0),
          said: runs[1].stdout.trim(),
        })
        return
      }

      expect(status.chunks.map((c) => c.text)).toEqual([expected.text])
      const chunk = status.chunk
      const name = path.join('dist', path.basename(chunk))
      expect(path.basename(chunk)).toMatch(expected.chunk)

      const dry = step(['--dry-run'])
      expect({ code: dry.code, stderr: dry.stderr }).toEqual({ code: 0, stderr: '' })
      expect(dry.stdout).toContain(`--- a/dist/${path.basename(chunk)}`)
      expect(dry.stdout).toMatch(
        /^\+\treturn __occnNative\(\)\.capCompactionSummaryPreservingSuffix\(summaryBody, suffix, maxChars\);$/m,
      )
      expect(dry.stdout).toMatch(new RegExp(`^dry run: ${escape(name)} would be patched; nothing was written\\.$`, 'm'))
      expect(fingerprint(pkg)).toEqual(before)

      // No note on stderr: the function's text is one of the two released ones.
      const patched = step([])
      expect({ code: patched.code, stderr: patched.stderr }).toEqual({ code: 0, stderr: '' })
      expect(patched.stdout).toMatch(
        new RegExp(
          `^patched: ${escape(name)} \\(openclaw ${escape(version)}\\); capCompactionSummaryPreservingSuffix now delegates to openclaw-context-native [^ ]+, loaded from .* and from nowhere else \\(found by name from the dist\\)`,
        ),
      )
      const after = fingerprint(pkg)
      const changed = Object.keys(before).filter((file) => before[file] !== after[file])
      expect(changed).toEqual([`dist/${path.basename(chunk)}`])
      const parse = spawnSync(process.execPath, ['--check', chunk], { encoding: 'utf8' })
      expect({ status: parse.status, stderr: parse.stderr }).toEqual({ status: 0, stderr: '' })

      const check = step(['--check'])
      expect({ code: check.code, stderr: check.stderr }).toEqual({ code: 0, stderr: '' })
      expect(check.stdout).toMatch(
        new RegExp(`^patched: ${escape(name)} \\(openclaw ${escape(version)}\\); the addon loads from `),
      )
      expect(compactionStatus(pkg).state).toBe('patched')

      const again = step([])
      expect({ code: again.code, stderr: again.stderr }).toEqual({ code: 0, stderr: '' })
      expect(again.stdout).toBe(`already patched: ${name} (openclaw ${version}); nothing changed.\n`)
      expect(fingerprint(pkg)).toEqual(after)

      const revert = step(['--revert'])
      expect({ code: revert.code, stderr: revert.stderr }).toEqual({ code: 0, stderr: '' })
      expect(revert.stdout).toMatch(new RegExp(`^reverted: ${escape(name)} restored byte for byte`))
      const reverted = fingerprint(pkg)
      expect(reverted).toEqual(before)
      expect(fingerprint(source)).toEqual(cacheBefore) // the rename left the hard-linked cache alone
      expect(compactionStatus(pkg).state).toBe('buggy')
      results.push({
        version,
        state: status.state,
        codes: runs.map((r) => r.code),
        revertIdentical: true,
        ms: runs.reduce((t, r) => t + r.ms, 0),
        said: patched.stdout.trim().split('\n')[0],
      })
    },
  )
})
