'use strict'
// `openclaw-context patch` on real OpenClaw installs, one of each text of the buggy
// function: 2026.7.2-beta.4 (text B, from scripts/setup-oracle.sh) and 2026.6.35 (text A,
// `.slice`, from scripts/setup-releases.js), driving the real compaction-safeguard handler
// (handler.mjs, under Node 22) before, with and after the patch. Each install is a
// hard-link copy (`cp -al`) of the cached one: fast, no extra space, and the patch's
// rename must leave the cache's chunk as is.
const { spawnSync } = require('node:child_process')
const crypto = require('node:crypto')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const distScan = require('../../lib/dist-scan.js')

const { NODE22, OPENCLAW_DIR, OPENCLAW_OLD_DIR } = process.env
const ROOT = path.resolve(__dirname, '..', '..')
const CLI = path.join(ROOT, 'cli', 'openclaw-context.js')
const HANDLER = path.join(__dirname, 'handler.mjs')
const { REQUIRED_SECTIONS: HEADINGS } = require('../../dev/shapes.js')
const CHUNK_MARKER = '\nfunction capCompactionSummaryPreservingSuffix('

const sha = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')

function findChunk(openclawDir) {
  const chunk = distScan.findChunk(openclawDir, CHUNK_MARKER)
  if (!chunk)
    throw new Error(`no chunk in ${path.join(openclawDir, 'dist')} defines capCompactionSummaryPreservingSuffix`)
  return chunk
}

function cli(args, options = {}) {
  const result = spawnSync(options.node || process.execPath, [options.cli || CLI, ...args], {
    encoding: 'utf8',
    timeout: 120000,
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

/** One real compaction in a fresh Node 22 (the chunk is cached per process). */
function compact(openclawDir) {
  const result = spawnSync(NODE22, [HANDLER, openclawDir], {
    encoding: 'utf8',
    timeout: 300000,
    maxBuffer: 64 * 1024 * 1024,
  })
  if (result.status !== 0) throw new Error(`handler.mjs failed (${result.status}): ${result.stderr}`)
  return JSON.parse(result.stdout.trim().split('\n').pop())
}

/** A folder on the same file system as `near` (hard links need one). */
function tempDirNear(near, prefix) {
  const tmp = os.tmpdir()
  const base = fs.statSync(tmp).dev === fs.statSync(near).dev ? tmp : path.dirname(near)
  return fs.mkdtempSync(path.join(base, prefix))
}

const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

// `dir`: the cached install's package folder (an env var set by npm test's setup scripts).
const INSTALLS = [
  { version: '2026.7.2-beta.4', text: 'B', env: 'OPENCLAW_DIR', dir: OPENCLAW_DIR, chunk: /^selection-[\w-]+\.js$/ },
  {
    version: '2026.6.35',
    text: 'A',
    env: 'OPENCLAW_OLD_DIR',
    dir: OPENCLAW_OLD_DIR,
    chunk: /^attempt\.model-diagnostic-events-[\w-]+\.js$/,
  },
]

describe.each(INSTALLS)(
  'openclaw-context patch on the real OpenClaw $version (text $text)',
  ({ version, env, dir: installDir, chunk: CHUNK_NAME }) => {
    let work
    let openclawDir
    let chunk
    let cacheChunk
    let cacheSha
    let originalSha

    beforeAll(() => {
      if (!NODE22 || !installDir)
        throw new Error(
          `NODE22 and ${env} must be set: run \`npm test\` (it runs scripts/setup-oracle.sh and scripts/setup-releases.js)`,
        )
      const installRoot = path.resolve(installDir, '..', '..')
      if (path.basename(path.dirname(installDir)) !== 'node_modules')
        throw new Error(`${installDir} is not inside a node_modules folder`)
      cacheChunk = findChunk(installDir)
      cacheSha = sha(cacheChunk)

      work = tempDirNear(installRoot, 'occn-patch-e2e-')
      const copy = spawnSync('cp', ['-al', installRoot, path.join(work, 'install')], { encoding: 'utf8' })
      if (copy.status !== 0) throw new Error(`cp -al failed: ${copy.stderr}`)
      openclawDir = path.join(work, 'install', 'node_modules', 'openclaw')
      fs.symlinkSync(ROOT, path.join(work, 'install', 'node_modules', 'openclaw-context-native'), 'dir')
      chunk = path.join(openclawDir, 'dist', path.basename(cacheChunk))
      expect(path.basename(chunk)).toMatch(CHUNK_NAME)
      originalSha = sha(chunk)
      expect(originalSha).toBe(cacheSha)
      expect(fs.statSync(chunk).ino).toBe(fs.statSync(cacheChunk).ino) // a hard link, for now
    })

    afterAll(() => {
      if (work) fs.rmSync(work, { recursive: true, force: true })
    })

    test('unpatched: the stored summary has none of the five headings', () => {
      const report = compact(openclawDir)
      expect(report.cancelled).toBe(false)
      expect(report.length).toBe(16000)
      expect(report.headings).toEqual([])
      if (report.missingSections !== null) expect(report.missingSections).toHaveLength(5) // where the release has auditSummaryQuality
    })

    test('patch: exit 0; the copy is patched, the hard-linked cache chunk keeps its bytes', () => {
      const { code, stdout, stderr } = cli(['patch', openclawDir])
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' })
      expect(stdout).toMatch(
        new RegExp(
          `^patched: ${escape(path.join('dist', path.basename(chunk)))} \\(openclaw ${escape(version)}\\)`,
          'm',
        ),
      )
      expect(sha(chunk)).not.toBe(originalSha)
      expect(sha(cacheChunk)).toBe(cacheSha)
      expect(fs.statSync(chunk).ino).not.toBe(fs.statSync(cacheChunk).ino)
      expect(fs.readdirSync(path.dirname(chunk)).filter((n) => n.endsWith('.tmp'))).toEqual([])
    })

    test('patched: the summary keeps all five headings within 16000 (and passes auditSummaryQuality where the release has it)', () => {
      const report = compact(openclawDir)
      expect(report.cancelled).toBe(false)
      expect(report.length).toBeLessThanOrEqual(16000)
      expect(report.headings).toEqual(HEADINGS)
      if (report.missingSections !== null) expect(report.missingSections).toEqual([])
      expect(report.startsWith).toMatch(/^The session migrated the billing gateway/)
      expect(report.keepsToolFailures).toBe(true)
      expect(report.llmCalls).toBe(0)
    })

    test('a second patch changes nothing; --check exits 0 (under Node 20 and Node 22)', () => {
      const before = sha(chunk)
      const again = cli(['patch', openclawDir])
      expect(again.code).toBe(0)
      expect(again.stdout).toMatch(/already patched/)
      expect(sha(chunk)).toBe(before)
      for (const node of [process.execPath, NODE22]) {
        const check = cli(['patch', openclawDir, '--check'], { node })
        expect({ code: check.code, stderr: check.stderr }).toEqual({ code: 0, stderr: '' })
        expect(check.stdout).toMatch(/^patched: .*the addon loads from /m)
      }
    })

    test('a package planted after patch in a node_modules the dist resolves names from is never loaded: the compaction uses the file patch checked', () => {
      // The by-name link gone (as for an install patched from a global copy), and a package
      // planted where Node's resolution by name from the dist would find it, above the install.
      const link = path.join(work, 'install', 'node_modules', 'openclaw-context-native')
      fs.unlinkSync(link)
      const planted = path.join(work, 'node_modules', 'openclaw-context-native')
      const loaded = path.join(work, 'LOADED')
      fs.mkdirSync(planted, { recursive: true })
      fs.writeFileSync(
        path.join(planted, 'package.json'),
        JSON.stringify({ name: 'openclaw-context-native', main: 'index.js' }),
      )
      fs.writeFileSync(
        path.join(planted, 'index.js'),
        `require('node:fs').writeFileSync(${JSON.stringify(loaded)}, 'pwned'); module.exports = { capCompactionSummaryPreservingSuffix: () => 'planted' }`,
      )
      try {
        const report = compact(openclawDir)
        expect(report.cancelled).toBe(false)
        expect(report.headings).toEqual(HEADINGS)
        const check = cli(['patch', openclawDir, '--check'])
        expect({ code: check.code, stderr: check.stderr }).toEqual({ code: 0, stderr: '' })
        expect(fs.existsSync(loaded)).toBe(false)
      } finally {
        fs.rmSync(path.join(work, 'node_modules'), { recursive: true, force: true })
        fs.symlinkSync(ROOT, link, 'dir')
      }
    })

    test('--revert restores the original bytes; --check then exits 1', () => {
      const { code, stdout } = cli(['patch', openclawDir, '--revert'])
      expect(code).toBe(0)
      expect(stdout).toMatch(/reverted: .*byte for byte/)
      expect(sha(chunk)).toBe(originalSha)
      const check = cli(['patch', openclawDir, '--check'])
      expect(check.code).toBe(1)
      expect(check.stderr).toMatch(/^not patched: /)
      expect(compact(openclawDir).headings).toEqual([])
    })

    test('the addon gone at run time: the gateway still loads the chunk, and the safeguard cancels that compaction', () => {
      // Patch from a throw-away copy of this package (the path then written into the chunk)
      // with no by-name link, then delete both, as when an npx cache is cleaned.
      const pkg = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-patch-e2e-pkg-'))
      try {
        for (const name of ['package.json', 'index.js', ...fs.readdirSync(ROOT).filter((n) => n.endsWith('.node'))]) {
          fs.copyFileSync(path.join(ROOT, name), path.join(pkg, name))
        }
        for (const name of ['cli', 'lib']) fs.cpSync(path.join(ROOT, name), path.join(pkg, name), { recursive: true })
        fs.unlinkSync(path.join(work, 'install', 'node_modules', 'openclaw-context-native'))
        const patched = cli(['patch', openclawDir], { cli: path.join(pkg, 'cli', 'openclaw-context.js') })
        expect(patched.code).toBe(0)
      } finally {
        fs.rmSync(pkg, { recursive: true, force: true })
      }

      const report = compact(openclawDir)
      expect(report.cancelled).toBe(true)
      expect(report.summary).toBeUndefined()
      expect(report.cancelReason).toMatch(
        /openclaw-context-native could not be loaded from .*occn-patch-e2e-pkg-.*index\.js .*run `openclaw-context patch` again .*openclaw-context patch --revert/,
      )
      // OpenClaw first catches the provider path's error and retries through its LLM path
      // (the stub here; a real model request on a gateway), which fails the same way. Without
      // a `testing` API (2026.6.35) that path cannot be stubbed; it fails before any request.
      if (report.testingApi) expect(report.llmCalls).toBeGreaterThanOrEqual(1)

      const check = cli(['patch', openclawDir, '--check'])
      expect(check.code).toBe(1)
      expect(check.stderr).toMatch(/^patched, but openclaw-context-native does not load from /)
      expect(cli(['patch', openclawDir, '--revert']).code).toBe(0)
      expect(sha(chunk)).toBe(originalSha)
      expect(sha(cacheChunk)).toBe(cacheSha)
    })
  },
)
