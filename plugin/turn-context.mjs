// What the plugin reads from, and hands back to, OpenClaw's turn: the live message in the inbound
// context, whether it is a command, the context with the prompt in it, the backend session an
// ACP identity names, the turn metadata, and the hook result for a turn OpenClaw took.
import { TURN_METADATA_FIELDS } from './config.mjs'

/** OpenClaw's inbound context fields holding the user's text, in the order it reads them. */
const COMMAND_TEXT_FIELDS = ['BodyForCommands', 'CommandBody', 'RawBody', 'Body']
/** The same, with the text for the agent first (`agentText` from 2026.8 on, `BodyForAgent` the one before). */
const AGENT_TEXT_FIELDS = ['agentText', 'BodyForAgent', ...COMMAND_TEXT_FIELDS]
/** The commands that start a new backend session at the user's request. */
const RESET_COMMANDS = new Set(['/new', '/reset'])

/** The text OpenClaw would send the backend: the first of its fields that holds one. */
export function liveMessage(ctx) {
  for (const key of AGENT_TEXT_FIELDS) {
    const value = ctx?.[key]
    if (typeof value === 'string' && value.trim()) return value.trim()
  }
  return ''
}

/** The command text of the inbound context (its first text field), trimmed; '' when none. */
function commandText(ctx) {
  for (const key of COMMAND_TEXT_FIELDS) {
    const value = ctx?.[key]
    if (typeof value === 'string') return value.trim()
  }
  return ''
}

/**
 * A message OpenClaw may treat as a command (`/new`, `/acp …`, `/stop`, `!cmd`, aliases):
 * left alone, so the command runs exactly as without the plugin and nothing waits on a turn.
 */
export function looksLikeCommand(ctx) {
  const text = commandText(ctx)
  return text.startsWith('/') || text.startsWith('!')
}

/** `/new` or `/reset` (with or without arguments): the user asks for a new backend session. */
export function asksForNewSession(ctx) {
  return RESET_COMMANDS.has(commandText(ctx).split(/\s+/, 1)[0].toLowerCase())
}

/**
 * A copy of the inbound context whose text for the agent is the prompt. The hook's own
 * context is left as it is: the next handler (acpx) must see the original turn.
 */
export function withPrompt(ctx, prompt) {
  return { ...ctx, BodyForAgent: prompt, ...(typeof ctx.agentText === 'string' ? { agentText: prompt } : {}) }
}

/** The backend session an ACP identity names: the id OpenClaw resumes (agent's first). */
export function backendSessionOf(identity) {
  return identity?.agentSessionId || identity?.acpxSessionId || undefined
}

/** The hook result for a turn OpenClaw took whose own result is not known. */
export function claimed(ctx) {
  let counts = { tool: 0, block: 0, final: 0 }
  try {
    counts = ctx.dispatcher?.getQueuedCounts?.() ?? counts
  } catch {
    // The zero counts stand.
  }
  return { handled: true, queuedFinal: false, counts }
}

/** The Turn Metadata block's fields (`turnMetadata` setting), or undefined when none has a value. */
export function turnMetadata(config, ctx, turn) {
  const fields = {}
  for (const field of config.turnMetadata) {
    const value = TURN_METADATA_FIELDS[field](ctx, turn)
    if (value !== undefined && value !== null && String(value).trim()) fields[field] = String(value)
  }
  return Object.keys(fields).length > 0 ? fields : undefined
}
