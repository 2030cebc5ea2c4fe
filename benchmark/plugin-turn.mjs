#!/usr/bin/env node
// A turn through the plugin (plugin/persistent-chat.mjs with a fake ACP SDK: no OpenClaw, no
// backend) against the same dispatch without it: the wall time and the event-loop time the
// plugin adds per turn, over 1,000 chats (three turns each: a reload, two continuous), then on
// one chat whose log is 1 GB. The fake dispatch answers at once, so what is measured is the
// plugin's own work: the folder checks, the log read, the summary and prompt, two appends (the
// first synced), the two state files.
//
//   node benchmark/plugin-turn.mjs [folder] [--chats=1000] [--log-mb=1024]
//
// Targets: under 5 ms of event-loop time per turn (reloads: the prompt and the masking of its
// stored copy; continuous turns: about half), and under 20 ms of wall time added at the median,
// on 1,000 chats and on a 1 GB log (the synced append of the message is part of it).
import fs from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'

import { resolveConfig } from '../plugin/config.mjs'
import { createPersistentChat } from '../plugin/persistent-chat.mjs'
import { sessionFiles } from '../plugin/state-files.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const flag = (name, fallback) => Number(args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback)
const base = args.find((a) => !a.startsWith('--')) ?? path.join(root, 'target')
const CHATS = flag('chats', 1000)
const LOG_MB = flag('log-mb', 1024)
fs.mkdirSync(base, { recursive: true })
const stateDir = fs.mkdtempSync(path.join(base, 'occn-turn-'))

const silent = { info() {}, warn: (m) => console.log(`warn: ${m}`), error() {}, debug() {} }
let backendSession = 'be-1'
const acp = {
  getAcpSessionManager: () => ({
    resolveSession: ({ sessionKey }) => ({ kind: 'ready', sessionKey, meta: { agent: 'codex' } }),
    getSessionStatus: async () => ({ identity: { agentSessionId: backendSession } }),
  }),
  readAcpSessionEntry: () => ({ acp: { identity: { agentSessionId: backendSession } } }),
  async tryDispatchAcpReplyHook(event, ctx) {
    ctx.dispatcher.sendFinalReply({ text: `reply to ${event.sessionKey}` })
    ctx.recordProcessed('completed', { reason: 'acp_dispatch' })
    return { handled: true, queuedFinal: true, counts: { tool: 0, block: 0, final: 1 } }
  },
}
const config = resolveConfig({ stateDir }, stateDir)
const chat = createPersistentChat({ config, acp, logger: silent })
const inbound = (sessionKey, text) => [
  { sessionKey, ctx: { Body: text, BodyForAgent: text, RawBody: text, Provider: 'webchat', SenderName: 'Dana' } },
  {
    cfg: {},
    dispatcher: { sendFinalReply: () => true, sendBlockReply: () => true, getQueuedCounts: () => ({}) },
    recordProcessed: () => {},
  },
]

/** Median wall and event-loop ms per call of `run(i)`, over `count` calls one after another. */
async function measure(count, run) {
  const walls = []
  let loopMs = 0
  for (let i = 0; i < count; i++) {
    const elu = performance.eventLoopUtilization()
    const start = performance.now()
    await run(i)
    walls.push(performance.now() - start)
    loopMs += performance.eventLoopUtilization(elu).active
  }
  walls.sort((a, b) => a - b)
  return {
    median: walls[Math.floor(walls.length / 2)],
    p90: walls[Math.floor(walls.length * 0.9)],
    loop: loopMs / count,
  }
}

const text = 'Which port does the staging database listen on, and is it reachable from the CI runners?'
const plain = await measure(CHATS, (i) => acp.tryDispatchAcpReplyHook(...inbound(`agent:codex:acp:plain-${i}`, text)))
const rows = []
for (const [label, turn] of [
  ['1st turn (reload)', 0],
  ['2nd turn (continuous)', 1],
  ['3rd turn (continuous)', 2],
]) {
  rows.push([
    `${CHATS} chats, ${label}`,
    await measure(CHATS, (i) => chat.onReplyDispatch(...inbound(`agent:codex:acp:chat-${i}`, `${text} (${turn})`))),
  ])
}

// One chat with a 1 GB log, written as the gateway writes it.
const big = 'agent:codex:acp:big-log'
const files = sessionFiles(config, big)
fs.mkdirSync(files.dir, { recursive: true, mode: 0o700 })
const line = (i) =>
  `${JSON.stringify({ ts: new Date(1.7e12 + i * 1000).toISOString(), role: i % 2 ? 'assistant' : 'user', text: `entry ${i} `.padEnd(900, 'lorem ipsum '), session: 'be-0', id: `${i}` })}\n`
const block = Array.from({ length: 4096 }, (_, i) => line(i)).join('')
const fd = fs.openSync(files.log, 'w', 0o600)
for (let written = 0; written < LOG_MB * 2 ** 20; written += block.length) fs.writeSync(fd, block)
// On disk before the turns: else the first turn's fdatasync would write the whole log back.
fs.fsyncSync(fd)
fs.closeSync(fd)
// Reloads: each turn meets a backend session the log has not seen.
rows.push([
  `${LOG_MB} MB log, reloads`,
  await measure(9, (i) => {
    backendSession = `be-new-${i}`
    return chat.onReplyDispatch(...inbound(big, text))
  }),
])
rows.push([
  `${LOG_MB} MB log, continuous turns`,
  await measure(50, (i) => chat.onReplyDispatch(...inbound(big, `${text} ${i}`))),
])

const ms = (value) => `${value.toFixed(2)} ms`
console.log(`plain dispatch (fake, no plugin): median ${ms(plain.median)}, event loop ${ms(plain.loop)} per turn`)
for (const [label, r] of rows) {
  console.log(
    `${label.padEnd(36)} wall median ${ms(r.median)} (+${ms(r.median - plain.median)}), p90 ${ms(r.p90)}; event loop ${ms(r.loop)} per turn (+${ms(r.loop - plain.loop)})`,
  )
}
fs.rmSync(stateDir, { recursive: true, force: true })
