// What happened to a turn that OpenClaw's ACP dispatch ran: its outcome and the reply text.
//
// `tryDispatchAcpReplyHook` reports neither; it hands both to the hook context it is given:
// the outcome to `recordProcessed("completed", { reason })` (`acp_dispatch`, or
// `acp_error:<code>`, `acp_aborted`, ...), the reply to the dispatcher (`sendBlockReply`,
// `sendFinalReply`) or, for a reply routed to the originating channel, to the
// `reply_payload_sending` hook. This module wraps that context and keeps what passes.

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

export function createTurnCapture() {
  const blocks = []
  const finals = []
  let reason
  let signs = 0

  const keep = (kind, payload) => {
    signs += 1
    const text = replyText(payload)
    if (text === undefined) return
    if (kind === 'block') blocks.push(text)
    else if (kind === 'final') finals.push(text)
  }

  return {
    /** The hook context to pass down: the same, with the two seams wrapped. */
    wrapContext(ctx) {
      const dispatcher = ctx.dispatcher
      const wrapped = dispatcher
        ? Object.create(dispatcher, {
            sendBlockReply: {
              value: (payload, ...rest) => {
                keep('block', payload)
                return dispatcher.sendBlockReply(payload, ...rest)
              },
            },
            sendFinalReply: {
              value: (payload, ...rest) => {
                keep('final', payload)
                return dispatcher.sendFinalReply(payload, ...rest)
              },
            },
            sendToolResult: {
              value: (payload, ...rest) => {
                signs += 1
                return dispatcher.sendToolResult(payload, ...rest)
              },
            },
          })
        : dispatcher
      return {
        ...ctx,
        dispatcher: wrapped,
        recordProcessed: (outcome, details, ...rest) => {
          signs += 1
          if (reason === undefined) reason = details?.reason
          return ctx.recordProcessed?.(outcome, details, ...rest)
        },
        onReplyStart: (...args) => {
          signs += 1
          return ctx.onReplyStart?.(...args)
        },
      }
    },
    /** A payload seen by `reply_payload_sending` for this turn's routed reply. */
    keepRouted(kind, payload) {
      keep(kind, payload)
    },
    /**
     * The reply as the user got it: the streamed blocks, and any final text that is not
     * just those blocks again (an error after a partial answer, for instance).
     */
    get replyText() {
      const streamed = blocks.join('\n')
      const extra = finals.filter((text) => text !== streamed)
      return [streamed, ...extra].filter(Boolean).join('\n\n')
    },
    get status() {
      return statusFromReason(reason)
    },
    /** Whether OpenClaw got as far as the ACP turn (anything above happened). */
    get reachedDispatch() {
      return signs > 0
    },
  }
}
