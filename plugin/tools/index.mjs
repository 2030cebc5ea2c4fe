// The chat-log tools, `chat_log_search` and `chat_log_get`: the calling session's own perpetual
// log, searched and read, for a backend that has only seen the last entries of it. Registered
// with `api.registerTool` in every registration mode: OpenClaw's plugin-tools MCP bridge
// (`plugins.entries.acpx.config.pluginToolsMcpBridge`) runs the plugin's `register` in its own
// process in 'tool-discovery' mode and serves them to the ACP backend from there.
//
// Each tool is bound, by the factory, to the session key OpenClaw gives the factory
// (`ctx.sessionKey`: from 2026.7.2-beta.4 the bridge passes the calling ACP session's key):
// no parameter names a chat, a path or a folder. The chat's folder is found read-only by the
// rule the turns use (openSessionFolder with `create: false`): nothing is created, renamed or
// claimed; the only file a call may write is the search's own index (a cache beside the log).
// Nothing is loaded until the first call: registering costs no addon and no file access.
//
// Every answer is text (a refusal too: a tool that throws gives the model "Tool error" and no
// reason), at most MAX_CHARS characters, each hit `#line [ts] role: text` starting its own line,
// its further lines indented and its control characters escaped, so that no entry can forge a hit.
import { appliesTo, ignored, PLUGIN_ID, resolveConfig } from '../config.mjs'
import { bridgePassesSessionKey, escapeControl, oneLine, TOOLS_SESSION_KEY_RELEASE, toolsVisibility } from '../lib.mjs'
import { userTimeZone, withTimeZone } from '../time-zone.mjs'
import { checkParams, defineSchema } from './params.mjs'

export const SEARCH_TOOL = 'chat_log_search'
export const GET_TOOL = 'chat_log_get'
export const TOOL_NAMES = [SEARCH_TOOL, GET_TOOL]

/** The characters one call returns at most, all told. */
export const MAX_CHARS = 8000
/** The search's deepest hit (its `limit` maximum): `page × limit` may not pass it. */
const MAX_DEPTH = 100
/** An excerpt's length for a search hit: the answer's budget shared among the page's hits. */
const excerptChars = (limit) => Math.max(120, Math.min(600, Math.floor((MAX_CHARS - 2000) / limit)))
/** What one entry of chat_log_get shows at most. */
const MAX_ENTRY_CHARS = 4000
/** What chat_log_get's entries show in all: the rest of MAX_CHARS is their `#line [ts] role:` lines and notes. */
const WINDOW_TEXT_CHARS = 5000

export const SEARCH_PARAMETERS = defineSchema({
  type: 'object',
  additionalProperties: false,
  required: ['query'],
  properties: {
    query: {
      type: 'string',
      minLength: 1,
      maxLength: 500,
      description: 'Words to look for (ranked full-text search: stemmed, case and accents ignored)',
    },
    limit: { type: 'integer', minimum: 1, maximum: 20, default: 8, description: 'Hits per page' },
    page: {
      type: 'integer',
      minimum: 1,
      maximum: MAX_DEPTH,
      default: 1,
      description: 'Page of hits, best first (page × limit at most 100)',
    },
  },
})

export const GET_PARAMETERS = defineSchema({
  type: 'object',
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 200, description: "An entry's id (give id or line, not both)" },
    line: { type: 'integer', minimum: 1, description: "An entry's line number, as a search hit shows it (#line)" },
    before: { type: 'integer', minimum: 0, maximum: 20, default: 3, description: 'Entries before it' },
    after: { type: 'integer', minimum: 0, maximum: 20, default: 3, description: 'Entries after it' },
  },
})

const text = (body) => ({ content: [{ type: 'text', text: body }] })

/**
 * One entry as the answer shows it: `#line [ts] role: text`, the text's further lines indented
 * four spaces and every other control character, line separator or bidi control escaped
 * (`\x1B`, `\u202E`): the entry cannot start a line of its own, so it cannot forge a hit.
 */
export function entryLines(entry, body) {
  const one = (value) => escapeControl(String(value), { backslashes: false })
  const ts = entry.ts === undefined || entry.ts === null ? '' : ` [${one(entry.ts)}]`
  const lines = String(body).split(/\r\n|[\n\r\v\f\u0085\u2028\u2029]/)
  return `#${entry.line}${ts} ${one(entry.role ?? '?')}: ${lines.map(one).join('\n    ')}`
}

/** The session's chat store, or `{ refusal }`: one sentence saying why there is none. */
async function chatStoreOf({ sessionKey, load }, tool) {
  const refuse = (why) => ({ refusal: `${tool}: ${why}` })
  if (typeof sessionKey !== 'string' || sessionKey === '') {
    return refuse(
      'no chat for this session: no session key reached the tool (the plugin-tools bridge passes it ' +
        'from OpenClaw 2026.7.2-beta.4; a custom MCP server entry passes none)',
    )
  }
  let loaded
  try {
    loaded = await load()
  } catch (error) {
    return refuse(`not available (${oneLine(error)})`)
  }
  const { config, openSessionFolder } = loaded
  if (ignored(config, sessionKey)) {
    return refuse(`no chat for this session: ${PLUGIN_ID} ignores its key (ignoreSessionKeys), nothing is logged`)
  }
  // The ACP agent (`agents`) is not known here (ctx.agentId is OpenClaw's agent, not the
  // backend): with `agents` set, the folder decides (the plugin makes one only for a chat it
  // takes); with only `sessionKeys`, the key does.
  if (!config.agents && !appliesTo(config, { sessionKey })) {
    return refuse(`no chat for this session: ${PLUGIN_ID} does not apply to it (its sessionKeys setting)`)
  }
  try {
    // The store masks what it returns (each entry whole, then cut) with the gateway's patterns.
    const { store } = await openSessionFolder(config, sessionKey, {
      create: false,
      maskPatterns: loaded.redactor?.maskPatterns ?? [],
    })
    return { store, timeZone: loaded.timeZone ?? 'UTC' }
  } catch (error) {
    if (error?.code === 'ENOENT') return refuse('no chat for this session yet (nothing is logged under its key)')
    return refuse(`the chat's files could not be read (${oneLine(error)})`)
  }
}

// The log is masked as it is written, but a folder the plugin took over (sessionStateDirs,
// the runtime's PERSISTENT_CHAT_CONTINUITY_PATH files) holds lines an earlier writer stored
// unmasked, and patterns may have been added since: the store masks each entry it returns
// whole, with the gateway's patterns, before it cuts the excerpt or the window's text (a cut
// first could drop the opening tag of a <private> span it keeps, or split a secret).

/** `chat_log_search`'s answer to `raw` (its parameters as the backend sent them). */
async function runSearch(session, raw) {
  const checked = checkParams(SEARCH_PARAMETERS, raw)
  if (checked.error) return text(`${SEARCH_TOOL}: bad parameters: ${checked.error}`)
  const { query, limit, page } = checked.params
  if (page * limit > MAX_DEPTH) {
    return text(
      `${SEARCH_TOOL}: bad parameters: "page" × "limit" must be at most ${MAX_DEPTH} (got ${page} × ${limit})`,
    )
  }
  const chat = await chatStoreOf(session, SEARCH_TOOL)
  if (chat.refusal) return text(chat.refusal)
  let hits
  try {
    // One hit more than the page, to tell whether a next page exists. Time words in the query
    // ("last week") are read now, in the user's zone.
    const now = Date.now()
    hits = await withTimeZone(chat.timeZone, now, (timeZone) =>
      chat.store.search(query, {
        limit: Math.min(MAX_DEPTH, page * limit + 1),
        excerptChars: excerptChars(limit),
        now,
        timeZone,
      }),
    )
  } catch (error) {
    return text(`${SEARCH_TOOL}: the search failed (${oneLine(error)})`)
  }
  const shownQuery = escapeControl(query.length > 100 ? `${query.slice(0, 100)}…` : query, { backslashes: false })
  const first = (page - 1) * limit
  const onPage = hits.slice(first, first + limit)
  const more = hits.length > first + limit
  if (onPage.length === 0) {
    return text(
      page === 1
        ? `${SEARCH_TOOL}: no entry of this chat matches "${shownQuery}"`
        : `${SEARCH_TOOL}: no more hits for "${shownQuery}" (page ${page}: the hits ended on an earlier page)`,
    )
  }
  const bodies = onPage.map((hit) => hit.text ?? '')
  const header = `${SEARCH_TOOL} "${shownQuery}": hits ${first + 1}–${first + onPage.length}, best first (page ${page})`
  const next = more ? `More hits: ${SEARCH_TOOL} with page: ${page + 1}. ` : 'No more hits. '
  const footer = `${next}What came before or after a hit: ${GET_TOOL} with its line.`
  return text(
    bounded(
      header,
      onPage.map((hit, i) => entryLines(hit, bodies[i])),
      footer,
      onPage,
    ),
  )
}

/** `chat_log_get`'s answer to `raw`. */
async function runGet(session, raw) {
  const checked = checkParams(GET_PARAMETERS, raw)
  if (checked.error) return text(`${GET_TOOL}: bad parameters: ${checked.error}`)
  const { id, line, before, after } = checked.params
  if ((id === undefined) === (line === undefined)) {
    return text(
      `${GET_TOOL}: bad parameters: give exactly one of "id" and "line" (got ${id === undefined ? 'neither' : 'both'})`,
    )
  }
  const chat = await chatStoreOf(session, GET_TOOL)
  if (chat.refusal) return text(chat.refusal)
  let entries
  try {
    // The texts' budget shared among the entries read (the store cuts each, masked whole first).
    entries = await chat.store.readWindow({
      ...(id === undefined ? { line } : { id }),
      before,
      after,
      maxEntryChars: MAX_ENTRY_CHARS,
      maxChars: WINDOW_TEXT_CHARS,
    })
  } catch (error) {
    return text(`${GET_TOOL}: the read failed (${oneLine(error)})`)
  }
  if (entries.length === 0) {
    return text(
      `${GET_TOOL}: no entry ${id === undefined ? `at line ${line}` : `with id "${escapeControl(id, { backslashes: false })}"`} in this chat`,
    )
  }
  const bodies = entries.map((entry) => entry.text ?? '')
  const header = `${GET_TOOL}: entries ${entries[0].line}–${entries.at(-1).line} (oldest first)`
  return text(
    bounded(
      header,
      entries.map((entry, i) => entryLines(entry, bodies[i])),
      '',
      entries,
    ),
  )
}

/** `run` as a tool's `execute`: whatever fails past the checks (the masker, say) is a sentence too, never a throw. */
const guarded = (name, run) => async (_toolCallId, raw) => {
  try {
    return await run(raw)
  } catch (error) {
    return text(`${name}: failed (${oneLine(error)})`)
  }
}

/**
 * The tools for one session, bound to its key. `load()` resolves (once, at the first call) to
 * `{ config, openSessionFolder, redactor, timeZone }` or rejects; `sessionKey` comes from OpenClaw, never
 * from a call.
 */
export function createChatLogTools({ sessionKey, load }) {
  const session = { sessionKey, load }
  const search = {
    name: SEARCH_TOOL,
    label: 'Search the chat log',
    description:
      "Searches this chat's whole history (its perpetual log, every message since it began), best match " +
      "first. Each hit: #line [time] role: excerpt. Use chat_log_get with a hit's line to read what came before and after it.",
    parameters: SEARCH_PARAMETERS,
    execute: guarded(SEARCH_TOOL, (raw) => runSearch(session, raw)),
  }
  const get = {
    name: GET_TOOL,
    label: 'Read the chat log',
    description:
      "Reads entries of this chat's history around one entry, oldest first: the entry with that id, or the one " +
      'at that line (as chat_log_search shows it, #line), with `before` entries before it and `after` after it.',
    parameters: GET_PARAMETERS,
    execute: guarded(GET_TOOL, (raw) => runGet(session, raw)),
  }
  return [search, get]
}

/**
 * The answer: header, items, footer, at most MAX_CHARS in all. Items that do not fit are left
 * out, whole, with a line saying which and how to get them (chat_log_get with their line).
 */
function bounded(header, items, footer, entries) {
  const reserve = 400 // the line saying what was left out, and the footer
  let out = header
  let shown = 0
  for (const item of items) {
    const room = MAX_CHARS - reserve - footer.length - out.length - 1
    if (item.length > room) break
    out += `\n${item}`
    shown += 1
  }
  if (shown < items.length) {
    const left = entries.slice(shown).map((entry) => `#${entry.line}`)
    const list = left.length > 12 ? `${left.slice(0, 12).join(', ')} and ${left.length - 12} more` : left.join(', ')
    out +=
      `\n[cut at ${MAX_CHARS} characters: ${list} not shown; read one with ${GET_TOOL} ` +
      `with line: ${entries[shown].line}${items.length > 1 ? ', or ask for fewer at a time' : ''}]`
  }
  if (footer) out += `\n${footer}`
  return out.length > MAX_CHARS ? `${out.slice(0, MAX_CHARS - 1)}…` : out
}

/**
 * Registers both tools (`api.registerTool` with a factory; index.mjs calls it in every
 * registration mode). The factory runs where the tools are served (the gateway for its own runs, the bridge's MCP server
 * for an ACP backend) and binds them to that context's session key; the config, the chat store
 * and the masker are loaded at the first call. Returns the error when OpenClaw refused them
 * (never throws: the hooks are registered after it).
 */
export function registerChatLogTools(api) {
  if (typeof api.registerTool !== 'function') return undefined
  const factory = (ctx) => {
    let loading
    const load = () => {
      loading ??= (async () => {
        const config = resolveConfig(api.pluginConfig, api.runtime.state.resolveStateDir(process.env))
        // Loaded here, not statically: state-files.mjs and redact.mjs load the addon.
        const { openSessionFolder } = await import('../state-files.mjs')
        const { createRedactor } = await import('../redact.mjs')
        const redactor = await createRedactor({
          patterns: config.redactPatterns,
          openclawConfig: ctx?.config ?? api.config,
        })
        return { config, openSessionFolder, redactor, timeZone: userTimeZone(ctx?.config ?? api.config) }
      })()
      return loading
    }
    return createChatLogTools({ sessionKey: ctx?.sessionKey, load })
  }
  try {
    api.registerTool(factory, { names: TOOL_NAMES })
    return undefined
  } catch (error) {
    // A host that refuses them (a manifest or consent it does not accept) must not cost the turns.
    return error
  }
}

/**
 * The one start-up line for a release whose plugin-tools bridge passes no session key (before
 * 2026.7.2-beta.4), or undefined: a warning when the bridge is on, else a note.
 */
/**
 * Whether an ACP backend of this gateway can call `chat_log_search`: the tools registered, the
 * plugin-tools bridge on, a release whose bridge passes the session key, and a tool policy that
 * shows it (doctor's reading, lib/tools-policy.js). A reload prompt then says so in one line.
 * `readVersion()` (the running release) is called only when the rest holds.
 */
export function logSearchToolServed({ registered, readVersion, openclawConfig }) {
  const { bridge, hidden } = toolsVisibility(openclawConfig)
  if (!registered || !bridge || hidden.some((item) => item.tool === 'chat_log_search')) return false
  return bridgePassesSessionKey(readVersion()) === true
}

export function toolsReleaseLine(version, openclawConfig) {
  if (bridgePassesSessionKey(version) !== false) return undefined
  const bridge = openclawConfig?.plugins?.entries?.acpx?.config?.pluginToolsMcpBridge === true
  return {
    level: bridge ? 'warn' : 'info',
    line:
      `${PLUGIN_ID}: OpenClaw ${version}'s plugin-tools bridge passes no session key: served to an ACP backend, ` +
      `${TOOLS_NAMES_TEXT} cannot tell which chat calls them and refuse every call; OpenClaw ${TOOLS_SESSION_KEY_RELEASE} or newer passes it`,
  }
}

const TOOLS_NAMES_TEXT = TOOL_NAMES.join(' and ')
