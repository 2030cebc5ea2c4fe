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
import crypto from 'node:crypto'

import { appliesTo, ignored, PLUGIN_ID, TURN_METADATA_FIELDS } from './config.mjs'
import { createKeyedQueue } from './keyed-queue.mjs'
import { oneLine, quoteArg } from './lib.mjs'
import { createRedactor } from './redact.mjs'
import { openSessionFolder } from './state-files.mjs'
import { userTimeZone, withTimeZone } from './time-zone.mjs'
import { createTranscriptFix } from './transcript-fix.mjs'
import { createTurnCapture } from './turn-capture.mjs'

const DAY_MS = 24 * 60 * 60 * 1000

/** Entries read from the log per turn: enough to find the current backend session in it. */
const MIN_LOG_WINDOW = 50

/** OpenClaw's inbound context fields holding the user's text, in the order it reads them. */
const COMMAND_TEXT_FIELDS = ['BodyForCommands', 'CommandBody', 'RawBody', 'Body']
/** The same, with the text for the agent first (`agentText` from 2026.8 on, `BodyForAgent` the one before). */
const AGENT_TEXT_FIELDS = ['agentText', 'BodyForAgent', ...COMMAND_TEXT_FIELDS]

/** The text OpenClaw would send the backend: the first of its fields that holds one. */
function liveMessage(ctx) {
  for (const key of AGENT_TEXT_FIELDS) {
    const value = ctx?.[key]
    if (typeof value === 'string' && value.trim()) return value.trim()
  }
  return ''
}

/**
 * A message OpenClaw may treat as a command (`/new`, `/acp …`, `/stop`, `!cmd`, aliases):
 * left alone, so the command runs exactly as without the plugin and nothing waits on a turn.
 */
function looksLikeCommand(ctx) {
  for (const key of COMMAND_TEXT_FIELDS) {
    const value = ctx?.[key]
    if (typeof value === 'string') {
      const text = value.trim()
      return text.startsWith('/') || text.startsWith('!')
    }
  }
  return false
}

/**
 * A copy of the inbound context whose text for the agent is the prompt. The hook's own
 * context is left as it is: the next handler (acpx) must see the original turn.
 */
function withPrompt(ctx, prompt) {
  return { ...ctx, BodyForAgent: prompt, ...(typeof ctx.agentText === 'string' ? { agentText: prompt } : {}) }
}

/** The backend session an ACP identity names: the id OpenClaw resumes (agent's first). */
export function backendSessionOf(identity) {
  return identity?.agentSessionId || identity?.acpxSessionId || undefined
}

/** The hook result for a turn OpenClaw took whose own result is not known. */
function claimed(ctx) {
  let counts = { tool: 0, block: 0, final: 0 }
  try {
    counts = ctx.dispatcher?.getQueuedCounts?.() ?? counts
  } catch {
    // The zero counts stand.
  }
  return { handled: true, queuedFinal: false, counts }
}

function turnMetadata(config, ctx, turn) {
  const fields = {}
  for (const field of config.turnMetadata) {
    const value = TURN_METADATA_FIELDS[field](ctx, turn)
    if (value !== undefined && value !== null && String(value).trim()) fields[field] = String(value)
  }
  return Object.keys(fields).length > 0 ? fields : undefined
}

/** What last-injected-preprompt.txt keeps of a live message beyond the prompt cap. */
const LAST_PROMPT_LIVE_SLACK = 64 * 1024

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
  const transcript = createTranscriptFix()
  /** session key -> the capture of its turn in flight, for replies routed past the dispatcher */
  const inFlight = new Map()
  const redactorReady = Promise.resolve(redactor ?? createRedactor({ patterns: config.redactPatterns }))
  let firstTurnSeen = false
  /** chat folder -> the UTC day its `retentionDays` rule last ran (once a day a chat, per gateway run) */
  const retainedOn = new Map()
  /** chat folders whose search index is being caught up (ChatStore#warmIndex) */
  const warming = new Set()

  /**
   * A reload whose recall found the chat's search index far behind its log (its first reload
   * after an import or an upgrade, with a large log: `indexBehind`) recalled nothing rather
   * than hold the prompt for the build. The index is caught up after the turn, on the thread
   * pool and outside the chat's queue: the next turn neither waits for it nor builds it twice
   * (its recall passes while the build runs), and the reload after it recalls.
   */
  function warmIndexAfter(sessionKey, store) {
    if (warming.has(store.folder)) return
    warming.add(store.folder)
    store
      .warmIndex()
      .catch(async (error) => {
        const line = `${PLUGIN_ID}: ${sessionKey}: search index not built (${oneLine(error)})`
        logger.warn(await redactorReady.then(({ redact }) => redact(line)).catch(() => line))
      })
      .finally(() => warming.delete(store.folder))
  }

  /**
   * `retentionDays`: at a chat's first turn of a day, its entries older than that many days
   * removed (ChatStore#forget: the log rewritten under the folder's lock, derived files with
   * it). Queued behind the turn, never awaited by it: the reply is not held up, and the next
   * turn of the chat waits for the rewrite as it waits for any earlier turn.
   */
  function scheduleRetention(sessionKey, store) {
    const days = config.retentionDays
    const today = new Date().toISOString().slice(0, 10)
    if (!days || retainedOn.get(store.folder) === today) return
    retainedOn.set(store.folder, today)
    queue
      .run(sessionKey, async () => {
        const result = await store.forget({ before: Date.now() - days * DAY_MS, apply: true })
        if (result.removedLines > 0)
          logger.info(
            `${PLUGIN_ID}: ${sessionKey}: retentionDays ${days}: removed ${result.removedLines} log entries older than ${days} day(s)`,
          )
      })
      .catch(async (error) => {
        const line = `${PLUGIN_ID}: ${sessionKey}: retentionDays: nothing removed (${oneLine(error)})`
        logger.warn(await redactorReady.then(({ redact }) => redact(line)).catch(() => line))
      })
  }

  /** Reads the log, tells a reload from a continuous turn, builds and saves the prompt. */
  async function prepare({ cfg, sessionKey, store, live, ctx, turn }) {
    // Ensures OpenClaw's runtime handle first: after a gateway restart that is the resume,
    // and a failed resume shows up here as a new backend session, before the prompt is built.
    const status = await acp.getAcpSessionManager().getSessionStatus({ cfg, sessionKey })
    const currentSession = backendSessionOf(status?.identity)
    // One call on the pool (ChatStore#prepareTurn): what the backend holds decides reload or
    // continuous (a session with no entry in the log window is new to it: first turn, failed
    // resume, /new, reset, backend restarted without resume); the entries masked again as read
    // (a log of an earlier release holds <private> spans and its own masks); on a reload the
    // summary rebuilt, masked and stored; on a reload the log searched for the live message
    // (the recall block, `reloadRecall`); the prompt built; its debug copy written.
    // The recall reads the live message's time words ("what did we decide yesterday?") at the
    // turn's time in the user's zone (plugin/time-zone.mjs).
    const now = Date.parse(turn.startedAt)
    const { report, reload, indexBehind } = await withTimeZone(userTimeZone(cfg), now, (timeZone) =>
      store.prepareTurn({
        userMessage: live,
        ...(currentSession ? { currentSession } : {}),
        turnMetadata: turnMetadata(config, ctx, turn),
        continuousEntries: config.continuousEntries,
        reloadEntries: config.reloadEntries,
        recallEntries: config.reloadRecall,
        logSearchTool,
        maxChars: config.promptMaxChars,
        window: Math.max(config.reloadEntries ?? 0, MIN_LOG_WINDOW),
        summaryMaxChars: config.summaryMaxChars,
        lastPromptMaxChars: config.promptMaxChars + LAST_PROMPT_LIVE_SLACK,
        now,
        timeZone,
      }),
    )
    return { prompt: report.prompt, report, reload, currentSession, indexBehind }
  }

  /**
   * The user's message, in the log before the turn is dispatched: a gateway that dies
   * while the backend works still has it (the next reload shows it, awaiting its reply).
   */
  async function recordRequest({ store, live, turn, prepared }) {
    // Masked by the store as it writes it.
    await store.appendEntry({
      ts: turn.startedAt,
      role: 'user',
      text: live,
      session: prepared?.currentSession,
      id: `${turn.id}:user`,
    })
  }

  /** The reply and the turn's status, as their own line after the turn: append-only. */
  async function recordOutcome({ cfg, sessionKey, store, turn, prepared, capture }) {
    let session
    try {
      session = backendSessionOf(acp.readAcpSessionEntry({ cfg, sessionKey })?.acp?.identity)
    } catch {
      // The pre-turn identity below is the next best answer.
    }
    session ??= prepared?.currentSession
    await store.appendEntry({
      ts: new Date().toISOString(),
      role: 'assistant',
      text: capture.replyText || '(no reply text)',
      session,
      status: capture.status ?? 'unknown',
      id: `${turn.id}:assistant`,
    })
  }

  async function runTurn({ event, ctx, sessionKey, live, progress }) {
    const turn = { id: crypto.randomUUID(), startedAt: new Date().toISOString() }
    const problems = []
    const { redact, maskPatterns } = await redactorReady

    // The folder and every state file are checked before anything is read or written: a
    // symlink, FIFO, device, hard link or someone else's file there leaves this turn to the
    // plain message, with nothing read, written or logged.
    let store
    try {
      const opened = await openSessionFolder(config, sessionKey, { maskPatterns })
      store = opened.store
      scheduleRetention(sessionKey, store)
      if (opened.migratedFrom)
        logger.info(
          `${PLUGIN_ID}: ${sessionKey}: history moved from ${quoteArg(opened.migratedFrom)} to ${quoteArg(store.folder)}`,
        )
    } catch (error) {
      const unsafe = error?.code === 'ENOTREGULAR'
      problems.push(
        `${unsafe ? 'state refused' : 'state folder unusable'}, sent the plain message, the turn not logged (${oneLine(error)})`,
      )
    }

    let prepared
    if (store) {
      try {
        prepared = await prepare({ cfg: ctx.cfg, sessionKey, store, live, ctx: event.ctx, turn })
      } catch (error) {
        problems.push(`prompt not built, sent the plain message (${oneLine(error)})`)
      }
    }
    let requestLogged = false
    if (store) {
      try {
        await recordRequest({ store, live, turn, prepared })
        requestLogged = true
      } catch (error) {
        problems.push(`message not written to ${quoteArg(store.logPath)} (${oneLine(error)})`)
      }
    }

    const capture = createTurnCapture()
    const dispatchEvent = prepared ? { ...event, ctx: withPrompt(event.ctx, prepared.prompt) } : event
    const untrack = prepared ? transcript.expect(prepared.prompt, live) : () => {}
    const routed = Boolean(event.shouldRouteToOriginating && event.originatingChannel && event.originatingTo)
    const routedKeys = routed ? [...new Set([sessionKey, event.sessionKey, event.ctx?.SessionKey].filter(Boolean))] : []
    for (const key of routedKeys) inFlight.set(key, capture)

    let result
    try {
      progress.dispatched = true
      result = await acp.tryDispatchAcpReplyHook(dispatchEvent, capture.wrapContext(ctx))
    } catch (error) {
      if (!capture.reachedDispatch) {
        // acpx, next in line, sends the original message: the logged request stands (the
        // backend gets it), its reply is acpx's to deliver and is not in this log.
        problems.push(`dispatch failed before the turn started, left to acpx (${oneLine(error)})`)
        logger.warn(await redact(`${PLUGIN_ID}: ${sessionKey}: ${problems.join('; ')}`))
        return undefined
      }
      problems.push(`dispatch failed after OpenClaw took the turn, not sent again (${oneLine(error)})`)
      result = claimed(ctx)
    } finally {
      untrack()
      for (const key of routedKeys) if (inFlight.get(key) === capture) inFlight.delete(key)
    }

    if (result?.handled && requestLogged) {
      try {
        await recordOutcome({ cfg: ctx.cfg, sessionKey, store, turn, prepared, capture })
      } catch (error) {
        problems.push(`reply not written to ${quoteArg(store.logPath)} (${oneLine(error)})`)
      }
    }
    if (prepared?.indexBehind) warmIndexAfter(sessionKey, store)
    if (result?.handled && prepared) {
      const unrestored = await transcript.restoreWritten({ cfg: ctx.cfg, sessionKey, prompt: prepared.prompt, live })
      if (unrestored) problems.push(unrestored)
    }
    if (result?.handled && prepared && problems.length === 0) {
      const { report, reload, currentSession } = prepared
      const line =
        `${PLUGIN_ID}: ${sessionKey}: ${reload ? 'reload' : 'continuous'} turn to backend session ` +
        `${currentSession ?? '(new)'}: ${report.entriesInjected} entries, ${report.chars} chars`
      if (reload) logger.info(line)
      else logger.debug?.(line)
    }
    if (problems.length > 0) logger.warn(await redact(`${PLUGIN_ID}: ${sessionKey}: ${problems.join('; ')}`))
    return result
  }

  return {
    /** The `reply_dispatch` handler. */
    async onReplyDispatch(event, ctx) {
      if (!event?.sessionKey || !event.ctx || event.sendPolicy === 'deny' || looksLikeCommand(event.ctx))
        return undefined
      // An ignored session passes through untouched: acpx dispatches it as without the plugin.
      if (ignored(config, event.sessionKey)) return undefined
      let resolution
      try {
        resolution = acp.getAcpSessionManager().resolveSession({ cfg: ctx.cfg, sessionKey: event.sessionKey })
      } catch {
        return undefined
      }
      // Not an ACP session, or one OpenClaw reports as stale: nothing to add.
      if (resolution?.kind !== 'ready') return undefined
      const sessionKey = resolution.sessionKey ?? event.sessionKey
      if (ignored(config, sessionKey) || !appliesTo(config, { sessionKey, agent: resolution.meta?.agent }))
        return undefined
      const live = liveMessage(event.ctx)
      if (!live) return undefined
      if (!firstTurnSeen) {
        firstTurnSeen = true
        onFirstTurn?.()
      }
      // Whatever goes wrong in here, a turn OpenClaw already took is claimed: an error thrown
      // to the hook runner would hand the turn to acpx, which would send it again.
      const progress = { dispatched: false }
      return queue.run(sessionKey, () =>
        runTurn({ event, ctx, sessionKey, live, progress }).catch(async (error) => {
          const line = `${PLUGIN_ID}: ${sessionKey}: ${oneLine(error)}`
          logger.warn(await redactorReady.then(({ redact }) => redact(line)).catch(() => line))
          return progress.dispatched ? claimed(ctx) : undefined
        }),
      )
    },

    /** The `before_message_write` handler. */
    onBeforeMessageWrite: transcript.onBeforeMessageWrite,

    /** The `reply_payload_sending` handler: observes routed replies, changes nothing. */
    onReplyPayloadSending(event) {
      const capture = event?.sessionKey ? inFlight.get(event.sessionKey) : undefined
      if (capture && (event.kind === 'block' || event.kind === 'final')) capture.keepRouted(event.kind, event.payload)
      return undefined
    },
  }
}
