// One gateway process for the plugin's end-to-end specs, on the real OpenClaw 2026.7 dist
// (Node >= 22): the real plugin loader loads this package (as an OpenClaw plugin) and the
// fake-acpx fixture; turns go through the real dispatch (`dispatchInboundMessageWithDispatcher`),
// the real hook runner and the real ACP session manager, to the fixture's fake backend.
// No model, no network.
//
//   node plugin-gateway.mjs <job.json>
//
// job: { openclawDir, workspaceDir, pluginDirs: [..], pluginConfig, configPatch?, steps: [...] }
// (configPatch: merged into the gateway's config, objects key by key: e.g. the ACP stream's
// tag visibility and a verbose default, which show the backend's tool calls to the dispatcher)
// steps, run in order in this one process (a new process is a gateway restart: OpenClaw's
// ACP runtime handles live in the process):
//   { op: "create", sessionKey, acp?: boolean }   a session row (+ an ACP session)
//   { op: "turn", sessionKey, text }              one inbound webchat message
//   { op: "turn", sessionKey, texts: [..] }       several, all at once
//   { op: "reset", sessionKey }                   /new, as the gateway's sessions.reset runs it
//   { op: "gatewayStart" }                        runs the gateway_start hooks
//   { op: "waitForLine", text, timeoutMs? }       waits for a logged line containing text
//   { op: "transcript", sessionKey, atLeast? }    the session's transcript messages (waits up to
//                                                 10 s for atLeast of them: a release may write
//                                                 its transcript after the dispatch returns)
//   { op: "replyDispatchHooks", pluginId }        the plugin's reply_dispatch registrations
//   { op: "hasHooks", hookName, ctx }             the global hook runner's hasHooks(hookName, ctx)
//   (job.umask, when given, is the process's umask)
// Writes { plugins, steps: [<result per step>], logs: [<plugin logger lines>], cost } to job.outFile
// (OpenClaw's own logging goes to stdout).
//
// The session store caches what it read in a process, so a session created here is only
// seen by a later process: create sessions in a process of their own.
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const startedAt = performance.now()
const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))
// The modes a gateway creates files with come from its umask: a spec can set the usual one.
if (job.umask !== undefined) process.umask(job.umask)
const dist = path.join(job.openclawDir, 'dist')
// A gateway process is the `openclaw` command: a plugin that looks for the running OpenClaw
// through it (a copy installed without `openclaw` in its node_modules) finds this release.
process.argv[1] = path.join(job.openclawDir, 'openclaw.mjs')
const importDist = (rel) => import(pathToFileURL(path.join(dist, rel)).href)
const { chunksHolding } = createRequire(import.meta.url)('../../lib/dist-scan.js')

/**
 * A function of the dist that no public module exports, by its name: chunk names are
 * content hashes and export names are letters, both different in every release.
 */
async function distFunction(chunkPrefix, name) {
  const markers = [`\nfunction ${name}(`, `\nasync function ${name}(`]
  for (const file of chunksHolding(job.openclawDir, markers, { prefix: chunkPrefix })) {
    const found = Object.values(await importDist(path.basename(file))).find(
      (value) => typeof value === 'function' && value.name === name,
    )
    if (found) return found
  }
  throw new Error(`no dist/${chunkPrefix}* chunk exports ${name}`)
}

// Every line this process writes to stdout, where OpenClaw's logger prints (plugins' lines
// included), so a step can wait for one.
const stdoutLines = []
const writeStdout = process.stdout.write.bind(process.stdout)
process.stdout.write = (chunk, ...rest) => {
  stdoutLines.push(
    ...String(chunk)
      .replace(/\x1b\[[0-9;]*m/g, '')
      .split('\n'),
  )
  return writeStdout(chunk, ...rest)
}

const logs = []
const logger = {
  info: (msg) => logs.push({ level: 'info', msg: String(msg) }),
  warn: (msg) => logs.push({ level: 'warn', msg: String(msg) }),
  error: (msg) => logs.push({ level: 'error', msg: String(msg) }),
  debug: (msg) => logs.push({ level: 'debug', msg: String(msg) }),
}

const cfg = {
  plugins: {
    enabled: true,
    // Only these: skips loading the bundled plugins (~3 s a process).
    allow: job.pluginIds,
    load: { paths: job.pluginDirs },
    entries: Object.fromEntries(
      job.pluginIds.map((id) => [
        id,
        { enabled: true, ...(id === 'openclaw-context-native' ? { config: job.pluginConfig ?? {} } : {}) },
      ]),
    ),
  },
  acp: { enabled: true, backend: 'fake', dispatch: { enabled: true }, allowedAgents: ['codex'] },
  agents: { defaults: { workspace: job.workspaceDir, skipBootstrap: true } },
  commands: { text: true },
  // No daily reset: by default a session whose id started before 4:00 local time is stale after
  // it, and a run that crosses 4:00 would see OpenClaw rotate the chat's session id mid-scenario
  // (a CI run at 04:00 UTC once found the transcript of the session it created empty).
  session: { reset: { mode: 'idle', idleMinutes: 525600 } },
}

/** `patch` merged into `target`, objects key by key, anything else replaced. */
function merge(target, patch) {
  for (const [key, value] of Object.entries(patch ?? {})) {
    const both = value && typeof value === 'object' && !Array.isArray(value) && typeof target[key] === 'object'
    target[key] = both ? merge({ ...target[key] }, value) : value
  }
  return target
}
merge(cfg, job.configPatch)

// The same config as the gateway's config file: code paths such as /new's session reset
// read the runtime config (getRuntimeConfig), not the one passed down a call.
const configPath = path.join(process.env.OPENCLAW_STATE_DIR, 'openclaw.json')
fs.mkdirSync(path.dirname(configPath), { recursive: true })
fs.writeFileSync(configPath, `${JSON.stringify(cfg, null, 2)}\n`)
process.env.OPENCLAW_CONFIG_PATH = configPath

const loadOpenClawPlugins = await distFunction('loader-', 'loadOpenClawPlugins')
const registry = loadOpenClawPlugins({ config: cfg, workspaceDir: job.workspaceDir, cache: false, logger })
const pluginStatus = registry.plugins
  .filter((p) => job.pluginIds.includes(p.id))
  .map((p) => ({ id: p.id, status: p.status, error: p.error }))

const replyRuntime = await importDist('plugin-sdk/reply-runtime.js')
const sessionStore = await importDist('plugin-sdk/session-store-runtime.js')
const acpRuntime = await importDist('plugin-sdk/acp-runtime.js')

let messageCounter = 0

/**
 * Writes a session row. `upsertSessionEntry` from 2026.7; before it, `updateSessionStore` on
 * the store file (public from 2026.5, a dist function before).
 */
async function writeSessionRow(agentId, sessionKey, entry) {
  if (sessionStore.upsertSessionEntry) return sessionStore.upsertSessionEntry({ agentId, sessionKey, entry })
  const update = sessionStore.updateSessionStore ?? (await distFunction('', 'updateSessionStore'))
  const storePath = sessionStore.resolveStorePath(cfg.session?.store, { agentId })
  return update(storePath, (store) => {
    store[sessionKey] = { ...store[sessionKey], ...entry }
  })
}

async function create(step) {
  const sessionId = `oc-${step.sessionKey.replace(/[^a-z0-9]+/gi, '-')}`
  const now = Date.now()
  await writeSessionRow(step.sessionKey.split(':')[1] ?? 'main', step.sessionKey, {
    sessionId,
    updatedAt: now,
    sessionStartedAt: now,
    lifecycleRevision: randomUUID(),
  })
  if (step.acp !== false) {
    await acpRuntime.getAcpSessionManager().initializeSession({
      cfg,
      sessionKey: step.sessionKey,
      agent: 'codex',
      mode: 'persistent',
      backendId: 'fake',
    })
  }
  return { sessionId }
}

async function turn(step) {
  if (step.texts)
    return { turns: await Promise.all(step.texts.map((text) => turn({ ...step, texts: undefined, text }))) }
  messageCounter += 1
  const delivered = []
  const sid = `msg-${process.pid}-${messageCounter}`
  const result = await replyRuntime.dispatchInboundMessageWithDispatcher({
    ctx: {
      Body: step.text,
      BodyForAgent: step.text,
      RawBody: step.text,
      CommandBody: step.text,
      Provider: 'webchat',
      Surface: 'webchat',
      ChatType: 'direct',
      SessionKey: step.sessionKey,
      From: 'webchat:dana',
      To: 'webchat:gateway',
      SenderId: 'dana',
      SenderName: 'Dana',
      MessageSid: sid,
      CommandAuthorized: step.commandAuthorized ?? true,
    },
    cfg,
    dispatcherOptions: {
      deliver: async (payload, info) => {
        delivered.push({ kind: info?.kind, text: payload.text, isError: payload.isError === true })
      },
    },
  })
  return { delivered, queuedFinal: result?.queuedFinal }
}

/** A transcript message's text: a string, or its text parts joined. */
const messageText = (message) =>
  typeof message.content === 'string'
    ? message.content
    : (message.content ?? [])
        .filter((part) => part?.type === 'text')
        .map((part) => part.text)
        .join('\n')

/**
 * The user and assistant messages of the agent's transcript, in order: SQLite
 * (`transcript_events`) from 2026.7, one JSON Lines file per session before
 * (`agents/<agent>/sessions/<sessionId>.jsonl`, named by the session row's `sessionFile`).
 */
async function transcript(step) {
  const deadline = Date.now() + 10000
  for (;;) {
    const result = await readTranscript(step)
    if (result.messages.length >= (step.atLeast ?? 0) || Date.now() >= deadline) return result
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

async function readTranscript(step) {
  const agentId = step.sessionKey.split(':')[1] ?? 'main'
  const file = path.join(process.env.OPENCLAW_STATE_DIR, 'agents', agentId, 'agent', 'openclaw-agent.sqlite')
  if (fs.existsSync(file)) return { messages: await sqliteTranscript(file), store: 'sqlite' }
  const sessionsDir = path.join(process.env.OPENCLAW_STATE_DIR, 'agents', agentId, 'sessions')
  const messages = []
  const files = fs.existsSync(sessionsDir) ? fs.readdirSync(sessionsDir).filter((name) => name.endsWith('.jsonl')) : []
  for (const name of files) {
    let sessionId = name.slice(0, -'.jsonl'.length)
    for (const line of fs.readFileSync(path.join(sessionsDir, name), 'utf8').split('\n')) {
      if (!line.trim()) continue
      const event = JSON.parse(line)
      if (event.type === 'session' && event.id) sessionId = event.id
      if (event.type === 'message' && event.message) {
        messages.push({ sessionId, role: event.message.role, text: messageText(event.message), at: event.timestamp })
      }
    }
  }
  messages.sort((a, b) => String(a.at).localeCompare(String(b.at)))
  return { messages: messages.map(({ at, ...message }) => message), store: files.length > 0 ? 'jsonl' : 'none' }
}

async function sqliteTranscript(file) {
  const { DatabaseSync } = await import('node:sqlite')
  const db = new DatabaseSync(file, { readOnly: true })
  try {
    const rows = db.prepare('SELECT session_id, seq, event_json FROM transcript_events ORDER BY created_at, seq').all()
    const messages = []
    for (const row of rows) {
      const message = JSON.parse(row.event_json).message
      if (message) messages.push({ sessionId: row.session_id, role: message.role, text: messageText(message) })
    }
    return messages
  } finally {
    db.close()
  }
}

/** What the gateway runs once it listens: the plugins' gateway_start hooks. */
async function gatewayStart() {
  const { getGlobalHookRunner } = await importDist('plugin-sdk/plugin-runtime.js')
  await getGlobalHookRunner().runGatewayStart({ port: 0 }, { port: 0 })
  return {}
}

/**
 * `/new` as the gateway performs it (`sessions.reset`, also what an ACP-bound thread's
 * `/new` runs): the session row gets a new id and the ACP session a fresh backend session.
 * (A `/new` typed into a webchat message addressed straight to the ACP session key rotates
 * the row twice in this release and loses its ACP metadata: not what a bound chat does.)
 */
async function reset(step) {
  const performGatewaySessionReset = await distFunction('session-reset-service-', 'performGatewaySessionReset')
  const result = await performGatewaySessionReset({
    key: step.sessionKey,
    reason: step.reason ?? 'new',
    commandSource: 'e2e',
  })
  return { ok: result.ok, error: result.error?.message }
}

/** Waits (up to timeoutMs) for a stdout line containing `text`; returns the lines that do. */
async function waitForLine(step) {
  const deadline = Date.now() + (step.timeoutMs ?? 30000)
  const matching = () => [...stdoutLines, ...logs.map((l) => l.msg)].filter((line) => line.includes(step.text))
  while (matching().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50))
  return { lines: matching() }
}

/** The plugin's reply_dispatch registrations in the loaded registry: priority, eligibleDispatchKinds. */
async function replyDispatchHooks(step) {
  const hooks = registry.typedHooks.filter(
    (hook) => hook.pluginId === step.pluginId && hook.hookName === 'reply_dispatch',
  )
  return {
    hooks: hooks.map((hook) => ({
      priority: hook.priority,
      eligibleDispatchKinds: hook.eligibleDispatchKinds ?? null,
    })),
  }
}

/**
 * Whether the global hook runner has a handler for `hookName` in `ctx`: the check a dispatch makes
 * before it runs any reply_dispatch handler (2026.9 filters by ctx.dispatchKind there).
 */
async function hasHooks(step) {
  const { getGlobalHookRunner } = await importDist('plugin-sdk/plugin-runtime.js')
  return { has: getGlobalHookRunner().hasHooks(step.hookName, step.ctx) }
}

const ops = { create, turn, reset, transcript, gatewayStart, waitForLine, replyDispatchHooks, hasHooks }
const loadedMs = performance.now() - startedAt
const results = []
const stepMs = []
for (const step of job.steps) {
  const op = ops[step.op]
  if (!op) throw new Error(`unknown step ${JSON.stringify(step)}`)
  const stepStart = performance.now()
  try {
    results.push(await op(step))
  } catch (error) {
    results.push({ error: String(error?.stack ?? error) })
  }
  stepMs.push([step.op, Math.round(performance.now() - stepStart)])
}
// Let fire-and-forget hook work and appends settle before the process reports.
await new Promise((resolve) => setTimeout(resolve, 50))
// What the process cost: OpenClaw's import and the plugin load, then the steps; peak memory.
const cost = {
  loadMs: Math.round(loadedMs),
  stepsMs: Math.round(performance.now() - startedAt - loadedMs),
  maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024),
  stepMs,
}
fs.writeFileSync(job.outFile, `${JSON.stringify({ plugins: pluginStatus, steps: results, logs, cost })}\n`)
process.exit(0)
