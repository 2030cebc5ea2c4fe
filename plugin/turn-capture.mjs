// What happened to a turn that OpenClaw's ACP dispatch ran: its outcome and the reply text.
//
// `tryDispatchAcpReplyHook` reports neither; it hands both to the hook context it is given:
// the outcome to `recordProcessed("completed", { reason })` (`acp_dispatch`, or
// `acp_error:<code>`, `acp_aborted`, ...), the reply to the dispatcher (`sendBlockReply`,
// `sendFinalReply`) or, for a reply routed to the originating channel, to the
// `reply_payload_sending` hook. This module wraps that context and keeps what passes: the reply,
// and the tool payloads OpenClaw renders from the backend's tool calls and status events (shown
// when the operator shows tool summaries). Given a notice, it puts it before the first reply text
// the person sees; what it keeps of the reply is the backend's text, without the notice.

/** The log's `status` for a `recordProcessed` reason: `ok`, or the ACP error code. */
export function statusFromReason(reason) {
  if (reason === 'acp_dispatch') return 'ok'
  if (typeof reason !== 'string') return undefined
  if (reason.startsWith('acp_error:')) return reason.slice('acp_error:'.length).toUpperCase() || 'ACP_TURN_FAILED'
  if (reason === 'acp_aborted') return 'cancelled'
  return undefined
}

function replyText(payload) {
  if (!payload || typeof payload.text !== 'string') return undefined
  if (payload.isReasoning === true || payload.isStatusNotice === true) return undefined
  return payload.text.trim() ? payload.text : undefined
}

/** `payload` with `notice` on a line of its own before its text. */
function withNotice(payload, notice) {
  return { ...payload, text: `${notice}\n\n${payload.text}` }
}

/**
 * The payload to send on: the first with reply text carries the notice, and so does a final
 * that repeats the streamed blocks (releases to 2026.5 send one; it must stay the same text).
 */
function shownPayload(state, kind, payload) {
  const text = replyText(payload)
  if (text === undefined) return payload
  if (state.noticeDue) {
    state.noticeDue = false
    return withNotice(payload, state.notice)
  }
  const repeatsBlocks = kind === 'final' && state.notice && state.blocks.length > 0 && text === state.blocks.join('\n')
  return repeatsBlocks ? withNotice(payload, state.notice) : payload
}

function keepPayload(state, kind, payload) {
  state.signs += 1
  const text = replyText(payload)
  if (text === undefined) return
  if (kind === 'block') state.blocks.push(text)
  else if (kind === 'final') state.finals.push(text)
}

function keepTool(state, payload) {
  if (typeof payload?.text === 'string' && payload.text.trim()) state.toolTexts.push(payload.text)
}

/** The dispatcher with its three sending seams wrapped: what passes is kept, the notice added. */
function wrapDispatcher(state, dispatcher) {
  const reply = (kind, send) => ({
    value: (payload, ...rest) => {
      const sent = shownPayload(state, kind, payload)
      keepPayload(state, kind, payload)
      return send.call(dispatcher, sent, ...rest)
    },
  })
  return Object.create(dispatcher, {
    sendBlockReply: reply('block', dispatcher.sendBlockReply),
    sendFinalReply: reply('final', dispatcher.sendFinalReply),
    sendToolResult: {
      value: (payload, ...rest) => {
        state.signs += 1
        keepTool(state, payload)
        return dispatcher.sendToolResult(payload, ...rest)
      },
    },
  })
}

/** The hook context to pass down: the same, with the dispatcher and the outcome seams wrapped. */
function wrapContext(state, ctx) {
  return {
    ...ctx,
    dispatcher: ctx.dispatcher ? wrapDispatcher(state, ctx.dispatcher) : ctx.dispatcher,
    recordProcessed: (outcome, details, ...rest) => {
      state.signs += 1
      if (state.reason === undefined) state.reason = details?.reason
      return ctx.recordProcessed?.(outcome, details, ...rest)
    },
    onReplyStart: (...args) => {
      state.signs += 1
      return ctx.onReplyStart?.(...args)
    },
  }
}

/**
 * @param {object} [options]
 * @param {string} [options.notice] a line shown before the first reply text (never kept as reply)
 */
export function createTurnCapture({ notice } = {}) {
  const hasNotice = typeof notice === 'string' && notice.length > 0
  const state = {
    blocks: [],
    finals: [],
    toolTexts: [],
    reason: undefined,
    signs: 0,
    notice: hasNotice ? notice : undefined,
    noticeDue: hasNotice,
  }
  return {
    /** The hook context to pass down: the same, with the seams wrapped. */
    wrapContext: (ctx) => wrapContext(state, ctx),
    /** A payload seen by `reply_payload_sending` for this turn's routed reply. */
    keepRouted(kind, payload) {
      if (kind === 'tool') keepTool(state, payload)
      else keepPayload(state, kind, payload)
    },
    /** The tool payloads' texts, in order: the backend's tool calls and status events as OpenClaw rendered them. */
    get toolTexts() {
      return [...state.toolTexts]
    },
    /** Whether the notice was put before a reply text. */
    get noticeShown() {
      return hasNotice && !state.noticeDue
    },
    /**
     * The reply as the user got it: the streamed blocks, and any final text that is not
     * just those blocks again (an error after a partial answer, for instance).
     */
    get replyText() {
      const streamed = state.blocks.join('\n')
      const extra = state.finals.filter((text) => text !== streamed)
      return [streamed, ...extra].filter(Boolean).join('\n\n')
    },
    get status() {
      return statusFromReason(state.reason)
    },
    /** Whether OpenClaw got as far as the ACP turn (anything above happened). */
    get reachedDispatch() {
      return state.signs > 0
    },
  }
}
