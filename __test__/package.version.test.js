// One version: the root package, its lock and every npm/<platform> package agree, and `npm
// version` keeps them so (scripts/version.js). The root's optionalDependencies are left to the
// release's `napi prepublish`: neither package.json nor the lock pins an unpublished version.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { underWine, testUnless } = require('./fixtures/platform.js')

const root = path.join(__dirname, '..')

test('the nine packages carry one version', () => {
  const { versions } = require('../scripts/version.js')
  const { version, found } = versions()
  expect(found.length).toBe(2 + fs.readdirSync(path.join(root, 'npm')).length)
  expect(found.filter(([, , value]) => value !== version)).toEqual([])
})

test('package.json and the lock pin no platform package (napi prepublish adds them; npm ci can install the lock)', () => {
  const { pinned } = require('../scripts/version.js')
  expect(pinned()).toEqual([])
  // npm ci's own rule: the lock's root entry declares what package.json declares, and holds each of it.
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'package-lock.json'), 'utf8'))
  for (const field of ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'])
    expect([field, lock.packages[''][field]]).toEqual([field, pkg[field]])
  const missing = Object.keys(pkg.devDependencies).filter((name) => !lock.packages[`node_modules/${name}`])
  expect(missing).toEqual([])
})

testUnless(underWine, 'under Wine: the Windows Node package brings no npm')(
  'npm version bumps every package together, and adds no pin',
  () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-version-'))
    try {
      for (const file of ['package.json', 'package-lock.json', 'npm', 'scripts/version.js']) {
        fs.cpSync(path.join(root, file), path.join(dir, file), { recursive: true })
      }
      const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
      const run = spawnSync(npm, ['version', '9.8.7', '--no-git-tag-version', '--ignore-scripts=false'], {
        cwd: dir,
        encoding: 'utf8',
        shell: process.platform === 'win32',
        // The copy finds the dev tools (napi) in this checkout's node_modules (no link: Wine
        // cannot make one from its C: drive to Z:).
        env: { ...process.env, NODE_PATH: path.join(root, 'node_modules') },
      })
      expect(run.stderr).not.toMatch(/disagree|not 9\.8\.7/)
      expect(run.status).toBe(0)
      const check = spawnSync(process.execPath, [path.join(dir, 'scripts/version.js'), '--check'], {
        cwd: dir,
        encoding: 'utf8',
      })
      expect(check.stderr).toBe('')
      expect(check.status).toBe(0)
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'npm/linux-x64-gnu/package.json'), 'utf8')).version).toBe(
        '9.8.7',
      )
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'npm/win32-x64-msvc/package.json'), 'utf8')).version).toBe(
        '9.8.7',
      )
      expect(JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).optionalDependencies).toBeUndefined()
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  },
)
