#!/usr/bin/env node
// What `toolEntries` costs a chat's log: an 80-turn simulated chat through the plugin
// (plugin/persistent-chat.mjs with a stand-in for OpenClaw's ACP SDK whose dispatch delivers the
// tool payloads OpenClaw renders when tool summaries are shown, and a reply), once with the
// backend's tool summaries logged and once without, in a temp folder. Prints the log's size and
// entries, the prompts' sizes, and how many turns refreshed (none should: no compaction happens,
// while usage reports grow and ordinary tool calls run).
//
//   node benchmark/plugin-tool-entries.mjs [turns=80] [toolsPerTurn=4]
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

import { resolveConfig } from '../plugin/config.mjs'
import { createPersistentChat } from '../plugin/persistent-chat.mjs'

const turns = Number(process.argv[2] ?? 80)
const toolsPerTurn = Number(process.argv[3] ?? 4)
const KEY = 'agent:codex:acp:bench'
const quiet = { info() {}, warn: (line) => console.error(line), error() {}, debug() {} }

/** A chat's turn: a request of a few lines, a reply of a paragraph, tool calls on files. */
const request = (i) => `Turn ${i}: please update module_${i % 17}.rs so that the retry backs off, and run its tests.`
const reply = (i) =>
  `Done for turn ${i}: module_${i % 17}.rs now backs off exponentially (base 200 ms, cap 10 s) and its ` +
  'tests pass; I also noted the flaky network test for later.'
const tools = (i) => [
  ...Array.from({ length: toolsPerTurn - 1 }, (_, k) =>
    k % 2 === 0
      ? `🛠️ Read src/module_${(i + k) % 17}.rs · status=completed`
      : `🛠️ Run cargo test -p module_${i % 17} · status=completed`,
  ),
  `⚙️ usage updated: ${30000 + i * 1700}/200000`,
]

function fakeAcp(state) {
  return {
    getAcpSessionManager: () => ({
      resolveSession: ({ sessionKey }) => ({ kind: 'ready', sessionKey, meta: { agent: 'codex' } }),
      getSessionStatus: async () => ({ identity: { agentSessionId: 'be-1' } }),
    }),
    readAcpSessionEntry: () => ({ acp: { identity: { agentSessionId: 'be-1' } } }),
    async tryDispatchAcpReplyHook(event, ctx) {
      state.prompts.push(event.ctx.BodyForAgent)
      for (const text of tools(state.turn)) ctx.dispatcher.sendToolResult({ text })
      ctx.dispatcher.sendFinalReply({ text: reply(state.turn) })
      ctx.recordProcessed('completed', { reason: 'acp_dispatch' })
      return { handled: true, queuedFinal: true, counts: { tool: 0, block: 0, final: 1 } }
    },
  }
}

async function simulate(toolEntries) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-tool-entries-'))
  try {
    const config = resolveConfig({ stateDir: dir, toolEntries }, dir)
    const state = { turn: 0, prompts: [] }
    const chat = createPersistentChat({ config, acp: fakeAcp(state), logger: quiet })
    const dispatcher = { sendFinalReply: () => true, sendBlockReply: () => true, sendToolResult: () => true }
    for (let i = 0; i < turns; i++) {
      state.turn = i
      const text = request(i)
      await chat.onReplyDispatch(
        { sessionKey: KEY, ctx: { Body: text, BodyForAgent: text, RawBody: text, CommandBody: text } },
        { cfg: {}, dispatcher: { ...dispatcher, getQueuedCounts: () => ({}) }, recordProcessed: () => {} },
      )
    }
    const [folder] = fs.readdirSync(dir)
    const log = fs.readFileSync(path.join(dir, folder, 'perpetual-log.jsonl'), 'utf8')
    const lines = log.split('\n').filter(Boolean)
    const refreshes = state.prompts.filter((p) => /^--- REFRESH CONTEXT .* [0-9a-f]{16} ---$/m.test(p)).length
    const promptChars = state.prompts.slice(1).reduce((sum, p) => sum + p.length, 0) / (turns - 1)
    return { bytes: Buffer.byteLength(log), entries: lines.length, refreshes, promptChars }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const off = await simulate(false)
const on = await simulate(true)
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`
console.log(`${turns} turns, ${toolsPerTurn - 1} tool calls and a usage report a turn`)
for (const [name, r] of [
  ['toolEntries off', off],
  ['toolEntries on', on],
]) {
  console.log(
    `${name.padEnd(16)} log ${kb(r.bytes)} (${r.entries} entries, ${(r.bytes / turns).toFixed(0)} bytes a turn), ` +
      `continuous prompt ${r.promptChars.toFixed(0)} chars on average, refreshes ${r.refreshes}`,
  )
}
console.log(`growth: x${(on.bytes / off.bytes).toFixed(2)} (+${kb(on.bytes - off.bytes)})`)
