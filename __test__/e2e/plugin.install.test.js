'use strict'
// `openclaw plugins install` of this package as an operator gets it, then `openclaw plugins
// inspect` and `openclaw config validate`, with the real OpenClaw command line of each tested
// release; then a turn through the installed copy. Offline: the package is packed, unpacked
// and given its platform package in node_modules (as npm installs it from
// optionalDependencies), then installed as a folder. (A tarball install resolves the
// platform package from the registry, where an unpublished version is not found.)
const fs = require('node:fs')
const path = require('node:path')

const {
  FAKE_ACPX,
  PLUGIN_ID,
  RELEASES,
  ROOT,
  backendTurns,
  createWorld,
  packedPackage,
  parsePrompt,
  removeWorld,
  runGateway,
  spawnInWorld,
} = require('./plugin-harness')

const BINARY = 'openclaw-context-native.linux-x64-gnu.node'
const CHAT = 'agent:codex:acp:installed-chat'

describe.each(RELEASES)('OpenClaw $name', (release) => {
  let world
  let packageDir

  /** The openclaw command line, in the scratch home. */
  function openclaw(args) {
    const result = spawnInWorld(world, [path.join(release.openclawDir, 'openclaw.mjs'), ...args])
    return { code: result.status, stdout: result.stdout, stderr: result.stderr }
  }

  beforeAll(() => {
    world = createWorld(`install-${release.name}`, release)
    packageDir = packedPackage(path.join(world.dir, 'to-install'))
  })

  afterAll(() => removeWorld(world))

  test('the packed package holds the plugin: manifest, ESM folder, the openclaw field, an optional peer', () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'))
    expect(manifest.openclaw.extensions).toEqual(['./plugin/index.mjs'])
    expect(manifest.peerDependenciesMeta.openclaw.optional).toBe(true)
    expect(fs.existsSync(path.join(packageDir, 'openclaw.plugin.json'))).toBe(true)
    expect(fs.existsSync(path.join(packageDir, 'plugin', 'index.mjs'))).toBe(true)
    expect(fs.existsSync(path.join(packageDir, BINARY))).toBe(false) // it comes from the platform package
  })

  test('`openclaw plugins install <folder>` installs it; `openclaw plugins inspect` shows it loaded', () => {
    let install = openclaw(['plugins', 'install', packageDir, '--force'])
    // From 2026.8 a third-party plugin's declared hooks need the operator's consent first.
    const consent = /requires capability consent/.test(install.stderr + install.stdout)
    expect(consent).toBe(!release.name.startsWith('2026.7.'))
    if (consent) install = openclaw(['plugins', 'install', packageDir, '--force', '--accept-capabilities'])
    expect(install.stderr + install.stdout).toMatch(/Installed plugin: openclaw-context-native/)
    expect(install.code).toBe(0)
    const installed = path.join(world.stateDir, 'extensions', PLUGIN_ID)
    expect(fs.existsSync(path.join(installed, 'openclaw.plugin.json'))).toBe(true)

    const inspect = openclaw(['plugins', 'inspect', PLUGIN_ID, '--runtime', '--json'])
    expect(inspect.code).toBe(0)
    const report = JSON.parse(inspect.stdout)
    expect(report.plugin).toEqual(
      expect.objectContaining({ id: PLUGIN_ID, status: 'loaded', rootDir: installed, source: path.join(installed, 'plugin', 'index.mjs') }),
    )
    expect(report.typedHooks).toEqual(
      expect.arrayContaining([
        { name: 'reply_dispatch', priority: 100 },
        { name: 'before_message_write', priority: 100 },
      ]),
    )
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'openclaw.plugin.json'), 'utf8')).configSchema
    expect(report.plugin.configJsonSchema).toEqual(schema)
  })

  test("a wrong setting is refused by OpenClaw's config validation, with its name", () => {
    const configPath = path.join(world.stateDir, 'openclaw.json')
    const config = JSON.parse(fs.readFileSync(configPath, 'utf8'))
    config.plugins.entries[PLUGIN_ID].config = { reloadEntries: 0, turnMetadata: ['channel', 'mood'], stateDirectory: '/tmp' }
    fs.writeFileSync(configPath, JSON.stringify(config, null, 2))
    const validate = openclaw(['config', 'validate'])
    const output = validate.stdout + validate.stderr
    expect(validate.code).not.toBe(0)
    expect(output).toContain(`plugins.entries.${PLUGIN_ID}.config`)
    expect(output).toMatch(/reloadEntries/)
    expect(output).toMatch(/stateDirectory/)
    delete config.plugins.entries[PLUGIN_ID].config
    fs.writeFileSync(configPath, JSON.stringify(config, null, 2))
  })

  test('the installed copy runs a persistent-chat turn (found by OpenClaw, not by a load path)', () => {
    runGateway(world, [{ op: 'create', sessionKey: CHAT }], { pluginDirs: [FAKE_ACPX] })
    const run = runGateway(world, [{ op: 'turn', sessionKey: CHAT, text: 'Hello from an installed plugin' }], {
      pluginDirs: [FAKE_ACPX],
    })
    expect(run.plugins.find((p) => p.id === PLUGIN_ID).status).toBe('loaded')
    const [turn] = backendTurns(world)
    expect(parsePrompt(turn.text)).toEqual(expect.objectContaining({ reload: true, live: 'Hello from an installed plugin' }))
    const root = path.join(world.stateDir, PLUGIN_ID)
    expect(fs.readdirSync(root)).toHaveLength(1)
  })
})
