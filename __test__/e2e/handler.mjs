// Drives the real OpenClaw compaction-safeguard handler (`session_before_compact`) once,
// with a fake compaction provider and tool-heavy recent turns, and prints one JSON line
// describing what the handler stored. Run it under Node 22, one process per dist state:
// the chunk is cached per process.
//
//   node22 handler.mjs OPENCLAW_DIR
//
// Works on 2026.7.x (through the chunk's `testing` API) and on earlier releases that have a
// compaction provider registry (2026.5 on) but no `testing` API for this code (e.g.
// 2026.6.35): the chunk is then found by the factory builder's text and imported as is.
// The fake provider returns a structured body with OpenClaw's five sections. If the
// provider path fails, the handler falls back to its LLM path: with `testing`, the stubbed
// summarizeInStages returns the same body; without it, `fetch` is stubbed to fail, so no
// request ever leaves the process (`llmCalls` counts either).
import fs from 'node:fs'
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { isolateOpenClaw, loadOpenClawTesting } from '../../dev/openclaw-oracle.mjs'

const requireHere = createRequire(import.meta.url)
const { findChunk } = requireHere('../../lib/dist-scan.js')
const { REQUIRED_SECTIONS: HEADINGS } = requireHere('../../dev/shapes.js')

const openclawDir = process.argv[2]
if (!openclawDir) {
  console.error('usage: node handler.mjs OPENCLAW_DIR')
  process.exit(2)
}

const BODY = [
  'The session migrated the billing gateway to the new queue.',
  '',
  '## Decisions',
  '- Route invoices through queue billing-v2.',
  '',
  '## Open TODOs',
  '- Re-run the flaky deploy check.',
  '',
  '## Constraints/Rules',
  '- Never restart the gateway during business hours.',
  '',
  '## Pending user asks',
  '- Confirm the retry budget.',
  '',
  '## Exact identifiers',
  '- https://api.example.com/v1/items',
].join('\n')

const FACTORY_MARKER = '\nfunction buildEmbeddedExtensionFactories('
const TESTING_MARKER = 'openclaw.compactionSafeguardTestApi'

/** The chunk with the extension factories: `{ testing?, module, chunkPath }`. */
async function loadHandlerChunk() {
  const chunkPath = findChunk(openclawDir, FACTORY_MARKER)
  if (chunkPath && fs.readFileSync(chunkPath, 'latin1').includes(TESTING_MARKER))
    return loadOpenClawTesting(openclawDir)
  if (!chunkPath) throw new Error(`no dist/*.js under ${openclawDir} defines buildEmbeddedExtensionFactories`)
  isolateOpenClaw()
  return { testing: undefined, module: await import(pathToFileURL(chunkPath).href), chunkPath }
}

const { testing, module, chunkPath } = await loadHandlerChunk()
const byName = (name) => Object.values(module).find((value) => typeof value === 'function' && value.name === name)
const buildEmbeddedExtensionFactories = byName('buildEmbeddedExtensionFactories')
const consumeCancelReason = byName('consumeCompactionSafeguardCancelReason')
if (!buildEmbeddedExtensionFactories) throw new Error(`${chunkPath} does not export buildEmbeddedExtensionFactories`)

const registry = (globalThis[Symbol.for('openclaw.compactionProviderRegistryState')] ??= { providers: new Map() })
registry.providers.set('fake', {
  provider: {
    id: 'fake',
    async summarize() {
      return BODY
    },
  },
})
let llmCalls = 0
if (testing) {
  testing.setSummarizeInStagesForTest(async () => {
    llmCalls++
    return { kind: 'summary', text: BODY }
  })
} else {
  globalThis.fetch = async () => {
    llmCalls++
    throw new Error('handler.mjs: no network')
  }
}

const sessionManager = { getBranch: () => [] }
const factories = buildEmbeddedExtensionFactories({
  cfg: { agents: { defaults: { compaction: { mode: 'safeguard', provider: 'fake', recentTurnsPreserve: 3 } } } },
  sessionManager,
  provider: 'openai',
  modelId: 'm',
  model: { provider: 'openai', id: 'm' },
  workspaceDir: '/nonexistent/openclaw-context-native-e2e-workspace',
  runId: 'patch-e2e',
})
let handler
factories[0]({
  on(name, fn) {
    if (name === 'session_before_compact') handler = fn
  },
})
if (!handler) throw new Error('the first extension factory registered no session_before_compact handler')

// Four tool-heavy turns; the last three are preserved verbatim in the suffix (~22,000 chars).
const text = (value) => [{ type: 'text', text: value }]
const messages = []
let callId = 0
for (let turn = 0; turn < 4; turn++) {
  messages.push({
    role: 'user',
    content: text(`Turn ${turn}: check https://api.example.com/v1/items?page=${turn}`),
    timestamp: 1,
  })
  for (let k = 0; k < 9; k++) {
    const id = `call_${callId++}`
    messages.push({
      role: 'assistant',
      content: [{ type: 'toolCall', id, name: 'web_fetch', arguments: { url: 'https://example.com' } }],
      timestamp: 1,
    })
    messages.push({
      role: 'toolResult',
      toolCallId: id,
      toolName: 'web_fetch',
      content: text(
        JSON.stringify({ url: `https://api.example.com/v1/items/${callId}`, body: 'lorem ipsum '.repeat(100) }),
      ),
      isError: k === 8,
      timestamp: 1,
    })
  }
  messages.push({ role: 'assistant', content: text(`Done with turn ${turn}.`), timestamp: 1 })
}

const event = {
  type: 'session_before_compact',
  preparation: {
    messagesToSummarize: messages,
    turnPrefixMessages: [],
    isSplitTurn: false,
    firstKeptEntryId: 'entry-1',
    tokensBefore: 1000,
    previousSummary: undefined,
    fileOps: { read: new Set(), edited: new Set(), written: new Set() },
    settings: { reserveTokens: 1000 },
  },
  branchEntries: [],
  signal: new AbortController().signal,
}
const ctx = {
  sessionManager,
  modelRegistry: {
    async getApiKeyAndHeaders() {
      return { ok: true, apiKey: 'fake-key-no-network' }
    },
  },
}
const result = await handler(event, ctx)

const summary = result?.compaction?.summary
const report = { chunkPath, testingApi: Boolean(testing), llmCalls, cancelled: result?.cancel === true }
if (typeof summary === 'string') {
  // OpenClaw's own section check, where the release exposes it.
  const audit = testing?.auditSummaryQuality({ summary, identifiers: [] })
  Object.assign(report, {
    length: summary.length,
    headings: HEADINGS.filter((heading) => summary.split('\n').includes(heading)),
    missingSections: audit ? audit.reasons.filter((reason) => reason.startsWith('missing_section:')) : null,
    startsWith: summary.slice(0, 80),
    keepsToolFailures: summary.includes('## Tool Failures'),
  })
}
if (report.cancelled && consumeCancelReason) report.cancelReason = consumeCancelReason(sessionManager) ?? null
console.log(JSON.stringify(report))
