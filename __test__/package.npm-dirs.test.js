// The committed npm/<platform> packages are what `napi create-npm-dirs` makes from package.json's
// napi config (the release workflow runs it; `napi prepublish` refuses a package that differs,
// e.g. a WASI package without the exports its loader expects).
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { underWine, testUnless } = require('./fixtures/platform.js')

const root = path.join(__dirname, '..')

testUnless(underWine, "under Wine: the napi CLI's file lock needs a boot id Wine does not give")(
  'npm/<platform>/package.json is what napi create-npm-dirs generates',
  () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-npm-dirs-'))
    try {
      fs.copyFileSync(path.join(root, 'package.json'), path.join(dir, 'package.json'))
      const napi = require.resolve('@napi-rs/cli/package.json', { paths: [root] })
      const cli = path.join(path.dirname(napi), require(napi).bin.napi)
      const result = spawnSync(process.execPath, [cli, 'create-npm-dirs'], { cwd: dir, encoding: 'utf8' })
      if (result.status !== 0) throw new Error(`napi create-npm-dirs failed (${result.status}): ${result.stderr}`)
      const generated = fs.readdirSync(path.join(dir, 'npm')).sort()
      expect(fs.readdirSync(path.join(root, 'npm')).sort()).toEqual(generated)
      for (const platform of generated) {
        const read = (base) => JSON.parse(fs.readFileSync(path.join(base, 'npm', platform, 'package.json'), 'utf8'))
        expect({ platform, manifest: read(root) }).toEqual({ platform, manifest: read(dir) })
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  },
)
