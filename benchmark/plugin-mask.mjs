#!/usr/bin/env node
// The event-loop time of one turn through the plugin (plugin/persistent-chat.mjs with a fake ACP
// SDK, as benchmark/plugin-turn.mjs) whose message is 120,000 characters: plain prose, then each
// built-in pattern's worst case and an operator pattern's. The plugin masks the message, the
// reply and the last prompt before it stores them: the masking must cost the event loop at most
// 5 ms more than prose does, and a turn at most 10 ms in all (issue 29).
//
//   node benchmark/plugin-mask.mjs [--size=120000] [--turns=5] [--plugin=DIR] [--no-mask]
//
// `--no-mask`: the same turns with a mask that changes nothing, to see what masking itself costs.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath, pathToFileURL } from 'node:url'

const args = process.argv.slice(2)
const option = (name, fallback) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback
const SIZE = Number(option('size', 120000))
const TURNS = Number(option('turns', 5))
const pluginDir = path.resolve(
  option('plugin', path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'plugin')),
)
const load = (name) => import(pathToFileURL(path.join(pluginDir, name)).href)
const { resolveConfig } = await load('config.mjs')
const { createPersistentChat } = await load('persistent-chat.mjs')

const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-mask-turn-'))
const logger = { info() {}, warn: (m) => console.log(`warn: ${m.slice(0, 200)}`), error() {}, debug() {} }
let reply = ''
const acp = {
  getAcpSessionManager: () => ({
    resolveSession: ({ sessionKey }) => ({ kind: 'ready', sessionKey, meta: { agent: 'codex' } }),
    getSessionStatus: async () => ({ identity: { agentSessionId: 'be-1' } }),
  }),
  readAcpSessionEntry: () => ({ acp: { identity: { agentSessionId: 'be-1' } } }),
  async tryDispatchAcpReplyHook(_event, ctx) {
    ctx.dispatcher.sendFinalReply({ text: reply })
    ctx.recordProcessed('completed', { reason: 'acp_dispatch' })
    return { handled: true, queuedFinal: true, counts: { tool: 0, block: 0, final: 1 } }
  },
}
const config = resolveConfig({ stateDir, redactPatterns: ['(a+)+b', '/internal-[a-z]+-\\d+/i'] }, stateDir)
const noMask = args.includes('--no-mask')
const chat = createPersistentChat({
  config,
  acp,
  logger,
  ...(noMask ? { redactor: { redact: async (text) => text, refused: [], maskPatterns: [] } } : {}),
})
const inbound = (sessionKey, text) => [
  { sessionKey, ctx: { Body: text, BodyForAgent: text, RawBody: text, Provider: 'webchat', SenderName: 'Dana' } },
  {
    cfg: {},
    dispatcher: { sendFinalReply: () => true, sendBlockReply: () => true, getQueuedCounts: () => ({}) },
    recordProcessed: () => {},
  },
]

const fill = (unit, tail = '') => unit.repeat(Math.floor((SIZE - tail.length) / unit.length)) + tail
const shapes = {
  prose: fill('The quick brown fox jumps over the lazy dog. '),
  'a. then token=': fill('a.', ' token='),
  'token= repeated': fill('token='),
  'http://u: repeated': fill('http://u:'),
  'a. then ://u:': fill('a.', '://u:'),
  'JWT prefixes': fill('eyJabcdefghi.'),
  'Bearer repeated': fill('Bearer '),
  'sk- repeated': fill('sk-'),
  'PEM BEGIN unclosed': fill('-----BEGIN PRIVATE KEY-----'),
  '<private> unclosed': fill('<private>'),
  "operator's (a+)+b": fill('a'),
}

/** Event-loop ms of one turn (the message and, as the reply, the same text), median over TURNS. */
async function turnLoopMs(name, text) {
  const loops = []
  for (let i = 0; i < TURNS; i++) {
    reply = text
    const elu = performance.eventLoopUtilization()
    await chat.onReplyDispatch(...inbound(`agent:codex:acp:${name.replace(/\W/g, '-')}-${i}`, text))
    loops.push(performance.eventLoopUtilization(elu).active)
  }
  loops.sort((a, b) => a - b)
  return loops[Math.floor(loops.length / 2)]
}

await turnLoopMs('warm-up', 'hello')
const prose = await turnLoopMs('prose', shapes.prose)
console.log(
  `${SIZE} chars, reload turn, event loop per turn (median of ${TURNS}), plugin at ${pluginDir}${noMask ? ', no mask' : ''}`,
)
for (const [name, text] of Object.entries(shapes)) {
  const ms = name === 'prose' ? prose : await turnLoopMs(name, text)
  console.log(
    `${name.padEnd(22)} ${ms.toFixed(2).padStart(9)} ms (${(ms - prose >= 0 ? '+' : '') + (ms - prose).toFixed(2)} vs prose)`,
  )
}
fs.rmSync(stateDir, { recursive: true, force: true })
