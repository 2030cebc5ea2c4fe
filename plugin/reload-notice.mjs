// `reloadNotice`: one short line before the reply a person sees when the backend started a new
// session they did not ask for, saying that its context was restored from the chat's log. The
// plugin alone decides it (from the backend's identity, never from any text), the capture puts
// it before the first reply text (plugin/turn-capture.mjs), and it is neither logged nor
// injected: the log keeps the backend's reply as it was.

/** The mark the line starts with, as OpenClaw marks its own system lines. */
const MARK = 'ℹ️'

/** Whether the prompt shows the summary: its heading, with the prompt's nonce (structure only). */
function showsSummary(report) {
  return Boolean(report.nonce) && report.prompt.includes(`## Rolling Continuity Summary ${report.nonce}\n`)
}

/** The notice for a prepared reload: how many entries, and whether the summary went with them. */
export function reloadNoticeLine(report) {
  const entries = report.entriesInjected + (report.recalledLines?.length ?? 0)
  const counted = `${entries} ${entries === 1 ? 'entry' : 'entries'}`
  const restored = showsSummary(report) ? `${counted} and the continuity summary` : counted
  return `${MARK} The backend started a new session; its context was restored from this chat's log (${restored}).`
}

/**
 * The notice for this turn, or undefined: only on a reload of a chat that had a backend session
 * before (not its first turn, not an import's first turn), not right after the user's own
 * `/new` or `/reset`, and only with `reloadNotice` on.
 */
export function reloadNoticeFor(config, prepared, userAskedForNew) {
  if (!config.reloadNotice || !prepared?.reload || !prepared.previousSession || userAskedForNew) return undefined
  return reloadNoticeLine(prepared.report)
}
