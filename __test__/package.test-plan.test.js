// `npm test` on every host a contributor may use: the host-specific steps are left out with a
// line that says why, and nothing else changes (scripts/test.js --dry-run, with each host's
// platform values).
const { spawnSync } = require('node:child_process')
const path = require('node:path')

const script = path.join(__dirname, '..', 'scripts', 'test.js')
const dryRun = (host, ...args) => {
  const result = spawnSync(process.execPath, [script, '--dry-run', ...args], {
    env: { ...process.env, OCCN_TEST_HOST: host },
    encoding: 'utf8',
  })
  expect(result.status).toBe(0)
  return result.stdout
}

const contributorSteps = [
  'build: node scripts/build.js',
  'cargo tests: cargo test --workspace --quiet',
  'jest specs: node node_modules/jest/bin/jest.js --ci',
]

test('on Linux x64 glibc, npm test checks the glibc symbol versions of the build', () => {
  const out = dryRun('linux-x64-glibc')
  for (const step of contributorSteps) expect(out).toContain(step)
  expect(out).toContain('glibc check: bash scripts/check-glibc.sh openclaw-context-native.linux-x64-gnu.node 2.17')
})

test.each(['linux-x64-musl', 'linux-arm64-glibc', 'linux-arm64-musl', 'darwin-arm64', 'darwin-x64', 'win32-x64'])(
  'on %s, npm test builds and runs the Rust and jest tests, and says why the glibc check is left out',
  (host) => {
    const out = dryRun(host)
    for (const step of contributorSteps) expect(out).toContain(step)
    expect(out).not.toContain('check-glibc.sh')
    expect(out).toMatch(/== glibc check: left out: the glibc 2\.17 check applies to the linux-x64-gnu build only/)
  },
)

test('npm test downloads nothing: the real-OpenClaw setup is test:e2e only', () => {
  expect(dryRun('linux-x64-glibc')).not.toMatch(/setup-oracle|setup-releases|jest\.e2e/)
  const e2e = dryRun('linux-x64-glibc', '--e2e')
  expect(e2e).toMatch(/oracle: bash scripts\/setup-oracle\.sh/)
  expect(e2e).toMatch(/end-to-end specs: .* -c jest\.e2e\.config\.js/)
})

test.each(['darwin-arm64', 'win32-x64', 'linux-arm64-glibc'])(
  'test:e2e on %s says it runs on Linux x64 only',
  (host) => {
    expect(dryRun(host, '--e2e')).toMatch(/== e2e: left out: the real-OpenClaw suites run on Linux x64 only/)
  },
)
