'use strict'
// `openclaw plugins install` of this package as an operator gets it, then `openclaw plugins
// inspect` and `openclaw config validate`, with the real OpenClaw command line of each tested
// release; then a turn through the installed copy. Offline: the package and its linux-x64-gnu
// platform package are packed as they would be published, and the npm that `openclaw plugins
// install <tarball>` runs finds the platform package on a registry on 127.0.0.1 (with the
// manifests of the lock file's packages, which npm resolves even for --omit dev). Also on the
// releases whose install scans the plugin's files first (2026.4.5 to 2026.6.1-beta.1:
// "installation blocked: dangerous code patterns detected" on a finding), without forcing it.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const { pathToFileURL } = require('node:url')

const { findChunk } = require('../../lib/dist-scan')
const { testUnless } = require('../fixtures/platform')

const {
  PLATFORM_PACKAGE,
  PLUGIN_ID,
  RELEASES,
  ROOT,
  backendTurns,
  createWorld,
  packedTarballs,
  parsePrompt,
  removeWorld,
  runGateway,
  spawnInWorld,
  startLocalRegistry,
} = require('./plugin-harness')

const BINARY = 'openclaw-context-native.linux-x64-gnu.node'
const CHAT = 'agent:codex:acp:installed-chat'
const SCANNER_FINDING = /dangerous code patterns|installation blocked|dangerous-exec|Shell command execution/i

describe.each(RELEASES)('OpenClaw $name', (release) => {
  let world
  let tarball
  let registry

  /**
   * The openclaw command line, in the scratch home, its npm on the local registry. ClawHub,
   * which `plugins install <name>` asks first, is pointed at the same server: it answers that
   * it has no such package, as ClawHub does for a package it does not list, and the release
   * falls back to npm.
   */
  function openclaw(args) {
    const result = spawnInWorld(world, [path.join(release.openclawDir, 'openclaw.mjs'), ...args], {
      npm_config_registry: registry.url,
      OPENCLAW_CLAWHUB_URL: registry.url.replace(/\/$/, ''),
    })
    return { code: result.status, stdout: result.stdout, stderr: result.stderr }
  }

  beforeAll(async () => {
    world = createWorld(`install-${release.name}`, release)
    const tarballDir = path.join(world.dir, 'registry')
    tarball = packedTarballs(tarballDir).root
    registry = await startLocalRegistry(tarballDir)
  })

  afterAll(() => {
    registry?.stop()
    removeWorld(world)
  })

  testUnless(!release.scanner, `on ${release.name}: no install scanner (removed by 2026.6.35)`)(
    "the release's own install scanner finds nothing in the packed package (what `plugins install` runs first)",
    async () => {
      const unpacked = path.join(world.dir, 'unpacked')
      fs.mkdirSync(unpacked)
      expect(spawnSync('tar', ['-xzf', tarball, '-C', unpacked]).status).toBe(0)
      const scanner = findChunk(release.openclawDir, 'dangerous-exec', { prefix: 'skill-scanner-' })
      const run = (dir) =>
        spawnInWorld(world, [
          '--input-type=module',
          '-e',
          `const m = await import(${JSON.stringify(pathToFileURL(scanner).href)});
           const scan = Object.values(m).find((f) => f.name === 'scanDirectoryWithSummary');
           const s = await scan(${JSON.stringify(dir)});
           console.log(JSON.stringify({ scannedFiles: s.scannedFiles, critical: s.critical, findings: s.findings.map((f) => f.ruleId + ' ' + f.file) }))`,
        ])
      const result = run(path.join(unpacked, 'package'))
      expect(result.status).toBe(0)
      const summary = JSON.parse(result.stdout.trim().split('\n').pop())
      expect(summary.scannedFiles).toBeGreaterThan(20) // index.js, cli/, plugin/
      expect({ critical: summary.critical, findings: summary.findings }).toEqual({ critical: 0, findings: [] })
      // The same scanner does refuse a child process where it sees one (it is the oracle it seems).
      fs.writeFileSync(path.join(unpacked, 'package', 'planted.js'), "require('child_process').execSync('id')\n")
      expect(JSON.parse(run(path.join(unpacked, 'package')).stdout.trim().split('\n').pop()).findings).toEqual([
        `dangerous-exec ${path.join(unpacked, 'package', 'planted.js')}`,
      ])
    },
  )

  test('the packed package holds the plugin: manifest, ESM folder, the openclaw field, an optional peer', () => {
    const tar = (...args) => spawnSync('tar', args, { encoding: 'utf8' }).stdout
    const manifest = JSON.parse(tar('-xOzf', tarball, 'package/package.json'))
    expect(manifest.openclaw.extensions).toEqual(['./plugin/index.mjs'])
    expect(manifest.peerDependenciesMeta.openclaw.optional).toBe(true)
    expect(manifest.optionalDependencies[PLATFORM_PACKAGE]).toBe(manifest.version)
    const files = tar('-tzf', tarball).split('\n')
    expect(files).toEqual(expect.arrayContaining(['package/openclaw.plugin.json', 'package/plugin/index.mjs']))
    expect(files).not.toContain(`package/${BINARY}`) // it comes from the platform package
  })

  /**
   * `openclaw plugins install <source>` (a tarball, an npm spec or a folder) with the release's
   * own CLI, then `openclaw plugins inspect`: installed, the scanner finding nothing, loaded
   * with both hooks and the manifest's schema, and the platform package beside it, added by
   * the installer when `addsPlatformPackage`, else by the npm install the plugin's log line
   * names. Returns the installed folder.
   */
  function installAndInspect(source, addsPlatformPackage) {
    let install = openclaw(['plugins', 'install', source, '--force'])
    // From 2026.8 a third-party plugin's declared hooks need the operator's consent first.
    const consent = /requires capability consent/.test(install.stderr + install.stdout)
    expect(consent).toBe(release.consent)
    if (consent) install = openclaw(['plugins', 'install', source, '--force', '--accept-capabilities'])
    expect(install.stderr + install.stdout).not.toMatch(SCANNER_FINDING)
    expect(install.stderr + install.stdout).toMatch(/Installed plugin: openclaw-context-native/)
    expect(install.code).toBe(0)

    const inspect = openclaw([
      'plugins',
      'inspect',
      PLUGIN_ID,
      ...(release.inspectRuntime ? ['--runtime'] : []),
      '--json',
    ])
    expect({ code: inspect.code, stderr: inspect.code === 0 ? '' : inspect.stderr.slice(-3000) }).toEqual({
      code: 0,
      stderr: '',
    })
    const report = JSON.parse(inspect.stdout)
    const installed = report.plugin.rootDir
    expect(report.plugin).toEqual(
      expect.objectContaining({
        id: PLUGIN_ID,
        status: 'loaded',
        source: path.join(installed, 'plugin', 'index.mjs'),
      }),
    )
    expect(installed.startsWith(world.stateDir + path.sep)).toBe(true)
    expect(fs.existsSync(path.join(installed, 'openclaw.plugin.json'))).toBe(true)
    expect(report.typedHooks).toEqual(
      expect.arrayContaining([
        { name: 'reply_dispatch', priority: 100 },
        { name: 'before_message_write', priority: 100 },
      ]),
    )
    const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'openclaw.plugin.json'), 'utf8')).configSchema
    expect(report.plugin.configJsonSchema).toEqual(schema)

    // The platform package, where Node's resolution from the plugin looks: node_modules of its
    // folder and of each folder above it.
    const binary = () => {
      for (let dir = installed; dir !== path.dirname(dir); dir = path.dirname(dir)) {
        const file = path.join(dir, 'node_modules', PLATFORM_PACKAGE, BINARY)
        if (fs.existsSync(file)) return file
      }
      return undefined
    }
    expect(Boolean(binary())).toBe(addsPlatformPackage)
    if (!addsPlatformPackage) {
      // Added as the plugin's log line says (docs/plugin.md), with npm on the same registry.
      const npm = spawnSync('npm', ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], {
        cwd: installed,
        encoding: 'utf8',
        timeout: 240000,
        env: {
          ...process.env,
          HOME: world.home,
          npm_config_registry: registry.url,
          npm_config_cache: path.join(world.dir, 'npm-cache'),
        },
      })
      expect({ status: npm.status, stderr: npm.stderr }).toEqual({ status: 0, stderr: expect.any(String) })
    }
    // npm fetched the platform package from the registry, as from optionalDependencies.
    expect(fs.readFileSync(binary()).equals(fs.readFileSync(path.join(ROOT, BINARY)))).toBe(true)
    return installed
  }

  test(`\`openclaw plugins install <tarball>\` installs it with its platform package${release.installsOptional ? '' : ' (added by the npm install its log line names)'}${release.scanner ? ', its install scanner finding nothing' : ''}; \`openclaw plugins inspect\` shows it loaded`, () => {
    const installed = installAndInspect(tarball, release.installsOptional)
    expect(installed).toBe(path.join(world.stateDir, 'extensions', PLUGIN_ID))
  })

  test("a wrong setting is refused by OpenClaw's config validation, with its name", () => {
    const configPath = path.join(world.stateDir, 'openclaw.json')
    const config = JSON.parse(fs.readFileSync(configPath, 'utf8'))
    config.plugins.entries[PLUGIN_ID].config = {
      reloadEntries: 0,
      turnMetadata: ['channel', 'mood'],
      stateDirectory: '/tmp',
    }
    fs.writeFileSync(configPath, JSON.stringify(config, null, 2))
    const validate = openclaw(['config', 'validate'])
    const output = validate.stdout + validate.stderr
    expect(validate.code).not.toBe(0)
    expect(output).toContain(`plugins.entries.${PLUGIN_ID}.config`)
    expect(output).toMatch(/reloadEntries/)
    // The validators of 2026.4.5-2026.5.2 say "must NOT have additional properties", no name.
    expect(output).toMatch(release.scanner ? /stateDirectory|must NOT have additional properties/ : /stateDirectory/)
    delete config.plugins.entries[PLUGIN_ID].config
    fs.writeFileSync(configPath, JSON.stringify(config, null, 2))
  })

  test('the installed copy runs a persistent-chat turn (found by OpenClaw, not by a load path)', () => {
    // Without the release's bundled plugins, as in the other specs' gateway processes
    // (plugin-harness.js): the `plugins install` and `plugins inspect` runs above
    // load this package beside them.
    runGateway(world, [{ op: 'create', sessionKey: CHAT }], { pluginDirs: [world.fakeAcpxDir] })
    const run = runGateway(world, [{ op: 'turn', sessionKey: CHAT, text: 'Hello from an installed plugin' }], {
      pluginDirs: [world.fakeAcpxDir],
    })
    expect(run.plugins.find((p) => p.id === PLUGIN_ID).status).toBe('loaded')
    const [turn] = backendTurns(world)
    expect(parsePrompt(turn.text)).toEqual(
      expect.objectContaining({ reload: true, live: 'Hello from an installed plugin' }),
    )
    const root = path.join(world.stateDir, PLUGIN_ID)
    expect(fs.readdirSync(root)).toHaveLength(1)
  })

  // Each source installed as on a machine that has none yet (the earlier install's folders
  // removed: a folder installed with --force over an earlier install keeps its node_modules).
  const removeInstalls = () => {
    for (const dir of [path.join('extensions', PLUGIN_ID), 'npm']) {
      fs.rmSync(path.join(world.stateDir, dir), { recursive: true, force: true })
    }
  }

  test(`\`openclaw plugins install openclaw-context-native@<version>\` (an npm spec: ClawHub has no such package, npm's registry has) installs and loads the same${release.installsOptional ? '' : ' (the platform package added by hand)'}`, () => {
    const { version } = require('../../package.json')
    removeInstalls()
    const installed = installAndInspect(`${PLUGIN_ID}@${version}`, release.installsOptional)
    // `openclaw-context doctor` finds it where this release put it.
    const doctor = spawnInWorld(world, [path.join(ROOT, 'cli', 'openclaw-context.js'), 'doctor', release.openclawDir])
    expect(doctor.stdout).toContain(`plugin: installed at ${installed}, enabled`)
  })

  test(`\`openclaw plugins install <folder>\` (the package unpacked) installs and loads the same${release.folderInstallsOptional ? '' : '; the platform package added by hand (a folder install runs no npm for it)'}`, () => {
    const folder = path.join(world.dir, 'folder')
    fs.mkdirSync(folder, { recursive: true })
    expect(spawnSync('tar', ['-xzf', tarball, '-C', folder]).status).toBe(0)
    removeInstalls()
    const installed = installAndInspect(path.join(folder, 'package'), release.folderInstallsOptional)
    expect(installed).toBe(path.join(world.stateDir, 'extensions', PLUGIN_ID))
  })
})
