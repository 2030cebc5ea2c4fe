// `openclaw-context doctor`: read-only, on a fake install and a fake OpenClaw state folder: each
// problem named with the command that fixes it, exit 0 only when nothing needs doing, and nothing
// in either folder changed.
const { spawnSync } = require('node:child_process')
const crypto = require('node:crypto')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const { writeFakeInstall, FAKE_WRAPPER } = require('./fixtures/fake-openclaw-dist.js')
const { posixTest, unreadableTest, withoutReadOverride } = require('./fixtures/platform.js')
const { quoteArg } = require('../lib/shell-quote')

const ROOT = path.join(__dirname, '..')
const CLI = path.join(ROOT, 'cli', 'openclaw-context.js')
const PLUGIN_ID = 'openclaw-context-native'
const temps = []
afterAll(() => {
  for (const dir of temps) fs.rmSync(dir, { recursive: true, force: true })
})

function tempDir(prefix) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  temps.push(dir)
  return dir
}

/** An OpenClaw state folder: its config, the installed plugin, and chat folders (name -> log text). */
function writeState({ installed = true, enabled = true, chats = {}, installDir = ['extensions', PLUGIN_ID] } = {}) {
  const state = tempDir('occn-doctor-state-')
  const entry = { enabled, config: { reloadEntries: 30 } }
  fs.writeFileSync(path.join(state, 'openclaw.json'), JSON.stringify({ plugins: { entries: { [PLUGIN_ID]: entry } } }))
  if (installed) {
    fs.mkdirSync(path.join(state, ...installDir), { recursive: true })
    fs.writeFileSync(path.join(state, ...installDir, 'package.json'), '{}')
    fs.writeFileSync(path.join(state, ...installDir, 'openclaw.plugin.json'), '{}')
    // Its entry point loads this checkout's addon, as an install with its platform package does.
    fs.writeFileSync(
      path.join(state, ...installDir, 'index.js'),
      `module.exports = require(${JSON.stringify(path.join(ROOT, 'index.js'))})\n`,
    )
  }
  const stateDir = path.join(state, PLUGIN_ID)
  fs.mkdirSync(stateDir, { mode: 0o700 })
  fs.chmodSync(stateDir, 0o700)
  for (const [name, log] of Object.entries(chats)) {
    const dir = path.join(stateDir, name)
    fs.mkdirSync(dir, { mode: 0o700 })
    fs.chmodSync(dir, 0o700)
    if (log !== null) fs.writeFileSync(path.join(dir, 'perpetual-log.jsonl'), log, { mode: 0o600 })
  }
  return { state, stateDir }
}

const line = (i, session = 'be-1') =>
  `${JSON.stringify({ ts: `2026-05-15T09:00:${String(i).padStart(2, '0')}Z`, role: i % 2 ? 'assistant' : 'user', text: `m${i}`, session, id: `t${i}` })}\n`

function doctor(install, state, ...args) {
  const result = spawnSync(process.execPath, [CLI, 'doctor', install.pkg, ...args], {
    encoding: 'utf8',
    env: { ...process.env, OPENCLAW_STATE_DIR: state.state, OPENCLAW_CONFIG_PATH: '' },
  })
  return { code: result.status, out: result.stdout, err: result.stderr }
}

/** Every file's bytes and mode under `dir`, to show that doctor changed nothing. */
function snapshot(dir) {
  const seen = {}
  const walk = (d) => {
    for (const name of fs.readdirSync(d)) {
      const full = path.join(d, name)
      const stats = fs.lstatSync(full)
      if (stats.isDirectory()) walk(full)
      seen[full] =
        `${stats.mode}:${stats.isFile() ? crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex') : ''}`
    }
  }
  walk(dir)
  return seen
}

test('a patched-upstream release, the plugin installed and enabled, healthy chats: exit 0, nothing needs doing', () => {
  const install = writeFakeInstall(tempDir('occn-doctor-'), { fn: FAKE_WRAPPER, version: '2026.8.1-beta.2' })
  const state = writeState({ chats: { 'chat-a': line(0) + line(1, 'be-7'), 'chat-b': null } })
  const before = [snapshot(install.root), snapshot(state.state)]
  const { code, out, err } = doctor(install, state)
  expect({ code, err }).toEqual({ code: 0, err: '' })
  expect(out).toMatch(/release: openclaw 2026\.8\.1-beta\.2 at .*; the plugin runs on it \(2026\.4\.5 or later\)/)
  expect(out).toMatch(/compaction: upstream-wrapper: /)
  expect(out).toContain(
    `plugin: installed at ${path.join(state.state, 'extensions', PLUGIN_ID)}, enabled; settings {"reloadEntries":30}`,
  )
  expect(out).toMatch(/chat: .*chat-a \(under stateDir .*\): log [\d.]+ KiB; 2 entries; last backend session be-7/)
  expect(out).toMatch(/chat: .*chat-b .*: no log yet/)
  expect(out.trim().split('\n').pop()).toBe('nothing needs doing')
  expect([snapshot(install.root), snapshot(state.state)]).toEqual(before)
})

test.each([
  ['an npm spec on 2026.6 and later', ['npm', 'projects', PLUGIN_ID, 'node_modules', PLUGIN_ID]],
  ['an npm spec on 2026.5', ['npm', 'node_modules', PLUGIN_ID]],
])('the plugin installed from %s is found where OpenClaw put it', (_source, installDir) => {
  const install = writeFakeInstall(tempDir('occn-doctor-'), { fn: FAKE_WRAPPER, version: '2026.8.1-beta.2' })
  const state = writeState({ installDir })
  const { code, out } = doctor(install, state)
  expect(out).toContain(`plugin: installed at ${path.join(state.state, ...installDir)}, enabled;`)
  expect(code).toBe(0)
})

test('the buggy cap unpatched and the plugin missing: exit 1, each problem with its fix', () => {
  const install = writeFakeInstall(tempDir('occn-doctor-'))
  const state = writeState({ installed: false })
  const { code, err } = doctor(install, state)
  expect(code).toBe(1)
  expect(err).toContain(
    `problem: the compaction cap is the buggy one, unpatched\n  fix: openclaw-context patch ${install.pkg}`,
  )
  expect(err).toContain(
    `problem: the plugin is not installed (persistent ACP chats get no prompt)\n  fix: openclaw plugins install ${PLUGIN_ID}`,
  )
})

test('--json: the whole report as one JSON object, with the same exit codes; --quiet: the problems alone', () => {
  const healthy = writeFakeInstall(tempDir('occn-doctor-'), { fn: FAKE_WRAPPER, version: '2026.8.1-beta.2' })
  const good = writeState({ chats: { 'chat-a': line(0) } })
  const ok = doctor(healthy, good, '--json')
  expect([ok.code, ok.err]).toEqual([0, ''])
  const report = JSON.parse(ok.out)
  expect(report).toMatchObject({ ok: true, problems: [] })
  expect(report.facts.map((fact) => fact.topic)).toEqual(
    expect.arrayContaining(['release', 'compaction', 'plugin', 'chat']),
  )
  // The text report says the same facts, one a line.
  const text = doctor(healthy, good)
  expect(text.out).toBe(
    `${[...report.facts.map((fact) => `${fact.topic}: ${fact.text}`), 'nothing needs doing'].join('\n')}\n`,
  )
  expect(doctor(healthy, good, '--quiet')).toEqual({ code: 0, out: '', err: '' })

  const buggy = writeFakeInstall(tempDir('occn-doctor-'))
  const bad = writeState({ installed: false })
  const failed = doctor(buggy, bad, '--json')
  expect([failed.code, failed.err]).toEqual([1, ''])
  const problems = JSON.parse(failed.out).problems
  expect(problems).toContainEqual({
    what: 'the compaction cap is the buggy one, unpatched',
    fix: `openclaw-context patch ${buggy.pkg}`,
  })
  const quiet = doctor(buggy, bad, '-q')
  expect([quiet.code, quiet.out]).toEqual([1, ''])
  expect(quiet.err).toBe(problems.map(({ what, fix }) => `problem: ${what}\n  fix: ${fix}\n`).join(''))
})

test('a release older than the plugin seams: said, with the release that adds them', () => {
  const install = writeFakeInstall(tempDir('occn-doctor-'), { fn: FAKE_WRAPPER, version: '2026.3.22' })
  const { code, out, err } = doctor(install, writeState())
  expect(code).toBe(1)
  expect(out).toMatch(/the plugin needs 2026\.4\.5 or later \(reply_dispatch\)/)
  expect(err).toMatch(/problem: openclaw 2026\.3\.22 has no reply_dispatch hook/)
})

test('a disabled plugin and a bad setting are problems; a torn last line is reported', () => {
  const install = writeFakeInstall(tempDir('occn-doctor-'), { fn: FAKE_WRAPPER, version: '2026.8.1-beta.2' })
  const state = writeState({ enabled: false, chats: { torn: `${line(0)}{"ts":"2026-05-15T09:00:01Z","role":"assi` } })
  const config = JSON.parse(fs.readFileSync(path.join(state.state, 'openclaw.json'), 'utf8'))
  config.plugins.entries[PLUGIN_ID].config.reloadEntries = 9999
  fs.writeFileSync(path.join(state.state, 'openclaw.json'), JSON.stringify(config))
  const { code, out, err } = doctor(install, state)
  expect(code).toBe(1)
  expect(err).toContain(`problem: the plugin is installed but disabled\n  fix: openclaw plugins enable ${PLUGIN_ID}`)
  expect(err).toMatch(/problem: .*reloadEntries.*\n {2}fix: fix plugins\.entries\.openclaw-context-native\.config in /)
  expect(out).toMatch(/chat: .*torn .*1 entries; last backend session be-1; a torn last line/)
})

posixTest('modes and links are POSIX')(
  'a chat folder others can read and a symlinked log: named, with chmod and the way out',
  () => {
    const install = writeFakeInstall(tempDir('occn-doctor-'), { fn: FAKE_WRAPPER, version: '2026.8.1-beta.2' })
    const state = writeState({ chats: { wide: line(0), linked: null } })
    fs.chmodSync(path.join(state.stateDir, 'wide'), 0o755)
    const elsewhere = path.join(tempDir('occn-doctor-other-'), 'log.jsonl')
    fs.writeFileSync(elsewhere, line(0))
    fs.symlinkSync(elsewhere, path.join(state.stateDir, 'linked', 'perpetual-log.jsonl'))
    const { code, err } = doctor(install, state)
    expect(code).toBe(1)
    const wide = path.join(state.stateDir, 'wide')
    expect(err).toContain(`problem: ${wide} is readable by other local users (755)\n  fix: chmod -R go= ${wide}`)
    expect(err).toMatch(
      /problem: .*linked\/perpetual-log\.jsonl is a symlink: the plugin refuses it and sends plain messages/,
    )
  },
)

require('./fixtures/platform.js').rootTest('doctor names the owner')(
  "someone else's log and a log others can write: named, with the owner and the fix (root: chown)",
  () => {
    const install = writeFakeInstall(tempDir('occn-doctor-'), { fn: FAKE_WRAPPER, version: '2026.8.1-beta.2' })
    const state = writeState({ chats: { planted: line(0), wide: line(0) } })
    const planted = path.join(state.stateDir, 'planted', 'perpetual-log.jsonl')
    fs.chownSync(planted, 65534, 65534)
    const writable = path.join(state.stateDir, 'wide', 'perpetual-log.jsonl')
    fs.chmodSync(writable, 0o666)
    const { code, err } = doctor(install, state)
    expect(code).toBe(1)
    expect(err).toContain(
      `problem: ${planted} is owned by uid 65534, not the gateway's (uid 0): the plugin refuses it and sends plain messages\n  fix: chown 0 ${planted}`,
    )
    expect(err).toContain(
      `problem: ${writable} is writable by group or others (mode 0666): the plugin refuses it and sends plain messages\n  fix: chmod go-w ${writable}`,
    )
  },
)

test("with PERSISTENT_CHAT_CONTINUITY_PATH: the runtime's files are said to be one chat's, the others own folders", () => {
  const install = writeFakeInstall(tempDir('occn-doctor-'), { fn: FAKE_WRAPPER, version: '2026.8.1-beta.2' })
  const state = writeState()
  const runtime = tempDir('occn-doctor-runtime-')
  fs.chmodSync(runtime, 0o700)
  const summary = path.join(runtime, 'continuity-summary.txt')
  const result = spawnSync(process.execPath, [CLI, 'doctor', install.pkg], {
    encoding: 'utf8',
    env: {
      ...process.env,
      OPENCLAW_STATE_DIR: state.state,
      OPENCLAW_CONFIG_PATH: '',
      PERSISTENT_CHAT_CONTINUITY_PATH: summary,
    },
  })
  expect(result.stdout).toContain(
    `chat: ${runtime} (PERSISTENT_CHAT_CONTINUITY_PATH=${summary}, as the persistent-chat runtime kept it: one chat's, ` +
      `the first session key that took a turn (session-key-owner); every other chat has its own folder under stateDir ${state.stateDir})`,
  )
})

posixTest('POSIX file names')('a chat folder named to forge a line is printed on one line, quoted', () => {
  const install = writeFakeInstall(tempDir('occn-doctor-'), { fn: FAKE_WRAPPER, version: '2026.8.1-beta.2' })
  const state = writeState({ chats: { 'x\nproblem: none\u001b[2J': line(0) } })
  const { out, err } = doctor(install, state)
  const printed = `${out}${err}`.split('\n')
  expect(printed.filter((l) => l.startsWith('problem: none'))).toEqual([])
  expect(printed.some((l) => l.startsWith("chat: $'") && l.includes("x\\nproblem: none\\x1B[2J' ("))).toBe(true)
})

/** The state of writeState with `extra` merged into its openclaw.json. */
function withConfig(state, extra) {
  const file = path.join(state.state, 'openclaw.json')
  fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), ...extra }))
  return state
}

const BRIDGE_ON = { acpx: { config: { pluginToolsMcpBridge: true } } }

describe('the chat-log tools: the plugin-tools bridge and the tool policy', () => {
  const run = (version, extra) => {
    const install = writeFakeInstall(tempDir('occn-doctor-'), { fn: FAKE_WRAPPER, version })
    const state = withConfig(writeState(), extra)
    return doctor(install, state)
  }
  const pluginEntry = { [PLUGIN_ID]: { config: { reloadEntries: 30 } } }

  test('bridge off: a note saying how to turn it on, no problem', () => {
    const { code, out } = run('2026.9.6', {})
    expect(code).toBe(0)
    expect(out).toContain(
      'tools: chat_log_search, chat_log_get: plugins.entries.acpx.config.pluginToolsMcpBridge is off: ACP backends do not get them ' +
        '(to serve them: openclaw config set plugins.entries.acpx.config.pluginToolsMcpBridge true); the tool policy shows them',
    )
  })

  test('bridge on, a restrictive profile: a problem, fixed with tools.alsoAllow (keeping its entries)', () => {
    const { code, out, err } = run('2026.9.6', {
      plugins: { entries: { ...pluginEntry, ...BRIDGE_ON } },
      tools: { profile: 'coding', alsoAllow: ['memory_search'] },
    })
    expect(code).toBe(1)
    expect(out).toContain(
      'pluginToolsMcpBridge is on; the tool policy hides chat_log_search (tools.profile "coding" leave',
    )
    expect(err).toContain(
      // Quoted for this platform's shell, as every command doctor prints.
      `  fix: openclaw config set tools.alsoAllow ${quoteArg('["memory_search","chat_log_search","chat_log_get"]')} --strict-json`,
    )
  })

  test.each([
    [{ profile: 'coding', alsoAllow: ['chat_log_search', 'chat_log_get'] }],
    [{ allow: ['group:plugins'] }],
    [{ profile: 'full' }],
  ])('bridge on, tools %j: visible, nothing needs doing', (tools) => {
    const { code, out } = run('2026.9.6', { plugins: { entries: { ...pluginEntry, ...BRIDGE_ON } }, tools })
    expect(out).toContain('pluginToolsMcpBridge is on; the tool policy shows them')
    expect(code).toBe(0)
  })

  test('bridge on: tools.deny and tools.allow hide them; a release before 2026.7.2-beta.4 passes no key', () => {
    const { code, err } = run('2026.6.35', {
      plugins: { entries: { ...pluginEntry, ...BRIDGE_ON } },
      tools: { allow: ['read'], deny: ['chat_log_get'] },
    })
    expect(code).toBe(1)
    expect(err).toContain(
      'the tool policy hides chat_log_search (tools.allow leave it out and tools.alsoAllow does not name it), chat_log_get (tools.deny names it)',
    )
    expect(err).toContain('remove chat_log_search and chat_log_get from tools.deny')
    expect(err).toContain(
      "problem: openclaw 2026.6.35's plugin-tools bridge passes no session key: chat_log_search, chat_log_get refuse every call there\n  fix: npm install openclaw@latest (the tools need 2026.7.2-beta.4 or later)",
    )
  })
})

test('an installed plugin that cannot load its addon (no platform package): a problem, with the npm install that fixes it', () => {
  const install = writeFakeInstall(tempDir('occn-doctor-install-'), FAKE_WRAPPER)
  const state = writeState({ chats: { 'agent-a-0123456789': line(1) } })
  const folder = path.join(state.state, 'extensions', PLUGIN_ID)
  // What the installer left where it added no platform package: the package's loader finds no binding.
  fs.writeFileSync(
    path.join(folder, 'index.js'),
    "throw new Error('Cannot find native binding. npm has a bug related to optional dependencies')\n",
  )
  const { code, err } = doctor(install, state)
  expect(code).toBe(1)
  expect(err).toContain(
    `problem: the installed plugin cannot load its addon from ${folder} (Cannot find native binding. npm has a bug related to optional dependencies): every turn passes through untouched\n  fix: cd ${quoteArg(folder)} && npm install --omit=dev --ignore-scripts (then restart the gateway)`,
  )
})

unreadableTest('a folder of mode 000')(
  'a chat folder this user cannot enter is never "no log yet": a problem, with how to look',
  () => {
    const install = writeFakeInstall(tempDir('occn-doctor-install-'), FAKE_WRAPPER)
    const state = writeState({ chats: { 'agent-a-0123456789': line(1) } })
    const folder = path.join(state.stateDir, 'agent-a-0123456789')
    fs.chmodSync(folder, 0o000)
    const result = spawnSync(...withoutReadOverride(process.execPath, [CLI, 'doctor', install.pkg, '--json']), {
      encoding: 'utf8',
      env: { ...process.env, OPENCLAW_STATE_DIR: state.state, OPENCLAW_CONFIG_PATH: '' },
    })
    fs.chmodSync(folder, 0o700)
    expect(result.status).toBe(1)
    const report = JSON.parse(result.stdout)
    const chat = report.facts.find((fact) => fact.topic === 'chat' && fact.text.includes(folder))
    expect(chat.text).not.toContain('no log yet')
    expect(report.problems.map((p) => p.what)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /agent-a-0123456789 cannot be read \(.*permission denied.*\): its files were not checked/,
        ),
      ]),
    )
  },
)
