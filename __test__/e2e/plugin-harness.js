'use strict'
// Helpers for the plugin's end-to-end specs: a scratch OpenClaw home per spec file, gateway
// processes (plugin-gateway.mjs under Node 22, on the real OpenClaw from setup-oracle.sh),
// and readers for what the fake backend received and what the plugin wrote.
const { spawn, spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const { NODE22, NODE24, PLUGIN_RELEASES_DIR, OCCN_PLUGIN_RELEASES } = process.env
const ROOT = path.resolve(__dirname, '..', '..')
const DRIVER = path.join(__dirname, 'plugin-gateway.mjs')
const FAKE_ACPX = path.join(__dirname, 'fixtures', 'fake-acpx')
const PLUGIN_ID = 'openclaw-context-native'
const BOOTSTRAP = '--- BOOTSTRAP CONTEXT (already resolved) ---'

/** Whether OpenClaw `version` is `floor` or later (year.month[.day]; a prerelease counts as its release). */
function atLeast(version, floor) {
  const parts = (v) => v.split('-')[0].split('.').map(Number)
  const [a, b] = [parts(version), parts(floor)]
  for (let i = 0; i < b.length; i += 1) if ((a[i] ?? 0) !== b[i]) return (a[i] ?? 0) > b[i]
  return true
}

const versionOf = (openclawDir) =>
  openclawDir ? JSON.parse(fs.readFileSync(path.join(openclawDir, 'package.json'), 'utf8')).version : '?'

/**
 * The OpenClaw releases the plugin is tested on: scripts/openclaw-releases.json's `plugin`
 * list, one release per plugin-API generation. Two come from scripts/setup-oracle.sh (their
 * `oracle` names its variable), the others from scripts/setup-releases.js's full installs
 * under PLUGIN_RELEASES_DIR. Each runs on the Node its engines want, and loads a packed copy of
 * the package laid out as `openclaw plugins install` lays it out (the release's `openclaw`
 * linked into its node_modules): from 2026.9 the loader snapshots a load path's whole folder
 * (the checkout's would include cargo's target/), and 2026.4.27's leaves a plugin's dynamic
 * imports to Node's own resolution. OCCN_PLUGIN_RELEASES=v1,v2 narrows the list (a local run
 * on one release).
 */
const RELEASES = require('../../scripts/openclaw-releases.json')
  .plugin.filter(({ version }) => !OCCN_PLUGIN_RELEASES || OCCN_PLUGIN_RELEASES.split(',').includes(version))
  .map(({ version, node, oracle }) => {
    const openclawDir = oracle
      ? process.env[oracle]
      : PLUGIN_RELEASES_DIR && path.join(PLUGIN_RELEASES_DIR, `full-${version}`, 'node_modules', 'openclaw')
    return {
      name: version,
      node: node === '24' ? NODE24 : NODE22,
      openclawDir,
      /** Its transcript: a JSON Lines file per session (to 2026.6), or SQLite (2026.7 on). */
      transcript: atLeast(version, '2026.7') ? 'sqlite' : 'jsonl',
      /** `plugins install` runs the install-time code scanner (2026.4.5 to 2026.6.1-beta.1). */
      scanner: !atLeast(version, '2026.6.35'),
      /** `reply_dispatch` handlers may ask for some dispatch kinds only (`eligibleDispatchKinds`: 2026.8.2 on; 2026.8.1-beta.1 has none). */
      filtersDispatchKinds: atLeast(version, '2026.8.2'),
      /** `plugins install` asks consent for a plugin's declared hooks (2026.8 on). */
      consent: atLeast(version, '2026.8'),
      /** `plugins install` runs npm for optional dependencies too (2026.4.27 on; 2026.4.5 only for `dependencies`). */
      installsOptional: atLeast(version, '2026.4.27'),
      /** `plugins install <folder>` does too: 2026.4.27 only (2026.5 on copy a folder and link the peer, no npm). */
      folderInstallsOptional: atLeast(version, '2026.4.27') && !atLeast(version, '2026.5'),
      /** `plugins inspect --runtime` (2026.5 on: 2026.4.27's inspect has no such option). */
      inspectRuntime: atLeast(version, '2026.5'),
    }
  })

/** The tested release named `version`. */
const releaseNamed = (version) => RELEASES.find((release) => release.name === version)

function requireOracle() {
  const missing = RELEASES.filter(
    (r) => !r.node || !r.openclawDir || versionOf(fs.existsSync(r.openclawDir) ? r.openclawDir : undefined) !== r.name,
  )
  if (!NODE22 || !NODE24 || missing.length > 0) {
    throw new Error(
      `NODE22, NODE24, OPENCLAW_DIR, OPENCLAW_NEXT_DIR and PLUGIN_RELEASES_DIR must name the releases ${missing.map((r) => r.name).join(', ')}: ` +
        'run `npm test` (it runs scripts/setup-oracle.sh and scripts/setup-releases.js)',
    )
  }
}

const BINARY = 'openclaw-context-native.linux-x64-gnu.node'
const PLATFORM_PACKAGE = 'openclaw-context-native-linux-x64-gnu'

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 240000 })
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}`)
  return result.stdout
}

/**
 * The root package as the release publishes it (scripts ignored: the addon is built already) and
 * its linux-x64-gnu platform package (npm/linux-x64-gnu with the built binary), packed into
 * `dir`. Returns `{ root, platform }`, the two tarballs' paths.
 */
function packedTarballs(dir) {
  const root = releasedRoot(dir)
  const platformDir = fs.mkdtempSync(path.join(dir, 'platform-'))
  addPlatformPackage(platformDir)
  const platform = pack(platformDir, dir)
  fs.rmSync(platformDir, { recursive: true, force: true })
  return { root, platform }
}

/**
 * `npm pack` of the checkout, then the release's own step that adds the root's
 * optionalDependencies (the repository's package.json has none): `napi prepublish`, as the
 * workflow's publish job and scripts/pack-check.sh run it, here for linux-x64-gnu alone (the
 * targets narrowed, as PACK_CHECK_HOST_ONLY does) and publishing nothing
 * (--skip-optional-publish --no-gh-release); then `npm pack` of the result into `dir`. Returns
 * the tarball's path.
 */
function releasedRoot(dir) {
  const checkout = pack(ROOT, dir)
  const stage = fs.mkdtempSync(path.join(dir, 'release-'))
  run('tar', ['xzf', checkout, '-C', stage, '--strip-components=1'], stage)
  fs.rmSync(checkout)
  addPlatformPackage(path.join(stage, 'npm', 'linux-x64-gnu'))
  const manifestPath = path.join(stage, 'package.json')
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'))
  manifest.napi.targets = ['x86_64-unknown-linux-gnu']
  fs.writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`)
  const napi = path.join(ROOT, 'node_modules', '.bin', 'napi')
  run(napi, ['prepublish', '-t', 'npm', '--skip-optional-publish', '--no-gh-release'], stage)
  const released = JSON.parse(fs.readFileSync(manifestPath, 'utf8'))
  if (released.optionalDependencies?.[PLATFORM_PACKAGE] !== released.version)
    throw new Error(`napi prepublish did not pin ${PLATFORM_PACKAGE}: ${JSON.stringify(released.optionalDependencies)}`)
  const tarball = pack(stage, dir)
  fs.rmSync(stage, { recursive: true, force: true })
  return tarball
}

/** `npm pack` of the package in `cwd` into `dir`; the tarball's path. */
function pack(cwd, dir) {
  if (!fs.existsSync(path.join(ROOT, BINARY))) throw new Error(`${BINARY} is missing: run npm run build first`)
  fs.mkdirSync(dir, { recursive: true })
  return path.join(
    dir,
    run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], cwd).trim().split('\n').pop(),
  )
}

/** npm/linux-x64-gnu's package.json and the built binary in `dir`: the platform package. */
function addPlatformPackage(dir) {
  fs.mkdirSync(dir, { recursive: true })
  fs.copyFileSync(path.join(ROOT, 'npm', 'linux-x64-gnu', 'package.json'), path.join(dir, 'package.json'))
  fs.copyFileSync(path.join(ROOT, BINARY), path.join(dir, BINARY))
}

/**
 * The package as npm installs it, in `dir`: the packed tarball unpacked, with the platform
 * package in node_modules as npm puts it there from optionalDependencies, and `openclawDir`
 * (if given) linked as node_modules/openclaw, as `openclaw plugins install` links the running
 * one. Returns the package folder.
 */
function packedPackage(dir, openclawDir) {
  run('tar', ['xzf', releasedRoot(dir), '-C', dir], dir)
  const packageDir = path.join(dir, 'package')
  addPlatformPackage(path.join(packageDir, 'node_modules', PLATFORM_PACKAGE))
  if (openclawDir) fs.symlinkSync(openclawDir, path.join(packageDir, 'node_modules', 'openclaw'), 'dir')
  return packageDir
}

/**
 * A registry on 127.0.0.1 (dev/local-registry.js) serving the tarballs in
 * `tarballDir`, and the manifests of the lock file's packages (npm resolves the
 * devDependencies' manifests even with --omit dev): what `npm install` of the published
 * package would find, with no network. Resolves to `{ url, stop() }`.
 */
async function startLocalRegistry(tarballDir) {
  const portFile = path.join(tarballDir, '.port')
  const child = spawn(
    process.execPath,
    [path.join(ROOT, 'dev', 'local-registry.js'), tarballDir, portFile, path.join(ROOT, 'package-lock.json')],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  )
  let stderr = ''
  child.stderr.on('data', (chunk) => (stderr += chunk))
  for (let waited = 0; !(fs.existsSync(portFile) && fs.readFileSync(portFile, 'utf8')); waited += 50) {
    if (child.exitCode !== null || waited > 30000) {
      child.kill()
      throw new Error(`the local registry did not start: ${stderr}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return { url: `http://127.0.0.1:${fs.readFileSync(portFile, 'utf8')}/`, stop: () => child.kill() }
}

/** A scratch OpenClaw home on one release: state, config, the fake backend's record. */
function createWorld(name, release = releaseNamed('2026.7.2-beta.4') ?? RELEASES[0]) {
  requireOracle()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `occn-plugin-${name}-`))
  const world = {
    dir,
    release,
    /** This package as the release loads it (packed on first use). */
    get pluginDir() {
      this.packedDir ??= packedPackage(path.join(dir, 'packed'), release.openclawDir)
      return this.packedDir
    },
    /**
     * The fake backend plugin, copied here with the release linked as its
     * node_modules/openclaw (as for this package): its `openclaw/plugin-sdk/*` imports then
     * resolve natively. From the fixture folder they do not, and 2026.5's loader falls back
     * to transpiling the SDK's import graph through jiti in every gateway process (about 9 s).
     */
    get fakeAcpxDir() {
      if (!this.fakeAcpxCopy) {
        const copy = path.join(dir, 'fake-acpx')
        fs.cpSync(FAKE_ACPX, copy, { recursive: true })
        fs.mkdirSync(path.join(copy, 'node_modules'))
        fs.symlinkSync(release.openclawDir, path.join(copy, 'node_modules', 'openclaw'), 'dir')
        this.fakeAcpxCopy = copy
      }
      return this.fakeAcpxCopy
    },
    home: path.join(dir, 'home'),
    stateDir: path.join(dir, 'home', '.openclaw'),
    workspaceDir: path.join(dir, 'workspace'),
    // OpenClaw's own temp folder: a release's `plugins install`, run as root, has left the shared
    // /tmp at mode 0700 (seen with 2026.6.35), which breaks every later user of /tmp.
    tmpDir: path.join(dir, 'tmp'),
    // OpenClaw's bundled plugins are discovered by every gateway process even when
    // `plugins.allow` loads none of them: on 2026.4.x that scan (a manifest, a schema compile,
    // lstat calls per bundled plugin) is most of a process's time. Gateway processes look in
    // this empty folder instead; the install spec's `openclaw` commands keep the release's own.
    noBundledPluginsDir: path.join(dir, 'no-bundled-plugins'),
    record: path.join(dir, 'backend-record.jsonl'),
    failResumeFile: path.join(dir, 'fail-resume'),
    processes: 0,
  }
  fs.mkdirSync(world.workspaceDir, { recursive: true })
  fs.mkdirSync(world.stateDir, { recursive: true })
  fs.mkdirSync(world.tmpDir, { recursive: true })
  fs.mkdirSync(world.noBundledPluginsDir)
  return world
}

/** The three slowest steps of a world's gateway processes, as `op N ms`. */
const slowestSteps = (costs) =>
  costs
    .flatMap((cost) => cost.stepMs ?? [])
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([op, ms]) => `${op} ${ms} ms`)
    .join(', ')

/** One line for the spec's log: gateway processes, their load time, steps time, peak RSS. */
function costLine(world) {
  const costs = world?.costs ?? []
  if (costs.length === 0) return ''
  const sum = (key) => costs.reduce((total, cost) => total + cost[key], 0)
  const load = costs.map((c) => c.loadMs)
  return (
    `${world.release.name}: ${costs.length} gateway processes, load ${Math.min(...load)}-${Math.max(...load)} ms ` +
    `(total ${sum('loadMs')} ms), steps ${sum('stepsMs')} ms, peak RSS ${Math.max(...costs.map((c) => c.maxRssMB))} MB` +
    `, slowest steps ${slowestSteps(costs)}`
  )
}

function removeWorld(world) {
  if (world?.costs) console.log(`e2e cost: ${costLine(world)}`)
  if (!world || process.env.OCCN_KEEP_E2E) return
  for (const dir of [world.dir, ...(world.extraDirs ?? [])]) fs.rmSync(dir, { recursive: true, force: true })
}

/** The environment of a process in the world's scratch home (see spawnInWorld). */
function worldEnv(world, env = {}) {
  return {
    ...process.env,
    HOME: world.home,
    TMPDIR: world.tmpDir,
    OPENCLAW_STATE_DIR: world.stateDir,
    OPENCLAW_CONFIG_PATH: path.join(world.stateDir, 'openclaw.json'),
    PATH: `${path.dirname(world.release.node)}${path.delimiter}${process.env.PATH}`,
    FAKE_ACP_RECORD: world.record,
    FAKE_ACP_FAIL_RESUME: world.failResumeFile,
    NO_COLOR: '1',
    ...env,
  }
}

/**
 * The release's Node with `args`, in the world's scratch home and OpenClaw state (its Node
 * first on the PATH, for the npm OpenClaw runs), with the fake backend's files.
 */
function spawnInWorld(world, args, env = {}, { timeout = 240000 } = {}) {
  return spawnSync(world.release.node, args, {
    encoding: 'utf8',
    timeout,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
    env: worldEnv(world, env),
  })
}

const stripAnsi = (text) => text.replace(/\x1b\[[0-9;]*m/g, '')

/** A gateway process's variables over the world's: the empty bundled-plugins folder, the step's `env`. */
const gatewayVars = (world, { env } = {}) => ({ OPENCLAW_BUNDLED_PLUGINS_DIR: world.noBundledPluginsDir, ...env })

/** The job file of the world's next gateway process; returns its number and files. */
function writeJob(
  world,
  steps,
  {
    pluginConfig = {},
    failResume = false,
    pluginDirs = [world.pluginDir, world.fakeAcpxDir],
    openclawDir = world.release.openclawDir,
    umask,
    configPatch,
  } = {},
) {
  world.processes += 1
  const n = world.processes
  const jobFile = path.join(world.dir, `job-${n}.json`)
  const outFile = path.join(world.dir, `out-${n}.json`)
  fs.writeFileSync(
    jobFile,
    JSON.stringify({
      openclawDir,
      workspaceDir: world.workspaceDir,
      pluginDirs,
      pluginIds: [PLUGIN_ID, 'fake-acpx'],
      pluginConfig,
      outFile,
      steps,
      ...(umask === undefined ? {} : { umask }),
      ...(configPatch === undefined ? {} : { configPatch }),
    }),
  )
  if (failResume) fs.writeFileSync(world.failResumeFile, '')
  else fs.rmSync(world.failResumeFile, { force: true })
  return { n, jobFile, outFile }
}

/**
 * One gateway process: loads the plugin (this package) and the fake acpx with the real
 * loader, runs `steps` in order, exits. Returns the driver's results and the lines this
 * plugin logged (its `api.logger` writes through OpenClaw's logger to stdout). `timeout`
 * (ms) kills a process that does not finish: the spec then fails instead of hanging.
 */
function runGateway(world, steps, options = {}) {
  const { n, jobFile, outFile } = writeJob(world, steps, options)
  const result = spawnInWorld(world, [DRIVER, jobFile], gatewayVars(world, options), { timeout: options.timeout })
  const stdout = stripAnsi(`${result.stdout}\n${result.stderr}`)
  fs.writeFileSync(path.join(world.dir, `process-${n}.log`), stdout)
  if (result.status !== 0 || !fs.existsSync(outFile)) {
    throw new Error(`gateway process ${n} failed (${result.status ?? result.signal}):\n${stdout.slice(-4000)}`)
  }
  const out = JSON.parse(fs.readFileSync(outFile, 'utf8'))
  for (const [i, step] of out.steps.entries()) {
    if (step.error) throw new Error(`gateway process ${n}, step ${i} (${JSON.stringify(steps[i])}): ${step.error}`)
  }
  world.costs = [...(world.costs ?? []), out.cost]
  const pluginLines = [...stdout.split('\n'), ...out.logs.map((l) => l.msg)].filter((line) =>
    line.includes(`${PLUGIN_ID}:`),
  )
  return { ...out, pluginLines, stdout }
}

/**
 * A gateway process killed (SIGKILL, as a crash or a power cut) once `until(record)` holds
 * for the fake backend's record: the backend holds a turn. Resolves when it is gone.
 */
async function crashGateway(world, steps, { until, timeoutMs = 120000, ...options }) {
  const { n, jobFile } = writeJob(world, steps, options)
  const child = spawn(world.release.node, [DRIVER, jobFile], {
    env: worldEnv(world, gatewayVars(world, options)),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.on('data', (chunk) => (output += chunk))
  child.stderr.on('data', (chunk) => (output += chunk))
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  const deadline = Date.now() + timeoutMs
  try {
    while (!until(readRecord(world))) {
      if (child.exitCode !== null || Date.now() > deadline) {
        throw new Error(
          `gateway process ${n} ended or timed out before the crash point:\n${stripAnsi(output).slice(-4000)}`,
        )
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  } finally {
    child.kill('SIGKILL')
    fs.writeFileSync(path.join(world.dir, `process-${n}.log`), stripAnsi(output))
  }
  return exited
}

/** Everything the fake backend recorded, in order. */
function readRecord(world) {
  if (!fs.existsSync(world.record)) return []
  return fs
    .readFileSync(world.record, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
}

/** The texts the backend received (`turn` events), optionally those after `from`. */
function backendTurns(world, from = 0) {
  return readRecord(world)
    .filter((event) => event.type === 'turn')
    .slice(from)
}

function readLog(logPath) {
  if (!fs.existsSync(logPath)) return []
  return fs
    .readFileSync(logPath, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
}

/** The nonce of a fenced prompt (the plugin always fences), from its first line; null for the legacy layout. */
function nonceOf(text) {
  return /^Only lines with ([0-9a-f]{16,64}) are structure\.\n/.exec(text)?.[1] ?? null
}

/**
 * The prompt's parts: the nonce, the injected excerpt lines, the recalled entries (fenced
 * reloads: `{ line, ts, role, status, text }`), the summary (from its heading), the live
 * turn. Reads the fenced layout (the nonce from the first line, each entry's header on a line
 * of its own, its text's first line after it, the live message up to the closing line) and
 * the legacy one.
 */
function parsePrompt(text) {
  const nonce = nonceOf(text)
  const tag = nonce ? ` ${nonce}` : ''
  const liveTurn = `--- LIVE TURN${tag} ---\n`
  const end = nonce ? `\n--- END ${nonce} ---` : ''
  const at = text.lastIndexOf(liveTurn)
  let live = at < 0 ? text : text.slice(at + liveTurn.length)
  if (at >= 0 && end && live.endsWith(end)) live = live.slice(0, -end.length)
  let head = at < 0 ? '' : text.slice(0, at)
  if (nonce) head = head.slice(head.indexOf('\n') + 1)
  const excerpt = []
  const marker = head.indexOf(`## Recent Perpetual Log Excerpt${tag}\n`)
  if (marker >= 0) {
    const lines = head.slice(marker).split('\n').slice(1)
    lines.forEach((line, index) => {
      if (nonce) {
        // `N. [ts] role NONCE`, or `role (STATUS) NONCE` for a failed turn's reply; the text next.
        const match = /^\d+\. \[([^\]]*)\] (\w+)(?: \(([^)]*)\))? ([0-9a-f]+)$/.exec(line)
        if (match && match[4] === nonce) {
          excerpt.push({ ts: match[1], role: match[2], status: match[3], text: lines[index + 1] ?? '' })
        }
        return
      }
      // `N. [ts] role: text`, or `role (STATUS)` for a failed turn's reply.
      const match = /^\d+\. \[([^\]]*)\] (\w+)(?: \(([^)]*)\))?: (.*)$/.exec(line)
      if (match) excerpt.push({ ts: match[1], role: match[2], status: match[3], text: match[4] })
    })
  }
  const recalled = []
  const recall = nonce ? new RegExp(`^## Recalled Older Log Entries .*${tag}$`, 'm').exec(head) : null
  if (recall) {
    const lines = head
      .slice(recall.index, marker >= 0 ? marker : undefined)
      .split('\n')
      .slice(1)
    lines.forEach((line, index) => {
      const match = /^(\d+)\. \[([^\]]*)\] (\w+)(?: \(([^)]*)\))? ([0-9a-f]+)$/.exec(line)
      if (match && match[5] === nonce) {
        recalled.push({
          line: Number(match[1]),
          ts: match[2],
          role: match[3],
          status: match[4],
          text: lines[index + 1] ?? '',
        })
      }
    })
  }
  const summaryAt = head.indexOf(`## Rolling Continuity Summary${tag}\n`)
  const summaryEnd = [recall?.index ?? -1, marker].filter((at) => at > summaryAt).sort((a, b) => a - b)[0]
  const summary = summaryAt < 0 ? undefined : head.slice(summaryAt, summaryEnd)
  return {
    nonce,
    live,
    excerpt,
    recalled,
    summary,
    reload: head.includes(`--- BOOTSTRAP CONTEXT (already resolved)${tag} ---`),
    metadata: head.startsWith(`## Turn Metadata${tag}`),
  }
}

/** The log entry an excerpt line shows (its first line: entries can span lines). */
function entryOfExcerptLine(log, line) {
  return log.find(
    (entry) => entry.role === line.role && String(entry.ts) === line.ts && entry.text.split('\n')[0] === line.text,
  )
}

/**
 * Exports of one of the plugin's ES modules (`plugin/<file>`), as JSON: jest runs CommonJS, so
 * a child Node imports it.
 */
function pluginExports(file, names) {
  const url = require('node:url').pathToFileURL(path.join(ROOT, 'plugin', file)).href
  const source = `const m = await import(${JSON.stringify(url)}); console.log(JSON.stringify(Object.fromEntries(${JSON.stringify(names)}.map((n) => [n, m[n]]))))`
  return JSON.parse(run(process.execPath, ['--input-type=module', '-e', source], ROOT))
}

module.exports = {
  BOOTSTRAP,
  RELEASES,
  PLATFORM_PACKAGE,
  PLUGIN_ID,
  ROOT,
  backendTurns,
  createWorld,
  entryOfExcerptLine,
  packedPackage,
  packedTarballs,
  parsePrompt,
  pluginExports,
  nonceOf,
  readLog,
  readRecord,
  releaseNamed,
  removeWorld,
  crashGateway,
  runGateway,
  spawnInWorld,
  startLocalRegistry,
}
