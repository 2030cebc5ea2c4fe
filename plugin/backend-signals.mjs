// What the plugin can see of the backend's own work during a turn, and which of it says that the
// backend compacted its context. Everything here reaches the plugin through the dispatcher that
// OpenClaw's ACP dispatch delivers to (plugin/turn-capture.mjs wraps it) or the
// `reply_payload_sending` hook of a routed reply: OpenClaw renders the backend's tool calls and
// status events as tool payloads (`sendToolResult`, text only) when the operator shows them
// (`acp.stream.tagVisibility` and a verbose session), and its text as the reply. Nothing else of an
// ACP turn reaches a plugin on any release of the matrix: the per-release table is
// lib/compaction-signals.js (shared with `doctor`), checked on each release by
// __test__/e2e/plugin.continuity.test.js; docs/plugin.md, "When the backend forgets".
import { CODEX_COMPACTED_TEXT, COMPACT_TOOL_TITLE } from './lib.mjs'

export { compactionSignalLine, SEAMS, SIGNAL_SEAMS, SIGNALS } from './lib.mjs'

const FAILED_STATUS = /\bstatus=(failed|cancelled|canceled)\b/i
const USAGE = /^(?:\S+\s+)?usage updated: (\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)\s*$/

/**
 * What a tool payload's text (as OpenClaw renders a tool call or a status event) says: a
 * compaction tool call, a usage report, or a tool summary to log. Only the dispatcher's tool
 * payloads come here: no message text does.
 */
export function readToolPayload(text) {
  if (typeof text !== 'string' || !text.trim()) return {}
  const line = text.trim()
  const usage = USAGE.exec(line)
  if (usage) return { used: Number(usage[1]) }
  if (line.includes(COMPACT_TOOL_TITLE) && !FAILED_STATUS.test(line)) return { compaction: 'tool_call', tool: line }
  return { tool: line }
}

/**
 * Whether the reply says the backend compacted: older codex writes CODEX_COMPACTED_TEXT as a
 * line of its own. (A backend could be talked into writing it: the cost is one refresh.)
 */
export function replySaysCompacted(reply) {
  return typeof reply === 'string' && reply.split('\n').some((line) => line.trim() === CODEX_COMPACTED_TEXT)
}
