// `openclaw-context doctor` names each masking pattern of the config the addon's masker refuses
// (OpenClaw's `logging.redactPatterns`, the plugin's `redactPatterns`), with its reason, as a
// problem; patterns it can use are no problem.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const { writeFakeInstall, FAKE_WRAPPER } = require('./fixtures/fake-openclaw-dist.js')

jest.setTimeout(60000)

const CLI = path.join(__dirname, '..', 'cli', 'openclaw-context.js')
const PLUGIN_ID = 'openclaw-context-native'
let root
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-doctor-mask-'))
})
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

function doctor(config) {
  const install = writeFakeInstall(fs.mkdtempSync(path.join(root, 'install-')), {
    fn: FAKE_WRAPPER,
    version: '2026.9.6',
  })
  const state = fs.mkdtempSync(path.join(root, 'state-'))
  fs.writeFileSync(path.join(state, 'openclaw.json'), JSON.stringify(config))
  const result = spawnSync(process.execPath, [CLI, 'doctor', install.pkg], {
    encoding: 'utf8',
    env: { ...process.env, OPENCLAW_STATE_DIR: state, OPENCLAW_CONFIG_PATH: '' },
  })
  return { code: result.status, err: result.stderr }
}

test('each refused pattern is a problem naming its setting and reason', () => {
  const { code, err } = doctor({
    logging: { redactPatterns: ['INC-\\d{6}', '(?=x)y'] },
    plugins: { entries: { [PLUGIN_ID]: { config: { redactPatterns: ['ACME-\\d+', 'x*'] } } } },
  })
  expect(code).toBe(1)
  expect(err).toMatch(/problem: logging\.redactPatterns\[1\] "\(\?=x\)y" is not used for masking: look-around/)
  expect(err).toContain(
    `problem: plugins.entries.${PLUGIN_ID}.config.redactPatterns[1] "x*" is not used for masking: it matches the empty string`,
  )
  expect(err).not.toContain('INC-')
  expect(err).not.toContain('ACME-')
})

test('usable patterns are no problem', () => {
  const { err } = doctor({
    logging: { redactPatterns: ['INC-\\d{6}'] },
    plugins: { entries: { [PLUGIN_ID]: { config: { redactPatterns: ['/acme-\\d+/i'] } } } },
  })
  expect(err).not.toContain('masking')
})
