// The store's side of one turn: the prompt prepared (ChatStore#prepareTurn), the user's message
// logged before the dispatch, the backend's work and the reply logged after it, and a compaction
// the turn showed marked for the next turn. Every byte goes through the chat store; these
// functions decide what to ask of it.
import { readToolPayload, replySaysCompacted } from './backend-signals.mjs'
import { userTimeZone, withTimeZone } from './time-zone.mjs'
import { backendSessionOf, turnMetadata } from './turn-context.mjs'

/** What last-injected-preprompt.txt keeps of a live message beyond the prompt cap. */
const LAST_PROMPT_LIVE_SLACK = 64 * 1024
/** The backend's tool entries logged per turn at most (a runaway turn does not flood the log). */
export const MAX_TOOL_ENTRIES_PER_TURN = 200

/** The id of the turn's user entry: what consumes a refresh mark (see crates/core/src/store/refresh.rs). */
export const userEntryId = (turn) => `${turn.id}:user`

/**
 * Reads the log, tells a reload, a refresh or a continuous turn apart, builds and saves the
 * prompt: one call on the thread pool (ChatStore#prepareTurn). OpenClaw's runtime handle is
 * ensured first: after a gateway restart that is the resume, and a failed resume shows up
 * here as a new backend session, before the prompt is built.
 */
export async function prepareTurn({ acp, config, logSearchTool }, { cfg, sessionKey, store, live, ctx, turn }) {
  const status = await acp.getAcpSessionManager().getSessionStatus({ cfg, sessionKey })
  const currentSession = backendSessionOf(status?.identity)
  const rowRestarted = await sessionRowRestarted(acp, store, { cfg, sessionKey })
  // The recall reads the live message's time words ("what did we decide yesterday?") at the
  // turn's time in the user's zone (plugin/time-zone.mjs).
  const now = Date.parse(turn.startedAt)
  const { report, reload, refresh, previousSession, indexBehind } = await withTimeZone(
    userTimeZone(cfg),
    now,
    (timeZone) =>
      store.prepareTurn({
        userMessage: live,
        ...(currentSession ? { currentSession } : {}),
        ...(config.compactionRefresh ? { refreshEntryId: userEntryId(turn) } : {}),
        turnMetadata: turnMetadata(config, ctx, turn),
        continuousEntries: config.continuousEntries,
        reloadEntries: config.reloadEntries,
        refreshEntries: config.refreshEntries,
        recallEntries: config.reloadRecall,
        logSearchTool,
        maxChars: config.promptMaxChars,
        summaryMaxChars: config.summaryMaxChars,
        lastPromptMaxChars: config.promptMaxChars + LAST_PROMPT_LIVE_SLACK,
        now,
        timeZone,
      }),
  )
  return { prompt: report.prompt, report, reload, refresh, previousSession, currentSession, indexBehind, rowRestarted }
}

/**
 * Whether OpenClaw's session row of the chat started anew since the chat's last turn: its id
 * (a new one on /new and reset to 2026.6) or its start time (set again by a reset from 2026.8)
 * changed. Then a new backend session is one the user (or the gateway's reset policy) asked for,
 * not one the backend lost. Recorded through the chat store (ChatStore#noteSessionRow), so a
 * gateway restarted in between still tells; undefined when the row cannot be read.
 */
async function sessionRowRestarted(acp, store, { cfg, sessionKey }) {
  let row
  try {
    row = acp.readAcpSessionEntry({ cfg, sessionKey })?.entry
  } catch {
    return undefined
  }
  if (!row?.sessionId) return undefined
  const signature = `${row.sessionId}|${row.sessionStartedAt ?? ''}`
  try {
    const previous = await store.noteSessionRow(signature)
    return previous !== undefined && previous !== signature
  } catch {
    // Not known: the turn goes on (a notice may show once more than asked for).
    return undefined
  }
}

/**
 * The user's message, in the log before the turn is dispatched: a gateway that dies while the
 * backend works still has it (the next reload shows it, awaiting its reply). On a refresh,
 * this line is what consumes the refresh mark. Masked by the store as it writes it.
 */
export async function recordRequest({ store, live, turn, prepared }) {
  await store.appendEntry({
    ts: turn.startedAt,
    role: 'user',
    text: live,
    session: prepared?.currentSession,
    id: userEntryId(turn),
  })
}

/** The backend session after the turn (OpenClaw's session entry), else the one before it. */
export function sessionAfter(acp, { cfg, sessionKey, prepared }) {
  let session
  try {
    session = backendSessionOf(acp.readAcpSessionEntry({ cfg, sessionKey })?.acp?.identity)
  } catch {
    // The pre-turn identity below is the next best answer.
  }
  return session ?? prepared?.currentSession
}

/** The reply and the turn's status, as their own line after the turn: append-only. */
export async function recordOutcome({ store, turn, session, capture }) {
  await store.appendEntry({
    ts: new Date().toISOString(),
    role: 'assistant',
    text: capture.replyText || '(no reply text)',
    session,
    status: capture.status ?? 'unknown',
    id: `${turn.id}:assistant`,
  })
}

/**
 * What the turn's tool payloads and reply say of the backend's work: the tool summaries to log,
 * the compaction signals, and the last context size reported.
 */
export function backendWork(capture) {
  const tools = []
  const signals = new Set()
  let used
  for (const text of capture.toolTexts) {
    const seen = readToolPayload(text)
    if (seen.used !== undefined) used = seen.used
    if (seen.compaction) signals.add(seen.compaction)
    if (seen.tool) tools.push(seen.tool)
  }
  if (replySaysCompacted(capture.replyText)) signals.add('agent_text')
  return { tools, signals: [...signals], used }
}

/** `toolEntries`: each tool summary as an entry of its own role, masked and capped by the store. */
export async function recordToolEntries({ store, turn, session }, tools) {
  for (const [index, text] of tools.slice(0, MAX_TOOL_ENTRIES_PER_TURN).entries()) {
    await store.appendEntry({
      ts: new Date().toISOString(),
      role: 'tool',
      text,
      session,
      id: `${turn.id}:tool:${index + 1}`,
    })
  }
}

/**
 * `compactionRefresh`: a compaction the turn showed, marked for the backend session's next turn
 * (ChatStore#markRefresh, synced); the turn's last context size noted (ChatStore#noteUsage marks
 * a drop by more than half). Returns the signals that marked a refresh.
 */
export async function markCompaction({ store, session }, work) {
  if (!session) return []
  const marked = []
  for (const signal of work.signals) {
    await store.markRefresh(session, signal)
    marked.push(signal)
  }
  if (work.used !== undefined) {
    const note = await store.noteUsage(session, work.used)
    if (note.mark) marked.push('usage_drop')
  }
  return marked
}
