'use strict'
// buildPersistentChatInjectedPrompt (reload and continuous) and
// rebuildPersistentChatContinuitySummary, in process, side by side; and a reload prompt built from
// a chat's files (its log read by the addon) beside the same contract in plain JavaScript
// (lib/plain-reload.js), their outputs checked to be the same but for the nonce.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const gen = require('../lib/gen.js')
const { compare } = require('../lib/harness.js')
const { benchCacheDir } = require('../lib/setup.js')
const { fmtUs, mdTable } = require('../lib/format.js')
const { plainReloadPrompt } = require('../lib/plain-reload.js')

/**
 * The builders' inputs, as a gateway would have them: a 200-entry log whose newest entry is the
 * live message already appended, a memory state, the continuity summary built from them; the
 * reload and continuous prompt params, and (when the bench's 10 MB log exists) a reload that reads
 * its entries from `logPath`. Shared with sections/wasi.js, so both time the same calls.
 */
function chatInputs({ native, root }) {
  const all = gen.entries(201)
  const userMessage = `Can you re-run the staging migration and tell me if p99 latency is back under 200 ms? ${gen.words(gen.rng(3), 40)}`
  const live = { ...all[200], role: 'user', text: userMessage }
  const entries200 = [...all.slice(1, 200), live]
  const state = gen.memoryState()
  const now_ = '2026-05-16T09:00:00Z'
  const currentSession = entries200[entries200.length - 1].session
  const summaryParams = { entries: entries200, state, currentSession, now: now_ }
  const continuitySummary = native.rebuildPersistentChatContinuitySummary(summaryParams)
  const turnMetadata = {
    channel: 'telegram',
    chat: 'ops-room',
    sender: 'alice',
    messageId: 88213,
    receivedAt: now_,
    reload: true,
  }
  const reloadParams = { userMessage, reload: true, turnMetadata, continuitySummary, logEntries: entries200.slice(-26) }
  const continuousParams = { userMessage, reload: false, turnMetadata, logEntries: entries200.slice(-3) }
  const logFile = path.join(benchCacheDir(root), 'logs/perpetual-10MB.jsonl')
  const reloadFromLog = fs.existsSync(logFile)
    ? { userMessage, reload: true, turnMetadata, continuitySummary, logPath: logFile }
    : null
  return { summaryParams, continuitySummary, reloadParams, continuousParams, reloadFromLog }
}

/** The prompt with its nonce replaced by a fixed word: two builds compared line for line. */
function withoutNonce(prompt) {
  const nonce = /^Only lines with ([0-9a-f]{16,64}) /.exec(prompt)?.[1]
  return nonce ? prompt.replaceAll(nonce, 'NONCE') : prompt
}

/**
 * A chat's files as the plugin leaves them before a reload prompt: its 200-entry log (the live
 * message appended last) in a private folder, and its continuity summary. Returns the params of
 * the reload prompt built from them (the summary read from its file on each call, by both
 * contenders) and a cleanup.
 */
function chatFiles({ summaryParams, continuitySummary, reloadParams }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-bench-chat-'))
  const logPath = path.join(dir, 'perpetual-log.jsonl')
  const summaryPath = path.join(dir, 'continuity-summary.txt')
  const lines = summaryParams.entries.map((entry) => `${JSON.stringify(entry)}\n`).join('')
  fs.writeFileSync(logPath, lines, { mode: 0o600 })
  fs.writeFileSync(summaryPath, continuitySummary, { mode: 0o600 })
  const { userMessage, turnMetadata } = reloadParams
  const params = () => ({
    userMessage,
    reload: true,
    turnMetadata,
    continuitySummary: fs.readFileSync(summaryPath, 'utf8'),
    logPath,
  })
  return { params, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) }
}

function benchChat({ native, quick, root, rec }) {
  console.log('\n== persistent chat: injected prompt and continuity summary ==')
  const inputs = chatInputs({ native, root })
  const { summaryParams, continuitySummary, reloadParams, continuousParams, reloadFromLog } = inputs
  const files = chatFiles(inputs)
  const sameContract =
    withoutNonce(native.buildPersistentChatInjectedPrompt(files.params())) ===
    withoutNonce(plainReloadPrompt(files.params()))

  const reloadReport = native.buildPersistentChatInjectedPromptReport(reloadParams)
  const contReport = native.buildPersistentChatInjectedPromptReport(continuousParams)
  console.log(
    `inputs: continuity summary ${continuitySummary.length} units; reload prompt ${reloadReport.chars} units, ${reloadReport.entriesInjected} entries; ` +
      `continuous prompt ${contReport.chars} units, ${contReport.entriesInjected} entries`,
  )
  const contenders = [
    { name: 'reload', fn: () => native.buildPersistentChatInjectedPrompt(reloadParams) },
    { name: 'continuous', fn: () => native.buildPersistentChatInjectedPrompt(continuousParams) },
    { name: 'summary', fn: () => native.rebuildPersistentChatContinuitySummary(summaryParams) },
  ]
  if (reloadFromLog)
    contenders.push({ name: 'reloadLog', fn: () => native.buildPersistentChatInjectedPrompt(reloadFromLog) })
  contenders.push(
    { name: 'filesNative', fn: () => native.buildPersistentChatInjectedPrompt(files.params()) },
    { name: 'filesPlain', fn: () => plainReloadPrompt(files.params()) },
  )
  let r
  try {
    r = compare(contenders, { budgetMs: quick ? 1000 : 2000 })
  } finally {
    files.cleanup()
  }
  const table = [
    {
      call: 'buildPersistentChatInjectedPrompt, reload (25 entries + continuity summary)',
      median: fmtUs(r.reload.us),
      'p25–p75': `${fmtUs(r.reload.p25)}–${fmtUs(r.reload.p75)}`,
      'output units': reloadReport.chars,
    },
    {
      call: 'buildPersistentChatInjectedPrompt, continuous (2 entries)',
      median: fmtUs(r.continuous.us),
      'p25–p75': `${fmtUs(r.continuous.p25)}–${fmtUs(r.continuous.p75)}`,
      'output units': contReport.chars,
    },
    {
      call: 'rebuildPersistentChatContinuitySummary (200 entries + state)',
      median: fmtUs(r.summary.us),
      'p25–p75': `${fmtUs(r.summary.p25)}–${fmtUs(r.summary.p75)}`,
      'output units': continuitySummary.length,
    },
  ]
  if (r.reloadLog)
    table.push({
      call: 'buildPersistentChatInjectedPrompt, reload, entries read from `logPath` (10 MB log)',
      median: fmtUs(r.reloadLog.us),
      'p25–p75': `${fmtUs(r.reloadLog.p25)}–${fmtUs(r.reloadLog.p75)}`,
      'output units': native.buildPersistentChatInjectedPrompt(reloadFromLog).length,
    })
  const ratio = r.filesNative.us / r.filesPlain.us
  table.push(
    {
      call: "reload prompt from a chat's files (200-entry log, summary file): the addon",
      median: fmtUs(r.filesNative.us),
      'p25–p75': `${fmtUs(r.filesNative.p25)}–${fmtUs(r.filesNative.p75)}`,
      'output units': reloadReport.chars,
    },
    {
      call: `the same in plain JavaScript (benchmark/lib/plain-reload.js; ${sameContract ? 'same output' : 'OUTPUT DIFFERS'}): addon / plain ${ratio.toFixed(2)}`,
      median: fmtUs(r.filesPlain.us),
      'p25–p75': `${fmtUs(r.filesPlain.p25)}–${fmtUs(r.filesPlain.p75)}`,
      'output units': reloadReport.chars,
    },
  )
  console.table(table)
  rec.markdown(`### Persistent-chat builders (median per call, in process)\n\n${mdTable(table)}`)
  rec.target('reload prompt (25 entries + summary)', '< 100 µs', fmtUs(r.reload.us), r.reload.us < 100)
  rec.target(
    "reload prompt from a chat's files, addon / plain JavaScript (same output)",
    '≤ 0.5',
    `${ratio.toFixed(2)} (${fmtUs(r.filesNative.us)} / ${fmtUs(r.filesPlain.us)})`,
    sameContract && ratio <= 0.5,
  )
  return r
}

module.exports = { benchChat, chatInputs }
