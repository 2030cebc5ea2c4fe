// One ACP-dispatched turn of a persistent chat, end to end.
//
// OpenClaw runs `reply_dispatch` handlers in priority order until one claims the turn; acpx
// claims at priority 0 and sends the turn through the public `tryDispatchAcpReplyHook`. This
// plugin claims first (priority 100) and sends it through the same function, with the
// injected prompt as the text for the agent (`BodyForAgent`, which OpenClaw's ACP dispatch
// reads first in 2026.7; `agentText`, which it reads in 2026.9). Then acpx never sees the turn.
//
// The rules that keep a user's turn safe:
// - Before the turn is dispatched, any failure of the plugin's own work (state folder, log,
//   backend status, prompt) logs one line and the plain message is dispatched instead.
// - Once OpenClaw got the turn, the plugin claims it whatever happens next: a second
//   dispatch would send the turn twice. A failure to record it afterwards is logged.
// - If the dispatch itself fails before OpenClaw got anywhere, the plugin declines the turn
//   and acpx, next in line, dispatches the original message as it would without the plugin.
// - Nothing lost: the user's message is in the log before the turn is dispatched, and the
//   reply with the turn's status follows as a line of its own once the turn is over.
// - A state path that is not a regular file of its own (symlink, FIFO, hard link, someone
//   else's, writable by others, ...) is refused by the chat store (code ENOTREGULAR) before
//   anything moves: one log line naming the path, and the plain message goes to the backend.
// - Every byte of a chat's files is the store's (ChatStore: crates/core/src/store/): this
//   file decides and wires, it never opens a chat file.
//
// The turn's steps are functions of their own, each given what it uses: the chat's state (`chat`,
// made once by createPersistentChat), the turn's arguments and a list of problems to report.
// The context helpers are in turn-context.mjs, the store's side in turn-record.mjs, the upkeep
// in chat-upkeep.mjs, the backend's signals in backend-signals.mjs, the notice in
// reload-notice.mjs.
import crypto from 'node:crypto'

import { createUpkeep, scheduleRetention, warmIndexAfter, warnMasked } from './chat-upkeep.mjs'
import { appliesTo, ignored, PLUGIN_ID } from './config.mjs'
import { createKeyedQueue } from './keyed-queue.mjs'
import { oneLine, quoteArg } from './lib.mjs'
import { createRedactor } from './redact.mjs'
import { reloadNoticeFor } from './reload-notice.mjs'
import { openSessionFolder } from './state-files.mjs'
import { createTranscriptFix } from './transcript-fix.mjs'
import { createTurnCapture } from './turn-capture.mjs'
import { asksForNewSession, claimed, liveMessage, looksLikeCommand, withPrompt } from './turn-context.mjs'
import {
  backendWork,
  markCompaction,
  prepareTurn,
  recordOutcome,
  recordRequest,
  recordToolEntries,
  sessionAfter,
} from './turn-record.mjs'

export { backendSessionOf } from './turn-context.mjs'

/**
 * The chat's folder, opened and checked before anything is read or written: a symlink, FIFO,
 * device, hard link or someone else's file there leaves this turn to the plain message, with
 * nothing read, written or logged.
 */
async function openStore(chat, sessionKey, maskPatterns, problems) {
  try {
    const opened = await openSessionFolder(chat.config, sessionKey, { maskPatterns })
    scheduleRetention(chat.upkeep, sessionKey, opened.store)
    if (opened.migratedFrom)
      chat.logger.info(
        `${PLUGIN_ID}: ${sessionKey}: history moved from ${quoteArg(opened.migratedFrom)} to ${quoteArg(opened.store.folder)}`,
      )
    return opened.store
  } catch (error) {
    const unsafe = error?.code === 'ENOTREGULAR'
    problems.push(
      `${unsafe ? 'state refused' : 'state folder unusable'}, sent the plain message, the turn not logged (${oneLine(error)})`,
    )
    return undefined
  }
}

/** The prompt and the user's line in the log, each failure a problem (the plain message then goes). */
async function prepareAndLog(chat, { event, ctx, sessionKey, live, store, turn }, problems) {
  let prepared
  try {
    prepared = await prepareTurn(chat, { cfg: ctx.cfg, sessionKey, store, live, ctx: event.ctx, turn })
  } catch (error) {
    problems.push(`prompt not built, sent the plain message (${oneLine(error)})`)
  }
  let requestLogged = false
  try {
    await recordRequest({ store, live, turn, prepared })
    requestLogged = true
  } catch (error) {
    problems.push(`message not written to ${quoteArg(store.logPath)} (${oneLine(error)})`)
  }
  return { prepared, requestLogged }
}

/**
 * The turn through OpenClaw's ACP dispatch, with the prompt (when there is one) and the
 * notice. `undefined` when the dispatch failed before OpenClaw took the turn: acpx, next in
 * line, sends the original message (the logged request stands; its reply is acpx's).
 */
async function dispatch(chat, { event, ctx, sessionKey, progress, prepared, notice }, problems) {
  const capture = createTurnCapture({ notice })
  const dispatchEvent = prepared ? { ...event, ctx: withPrompt(event.ctx, prepared.prompt) } : event
  const untrack = prepared ? chat.transcript.expect(prepared.prompt, liveMessage(event.ctx)) : () => {}
  const routed = Boolean(event.shouldRouteToOriginating && event.originatingChannel && event.originatingTo)
  const routedKeys = routed ? [...new Set([sessionKey, event.sessionKey, event.ctx?.SessionKey].filter(Boolean))] : []
  for (const key of routedKeys) chat.inFlight.set(key, capture)
  try {
    progress.dispatched = true
    return { capture, result: await chat.acp.tryDispatchAcpReplyHook(dispatchEvent, capture.wrapContext(ctx)) }
  } catch (error) {
    if (!capture.reachedDispatch) {
      problems.push(`dispatch failed before the turn started, left to acpx (${oneLine(error)})`)
      return undefined
    }
    problems.push(`dispatch failed after OpenClaw took the turn, not sent again (${oneLine(error)})`)
    return { capture, result: claimed(ctx) }
  } finally {
    untrack()
    for (const key of routedKeys) if (chat.inFlight.get(key) === capture) chat.inFlight.delete(key)
  }
}

/**
 * After a turn OpenClaw took: the backend's tool summaries (`toolEntries`) and the reply in the
 * log, a compaction it showed marked (`compactionRefresh`), the refresh mark this turn consumed
 * tidied away. Each failure is a problem; none changes the turn.
 */
async function recordTurn(chat, { ctx, sessionKey, store, turn, prepared, capture }, problems) {
  const session = sessionAfter(chat.acp, { cfg: ctx.cfg, sessionKey, prepared })
  const work = backendWork(capture)
  const steps = [
    ['tool entries', () => chat.config.toolEntries && recordToolEntries({ store, turn, session }, work.tools)],
    ['reply', () => recordOutcome({ store, turn, session, capture })],
    ['refresh mark', () => prepared?.refresh && store.clearRefresh(prepared.refresh)],
    ['compaction', () => chat.config.compactionRefresh && markSeen(chat, { store, session, sessionKey }, work)],
  ]
  for (const [what, step] of steps) {
    try {
      await step()
    } catch (error) {
      problems.push(`${what} not written to ${quoteArg(store.folder)} (${oneLine(error)})`)
    }
  }
}

/**
 * A refresh the logged request consumed, but whose prompt OpenClaw did not send (the turn left
 * to acpx, which sends the plain message): marked again for the next turn.
 */
async function markAgain(store, prepared, problems) {
  try {
    await store.markRefresh(prepared.currentSession, 'refresh_not_sent')
  } catch (error) {
    problems.push(`refresh not marked again in ${quoteArg(store.folder)} (${oneLine(error)})`)
  }
}

/** Marks what the turn showed of a compaction, and says so in one line. */
async function markSeen(chat, { store, session, sessionKey }, work) {
  const marked = await markCompaction({ store, session }, work)
  if (marked.length > 0)
    chat.logger.info(
      `${PLUGIN_ID}: ${sessionKey}: backend session ${session} compacted (${marked.join(', ')}): its next turn refreshes`,
    )
}

/** The turn's one line: reload and refresh at info, continuous at debug; problems as a warning. */
async function reportTurn(chat, { sessionKey, result, prepared, capture }, problems, redact) {
  if (result?.handled && prepared && problems.length === 0) {
    const { report, reload, refresh, currentSession } = prepared
    const kind = reload ? 'reload' : refresh ? 'refresh' : 'continuous'
    const line =
      `${PLUGIN_ID}: ${sessionKey}: ${kind} turn to backend session ${currentSession ?? '(new)'}: ` +
      `${report.entriesInjected} entries, ${report.chars} chars${capture?.noticeShown ? ', notice shown' : ''}`
    if (kind === 'continuous') chat.logger.debug?.(line)
    else chat.logger.info(line)
  }
  if (problems.length > 0) chat.logger.warn(await redact(`${PLUGIN_ID}: ${sessionKey}: ${problems.join('; ')}`))
}

async function runTurn(chat, { event, ctx, sessionKey, live, progress }) {
  const turn = { id: crypto.randomUUID(), startedAt: new Date().toISOString() }
  const problems = []
  const { redact, maskPatterns } = await chat.redactorReady
  const store = await openStore(chat, sessionKey, maskPatterns, problems)
  const { prepared, requestLogged } = store
    ? await prepareAndLog(chat, { event, ctx, sessionKey, live, store, turn }, problems)
    : {}
  const noted = [sessionKey, event.sessionKey].map((key) => chat.userResets.delete(key)).includes(true)
  const askedForNew = noted || prepared?.rowRestarted === true
  const notice = reloadNoticeFor(chat.config, prepared, askedForNew)
  const dispatched = await dispatch(chat, { event, ctx, sessionKey, progress, prepared, notice }, problems)
  if (!dispatched?.result?.handled && prepared?.refresh && requestLogged) await markAgain(store, prepared, problems)
  if (!dispatched) {
    chat.logger.warn(await redact(`${PLUGIN_ID}: ${sessionKey}: ${problems.join('; ')}`))
    return undefined
  }
  const { result, capture } = dispatched
  if (result?.handled && requestLogged)
    await recordTurn(chat, { ctx, sessionKey, store, turn, prepared, capture }, problems)
  if (prepared?.indexBehind) warmIndexAfter(chat.upkeep, sessionKey, store)
  if (result?.handled && prepared) {
    const unrestored = await chat.transcript.restoreWritten({ cfg: ctx.cfg, sessionKey, prompt: prepared.prompt, live })
    if (unrestored) problems.push(unrestored)
  }
  await reportTurn(chat, { sessionKey, result, prepared, capture }, problems, redact)
  return result
}

/**
 * The ACP session a `reply_dispatch` event is for and its live message, or undefined for a
 * turn the plugin leaves alone: a command (`/new` noted first), a denied send, an ignored
 * key, a session that is not ACP or is stale, a key or agent the settings do not name, no text.
 */
function turnOf(chat, event, ctx) {
  if (!event?.sessionKey || !event.ctx || event.sendPolicy === 'deny') return undefined
  if (looksLikeCommand(event.ctx)) {
    if (asksForNewSession(event.ctx)) chat.userResets.add(event.sessionKey)
    return undefined
  }
  if (ignored(chat.config, event.sessionKey)) return undefined
  let resolution
  try {
    resolution = chat.acp.getAcpSessionManager().resolveSession({ cfg: ctx.cfg, sessionKey: event.sessionKey })
  } catch {
    return undefined
  }
  if (resolution?.kind !== 'ready') return undefined
  const sessionKey = resolution.sessionKey ?? event.sessionKey
  if (ignored(chat.config, sessionKey) || !appliesTo(chat.config, { sessionKey, agent: resolution.meta?.agent }))
    return undefined
  const live = liveMessage(event.ctx)
  return live ? { sessionKey, live } : undefined
}

/** The `reply_dispatch` handler. */
function onReplyDispatch(chat, event, ctx) {
  const taken = turnOf(chat, event, ctx)
  if (!taken) return undefined
  if (!chat.firstTurnSeen) {
    chat.firstTurnSeen = true
    chat.onFirstTurn?.()
  }
  // Whatever goes wrong in here, a turn OpenClaw already took is claimed: an error thrown
  // to the hook runner would hand the turn to acpx, which would send it again.
  const progress = { dispatched: false }
  const { sessionKey, live } = taken
  return chat.queue.run(sessionKey, () =>
    runTurn(chat, { event, ctx, sessionKey, live, progress }).catch(async (error) => {
      await warnMasked(chat, `${PLUGIN_ID}: ${sessionKey}: ${oneLine(error)}`)
      return progress.dispatched ? claimed(ctx) : undefined
    }),
  )
}

/** The `reply_payload_sending` handler: observes routed replies (and their tool payloads), changes nothing. */
function onReplyPayloadSending(chat, event) {
  const capture = event?.sessionKey ? chat.inFlight.get(event.sessionKey) : undefined
  if (capture && ['block', 'final', 'tool'].includes(event.kind)) capture.keepRouted(event.kind, event.payload)
  return undefined
}

/** The `before_reset` handler: `/new` or a reset the user asked for; its next reload says nothing. */
function onBeforeReset(chat, _event, ctx) {
  if (typeof ctx?.sessionKey === 'string') chat.userResets.add(ctx.sessionKey)
  return undefined
}

/**
 * @param {object} deps
 * @param {object} deps.config   resolveConfig()'s settings
 * @param {object} deps.acp      `openclaw/plugin-sdk/acp-runtime`
 * @param {object} deps.logger   the plugin API's logger
 * @param {object|Promise<object>} [deps.redactor] `createRedactor()`'s masker (default: the built-in patterns
 *   and `config.redactPatterns`); its `redact(text)` masks on the thread pool
 * @param {Function} [deps.onFirstTurn] runs once, at the first turn this plugin takes
 * @param {boolean} [deps.logSearchTool] a backend can call chat_log_search: a reload says so in one line
 */
export function createPersistentChat({ config, acp, logger, redactor, onFirstTurn, logSearchTool = false }) {
  const queue = createKeyedQueue()
  const redactorReady = Promise.resolve(redactor ?? createRedactor({ patterns: config.redactPatterns }))
  const chat = {
    config,
    acp,
    logger,
    logSearchTool,
    queue,
    redactorReady,
    onFirstTurn,
    firstTurnSeen: false,
    transcript: createTranscriptFix(),
    /** session key -> the capture of its turn in flight, for replies routed past the dispatcher */
    inFlight: new Map(),
    /** session keys whose user asked for a new backend session (`/new`, a reset) since their last turn */
    userResets: new Set(),
    upkeep: createUpkeep({ config, queue, logger, redactorReady }),
  }
  return {
    onReplyDispatch: (event, ctx) => onReplyDispatch(chat, event, ctx),
    onBeforeMessageWrite: chat.transcript.onBeforeMessageWrite,
    onReplyPayloadSending: (event) => onReplyPayloadSending(chat, event),
    onBeforeReset: (event, ctx) => onBeforeReset(chat, event, ctx),
  }
}
