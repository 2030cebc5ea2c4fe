'use strict'
// The README's quoted figures against what the code prints, so that they cannot drift: the
// demo's output block, what a reload sends at the settings' defaults (the manifest's schema is
// what OpenClaw applies), and the demo's own claim about where the real OpenClaw comes from.
// The reload prompt's saving is checked by the test that measures it
// (persistent-chat.scenario.test.js), the settings table by plugin.config.test.js.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const { plan } = require('../scripts/test-plan.js')

const ROOT = path.resolve(__dirname, '..')
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8')
const MANIFEST = require('../openclaw.plugin.json')
const DEFAULTS = MANIFEST.configSchema.properties
/** The README as one line of words (its paragraphs are wrapped anywhere). */
const flat = README.replace(/\s+/g, ' ')

/** The demo's output, from its "Before:" line on, with `env`. */
function demo(env) {
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'demo.js')], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  })
  expect(result.status).toBe(0)
  return result.stdout.slice(result.stdout.indexOf('Before:')).trimEnd().split('\n')
}

/** The README's demo block: the fenced block that starts with "Before:". */
const readmeDemo = () => /```\n(Before:[\s\S]*?)\n```/.exec(README)[1].split('\n')

test('the demo output in the README is what `npm run demo` prints', () => {
  const quoted = readmeDemo()
  expect(quoted[0]).toBe('Before: OpenClaw 2026.7.2-beta.4 (the real dist)')
  // Without the real OpenClaw the demo models its rule and says so; every figure is the same.
  const modelled = demo({ ORACLE_DIR: path.join(ROOT, 'no-oracle-here') })
  expect(modelled[0]).toBe("Before: OpenClaw 2026.7's rule (modelled here; `npm run test:e2e` installs the real one)")
  expect(modelled.slice(1)).toEqual(quoted.slice(1))
})

test("the demo's claim: `npm run test:e2e` installs the real OpenClaw (its oracle step), `npm test` does not", () => {
  const host = { platform: 'linux', arch: 'x64', libc: 'glibc' }
  const steps = (e2e) => plan(host, { e2e }).map((step) => (step.run ?? []).join(' '))
  expect(steps(true)).toContain('bash scripts/setup-oracle.sh')
  expect(steps(false)).not.toContain('bash scripts/setup-oracle.sh')
})

test('a reload, as the README tells it: the recalled entries and the last entries, at their defaults', () => {
  const recalled = /sends the turn metadata, the continuity summary \([^)]*\), up to (\d+) older log entries/.exec(flat)
  expect(Number(recalled?.[1])).toBe(DEFAULTS.reloadRecall.default)
  expect(flat).toContain(`and the last ${DEFAULTS.reloadEntries.default} log entries, then the live turn`)
  expect(flat).toContain(`(at most ${DEFAULTS.continuousEntries.default} entries)`)
})
