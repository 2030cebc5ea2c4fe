'use strict'
// The chat-log tools through the real OpenClaw's plugin-tools MCP server
// (`dist/mcp/plugin-tools-serve.js`), started as acpx starts it for an ACP session's
// `session/new` (shared notes, section 4): with the session key in
// OPENCLAW_TOOLS_MCP_AGENT_SESSION_KEY. The server registers the plugin in 'tool-discovery' mode
// and lists its tools; two chats' servers, at the same time, each get their own chat's entry
// and never the other's; a server with no key gets a refusal. The hop acpx → `session/new`
// is not run (no acpx here; see the notes' section 5).
const { spawn } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')

const { PLUGIN_ID, ROOT, createWorld, releaseNamed, removeWorld } = require('./plugin-harness')

const native = require(ROOT)

/** One MCP session with the server: initialize, tools/list, then `calls`; the answers. */
function mcpSession(world, sessionKey, calls) {
  const env = {
    ...process.env,
    HOME: world.home,
    TMPDIR: world.tmpDir,
    OPENCLAW_STATE_DIR: world.stateDir,
    OPENCLAW_CONFIG_PATH: path.join(world.stateDir, 'openclaw.json'),
    OPENCLAW_BUNDLED_PLUGINS_DIR: world.noBundledPluginsDir,
    NO_COLOR: '1',
  }
  delete env.OPENCLAW_TOOLS_MCP_AGENT_SESSION_KEY
  if (sessionKey) env.OPENCLAW_TOOLS_MCP_AGENT_SESSION_KEY = sessionKey
  const serve = path.join(world.release.openclawDir, 'dist', 'mcp', 'plugin-tools-serve.js')
  const child = spawn(world.release.node, [serve], { env, stdio: ['pipe', 'pipe', 'pipe'] })
  let buffer = ''
  let stderr = ''
  const waiting = new Map()
  child.stderr.on('data', (chunk) => (stderr += chunk))
  child.stdout.on('data', (chunk) => {
    buffer += chunk
    for (let at = buffer.indexOf('\n'); at >= 0; at = buffer.indexOf('\n')) {
      const line = buffer.slice(0, at)
      buffer = buffer.slice(at + 1)
      try {
        const message = JSON.parse(line)
        waiting.get(message.id)?.(message)
      } catch {
        // not JSON-RPC: ignored
      }
    }
  })
  let id = 0
  const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`)
  const rpc = (method, params) =>
    new Promise((resolve, reject) => {
      const n = ++id
      waiting.set(n, resolve)
      child.once('exit', (code) => reject(new Error(`plugin-tools-serve exited (${code}): ${stderr}`)))
      send({ id: n, method, params })
    })
  return (async () => {
    try {
      await rpc('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'e2e', version: '1' },
      })
      send({ method: 'notifications/initialized' })
      const list = await rpc('tools/list', {})
      const answers = []
      for (const [name, args] of calls) {
        const reply = await rpc('tools/call', { name, arguments: args })
        answers.push(reply.result?.content?.map((block) => block.text).join('') ?? JSON.stringify(reply))
      }
      return { tools: list.result.tools, answers }
    } finally {
      child.kill()
    }
  })()
}

// The releases whose bridge passes the session key, among those OCCN_PLUGIN_RELEASES keeps.
const KEYED = ['2026.7.2-beta.4', '2026.9.6'].filter((version) => releaseNamed(version))

describe.each(KEYED)('OpenClaw %s', (version) => {
  const release = releaseNamed(version)
  let world
  let chats
  beforeAll(async () => {
    world = createWorld('tools-bridge', release)
    chats = path.join(world.dir, 'chats')
    for (const [key, city] of [
      ['agent:main:acp:chat-a', 'Frankfurt'],
      ['agent:main:acp:chat-b', 'Oregon'],
    ]) {
      const store = await native.ChatStore.open({ stateDir: chats, sessionKey: key })
      for (let i = 0; i < 300; i++)
        await store.appendEntry({ role: i % 2 ? 'assistant' : 'user', text: `small talk ${i}`, session: 's1' })
      await store.appendEntry({
        role: 'user',
        text: `the staging database moves to ${city}`,
        session: 's1',
        id: 'plan',
      })
    }
    const config = {
      plugins: {
        allow: [PLUGIN_ID],
        load: { paths: [world.pluginDir] },
        entries: { [PLUGIN_ID]: { enabled: true, config: { stateDir: chats } } },
      },
    }
    fs.writeFileSync(path.join(world.stateDir, 'openclaw.json'), JSON.stringify(config))
  })
  afterAll(() => removeWorld(world))

  test("each chat's server gets its own chat's entry, never the other's; no key: refused", async () => {
    const calls = [
      ['chat_log_search', { query: 'staging database' }],
      ['chat_log_get', { id: 'plan', before: 1, after: 0 }],
      ['chat_log_get', { line: 1, path: '/etc/passwd' }],
    ]
    const [a, b, none] = await Promise.all([
      mcpSession(world, 'agent:main:acp:chat-a', calls),
      mcpSession(world, 'agent:main:acp:chat-b', calls),
      mcpSession(world, undefined, calls.slice(0, 1)),
    ])
    const names = a.tools.map((tool) => tool.name)
    expect(names).toEqual(expect.arrayContaining(['chat_log_search', 'chat_log_get']))
    const search = a.tools.find((tool) => tool.name === 'chat_log_search')
    expect(search.inputSchema).toEqual(expect.objectContaining({ type: 'object', additionalProperties: false }))

    expect(a.answers[0]).toMatch(/^chat_log_search "staging database": hits 1–1, best first \(page 1\)\n#301 /)
    expect(a.answers[0]).toContain('user: the staging database moves to Frankfurt')
    expect(a.answers.join('\n')).not.toContain('Oregon')
    expect(b.answers[0]).toContain('the staging database moves to Oregon')
    expect(b.answers.join('\n')).not.toContain('Frankfurt')
    expect(a.answers[1]).toMatch(
      /^chat_log_get: entries 300–301 \(oldest first\)\n#300 .*small talk 299\n#301 .*Frankfurt$/,
    )
    expect(a.answers[2]).toBe(
      'chat_log_get: bad parameters: unknown parameter "path" (it takes: id, line, before, after)',
    )
    expect(none.answers[0]).toMatch(/^chat_log_search: no chat for this session: no session key reached the tool/)
    // Read-only: the two chats' folders, nothing more.
    expect(fs.readdirSync(chats)).toHaveLength(2)
  })
})
