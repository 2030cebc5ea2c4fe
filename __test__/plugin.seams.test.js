'use strict'
// The plugin on an OpenClaw without the seams it needs (plugin/seams.mjs), with no OpenClaw at
// all: the checkout has none to import, so `openclaw/plugin-sdk/acp-runtime` is missing here,
// as on a release before 2026.4.5. The plugin registers, logs one line naming what is missing and
// the release that adds it, and its handlers pass every turn through. Each case runs in a fresh
// node (the plugin is ESM).
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { pathToFileURL } = require('node:url')

const posixTest = require('./fixtures/platform.js').posixTest('POSIX file names and modes')

const PLUGIN = pathToFileURL(path.resolve(__dirname, '..', 'plugin', 'index.mjs')).href
const SEAMS = pathToFileURL(path.resolve(__dirname, '..', 'plugin', 'seams.mjs')).href

function runModule(source) {
  const result = spawnSync(process.execPath, ['--input-type=module'], {
    input: source,
    encoding: 'utf8',
    timeout: 30000,
  })
  if (result.status !== 0) throw new Error(result.stderr)
  return JSON.parse(result.stdout.trim().split('\n').pop())
}

test('without openclaw/plugin-sdk/acp-runtime: it registers its hooks, logs one line, and every turn passes through', () => {
  const out = runModule(`
    import plugin from ${JSON.stringify(PLUGIN)};
    const lines = [];
    const hooks = [];
    const logger = { info: (m) => lines.push(['info', m]), warn: (m) => lines.push(['warn', m]), error: (m) => lines.push(['error', m]), debug: () => {} };
    const api = {
      pluginConfig: {}, config: {}, logger,
      runtime: { state: { resolveStateDir: () => '/nonexistent/state' } },
      on: (name, handler, options) => hooks.push({ name, handler, options }),
    };
    plugin.register(api);
    const dispatch = hooks.find((h) => h.name === 'reply_dispatch');
    const event = { sessionKey: 'agent:codex:acp:chat', ctx: { BodyForAgent: 'hello' } };
    const results = [await dispatch.handler(event, { cfg: {} }), await dispatch.handler(event, { cfg: {} })];
    const write = hooks.find((h) => h.name === 'before_message_write').handler({ message: { role: 'user', content: 'hello' } }, {});
    const sending = hooks.find((h) => h.name === 'reply_payload_sending').handler({ sessionKey: 'x', kind: 'final', payload: {} }, {});
    console.log(JSON.stringify({ hooks: hooks.map((h) => [h.name, h.options ?? null]), lines, results: results.map(String), write: String(write), sending: String(sending), event }));
  `)
  expect(out.hooks).toEqual([
    ['reply_dispatch', { priority: 100, eligibleDispatchKinds: ['acp'] }],
    ['before_message_write', { priority: 100 }],
    ['reply_payload_sending', null],
    ['before_reset', null],
    ['gateway_start', null],
  ])
  expect(out.results).toEqual(['undefined', 'undefined']) // not handled: OpenClaw dispatches as usual
  expect([out.write, out.sending]).toEqual(['undefined', 'undefined'])
  expect(out.event).toEqual({ sessionKey: 'agent:codex:acp:chat', ctx: { BodyForAgent: 'hello' } }) // untouched
  expect(out.lines).toHaveLength(1)
  expect(out.lines[0][0]).toBe('warn')
  expect(out.lines[0][1]).toMatch(
    /^openclaw-context-native: this OpenClaw has no openclaw\/plugin-sdk\/acp-runtime \(.*\); OpenClaw 2026\.4\.5 adds it, with the reply_dispatch hook\. Every turn passes through untouched: update OpenClaw to 2026\.4\.5 or newer$/,
  )
})

test('a module without one of the functions the plugin calls: named in the line', () => {
  const out = runModule(`
    import { loadAcpRuntime, missingSeamLine } from ${JSON.stringify(SEAMS)};
    const partial = await loadAcpRuntime(async () => ({ getAcpSessionManager() {}, readAcpSessionEntry() {} }));
    const whole = await loadAcpRuntime(async () => ({ getAcpSessionManager() {}, readAcpSessionEntry() {}, tryDispatchAcpReplyHook() {} }));
    console.log(JSON.stringify({ partial, line: missingSeamLine(partial.missing), whole: Object.keys(whole), hasAcp: typeof whole.acp }));
  `)
  expect(out.partial).toEqual({ missing: 'tryDispatchAcpReplyHook in openclaw/plugin-sdk/acp-runtime' })
  expect(out.line).toMatch(
    /has no tryDispatchAcpReplyHook in openclaw\/plugin-sdk\/acp-runtime; OpenClaw 2026\.4\.5 adds it/,
  )
  expect(out).toEqual(expect.objectContaining({ whole: ['acp'], hasAcp: 'object' }))
})

test('peerDependencies states the range the seams give: openclaw >= 2026.4.5, optional', () => {
  const pkg = require('../package.json')
  expect(pkg.peerDependencies.openclaw).toBe('>=2026.4.5')
  // The one constant the plugin's start-up line and doctor say.
  expect(require('../lib/openclaw-release').PLUGIN_FIRST_RELEASE).toBe('2026.4.5')
  expect(pkg.peerDependenciesMeta.openclaw.optional).toBe(true)
})

test('without the platform binary (OpenClaw 2026.4.5 installs no optional dependency): it loads, says how to get it, and every turn passes through', () => {
  const fs = require('node:fs')
  const os = require('node:os')
  // The package as `plugins install` copies it, without node_modules' platform package, beside a
  // stand-in for the SDK module (the real one is OpenClaw's; here only its names are needed).
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-no-binary-'))
  try {
    const root = path.resolve(__dirname, '..')
    for (const file of require('../package.json').files.concat('package.json')) {
      fs.cpSync(path.join(root, file), path.join(dir, 'pkg', file), { recursive: true })
    }
    const sdk = path.join(dir, 'pkg', 'node_modules', 'openclaw')
    fs.mkdirSync(sdk, { recursive: true })
    fs.writeFileSync(
      path.join(sdk, 'package.json'),
      JSON.stringify({ name: 'openclaw', type: 'module', exports: { './plugin-sdk/acp-runtime': './acp-runtime.js' } }),
    )
    fs.writeFileSync(
      path.join(sdk, 'acp-runtime.js'),
      'export const tryDispatchAcpReplyHook = () => ({ handled: true });\nexport const getAcpSessionManager = () => ({});\nexport const readAcpSessionEntry = () => ({});\n',
    )
    const plugin = pathToFileURL(path.join(dir, 'pkg', 'plugin', 'index.mjs')).href
    const out = runModule(`
      import plugin from ${JSON.stringify(plugin)};
      const lines = [];
      const hooks = [];
      const logger = { info: (m) => lines.push(['info', m]), warn: (m) => lines.push(['warn', m]), error: (m) => lines.push(['error', m]), debug: () => {} };
      plugin.register({
        pluginConfig: {}, config: {}, logger,
        runtime: { state: { resolveStateDir: () => '/nonexistent/state' } },
        on: (name, handler, options) => hooks.push({ name, handler, options }),
      });
      const dispatch = hooks.find((h) => h.name === 'reply_dispatch');
      const result = await dispatch.handler({ sessionKey: 'agent:codex:acp:chat', ctx: { BodyForAgent: 'hello' } }, { cfg: {} });
      console.log(JSON.stringify({ lines, result: String(result) }));
    `)
    expect(out.result).toBe('undefined')
    expect(out.lines).toHaveLength(1)
    expect(out.lines[0][0]).toBe('warn')
    expect(out.lines[0][1]).toMatch(
      /^openclaw-context-native: the addon could not be loaded \(.*\); install its platform package: cd .*pkg && npm install --omit=dev --ignore-scripts \(then restart the gateway\); every turn passes through untouched$/,
    )
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})

posixTest('every line it logs is one line: a hostile folder name is quoted, its control characters escaped', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-seams-quote-'))
  try {
    // A state dir that others can read, named to forge a line and run a command if pasted.
    const stateDir = path.join(root, 'x$(touch pwned)\nproblem: none\u202e')
    fs.mkdirSync(path.join(stateDir, 'chat'), { recursive: true, mode: 0o755 })
    fs.chmodSync(stateDir, 0o755)
    const out = runModule(`
      import plugin from ${JSON.stringify(PLUGIN)};
      const lines = [];
      const hooks = [];
      const logger = { info: (m) => lines.push(['info', m]), warn: (m) => lines.push(['warn', m]), error: (m) => lines.push(['error', m]), debug: () => {} };
      plugin.register({
        pluginConfig: { stateDir: ${JSON.stringify(stateDir)} }, config: {}, logger,
        runtime: { state: { resolveStateDir: () => '/nonexistent/state' } },
        on: (name, handler) => hooks.push({ name, handler }),
      });
      hooks.find((h) => h.name === 'gateway_start').handler({}, {});
      await new Promise((resolve) => setTimeout(resolve, 1500));
      console.log(JSON.stringify({ lines }));
    `)
    const wide = out.lines.find(([, line]) => line.includes('readable by other local users'))
    expect(wide).toBeDefined()
    for (const [, line] of out.lines) expect(line).not.toMatch(/[\n\r\u202e]/)
    expect(wide[1]).toContain("chmod -R go= $'")
    expect(wide[1]).toContain('\\nproblem: none\\u202E')
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
})
