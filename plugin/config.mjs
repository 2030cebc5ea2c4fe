// The plugin's settings: `plugins.entries["openclaw-context-native"].config` in the gateway's
// config, validated by the `configSchema` of openclaw.plugin.json when OpenClaw loads the
// config. The same schema is read here (its keys, `minimum`, `maximum`, `enum` and
// `default`), so a config that skipped validation still fails at start-up with a message
// naming the setting, never halfway through a turn, and nothing restates a limit.
import { createRequire } from 'node:module'
import path from 'node:path'

const MANIFEST = createRequire(import.meta.url)('../openclaw.plugin.json')
const SCHEMA = MANIFEST.configSchema.properties

export const PLUGIN_ID = MANIFEST.id
export const PLUGIN_NAME = MANIFEST.name
export const PLUGIN_DESCRIPTION = MANIFEST.description

/** Turn-metadata fields and where each comes from in OpenClaw's inbound context. */
export const TURN_METADATA_FIELDS = {
  channel: (ctx) => ctx.OriginatingChannel ?? ctx.Surface ?? ctx.Provider,
  sender: (ctx) => ctx.SenderName ?? ctx.SenderUsername ?? ctx.SenderId,
  senderId: (ctx) => ctx.SenderId,
  chatType: (ctx) => ctx.ChatType,
  messageId: (ctx) => ctx.MessageSidFull ?? ctx.MessageSid,
  time: (_ctx, turn) => turn.startedAt,
}

/**
 * `promptMaxChars` by default (the schema's `default`): 120,000 UTF-16 units, about 30,000
 * tokens, a quarter of the smallest context window an ACP coding backend has today (128k
 * tokens), leaving the rest to the backend's own instructions, tools and replies; and well
 * under the 2 MiB prompt OpenClaw's own ACP server accepts (`MAX_PROMPT_BYTES` in 2026.9). A
 * reload of 25 entries and a 6,000-unit summary fits it unless the entries are long; the
 * oldest go first.
 */
export const DEFAULT_PROMPT_MAX_CHARS = SCHEMA.promptMaxChars.default

// Settings whose default is the addon's own (the schema's `default` says what it is, and a
// spec holds the two together): unset, the plugin passes nothing and the addon decides.
const ADDON_DEFAULTS = new Set([
  'reloadEntries',
  'continuousEntries',
  'summaryMaxChars',
  'reloadRecall',
  'refreshEntries',
])

class ConfigError extends Error {
  constructor(key, expected) {
    super(`${PLUGIN_ID}: config.${key} must be ${expected}`)
    this.name = 'ConfigError'
  }
}

/** An integer setting within its schema's `minimum` and `maximum`; its `default` when unset. */
function integer(raw, key) {
  const { minimum: min = Number.MIN_SAFE_INTEGER, maximum: max = Number.MAX_SAFE_INTEGER } = SCHEMA[key]
  const value = raw[key]
  if (value === undefined) return ADDON_DEFAULTS.has(key) ? undefined : SCHEMA[key].default
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(key, `an integer from ${min} to ${max}`)
  }
  return value
}

/** A boolean setting; its schema's `default` when unset. */
function boolean(raw, key) {
  const value = raw[key]
  if (value === undefined) return SCHEMA[key].default
  if (typeof value !== 'boolean') throw new ConfigError(key, 'true or false')
  return value
}

function stringList(raw, key) {
  const value = raw[key]
  if (value === undefined) return undefined
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item.length > 0)) {
    throw new ConfigError(key, 'an array of non-empty strings')
  }
  return value
}

function absolutePath(value, key) {
  if (typeof value !== 'string' || value.length === 0) throw new ConfigError(key, 'a non-empty path')
  return path.resolve(value)
}

/**
 * The settings with their defaults (`reloadEntries`, `continuousEntries`, `summaryMaxChars`,
 * `reloadRecall` and `refreshEntries` stay undefined when unset: the addon's defaults apply).
 *
 * @param {unknown} raw `api.pluginConfig`
 * @param {string} openclawStateDir OpenClaw's state folder (the default lives under it)
 * @param {object} env the gateway's environment (`PERSISTENT_CHAT_CONTINUITY_PATH`)
 */
export function resolveConfig(raw, openclawStateDir, env = process.env) {
  const config = raw ?? {}
  if (typeof config !== 'object' || Array.isArray(config)) throw new ConfigError('', 'an object')
  for (const key of Object.keys(config)) {
    if (!Object.hasOwn(SCHEMA, key)) {
      throw new ConfigError(key, `one of: ${Object.keys(SCHEMA).join(', ')} (unknown setting)`)
    }
  }

  const sessionStateDirs = new Map()
  if (config.sessionStateDirs !== undefined) {
    const dirs = config.sessionStateDirs
    if (typeof dirs !== 'object' || dirs === null || Array.isArray(dirs)) {
      throw new ConfigError('sessionStateDirs', 'an object mapping session keys to folders')
    }
    for (const [key, dir] of Object.entries(dirs)) {
      sessionStateDirs.set(key, absolutePath(dir, `sessionStateDirs[${JSON.stringify(key)}]`))
    }
  }

  const turnMetadata = stringList(config, 'turnMetadata') ?? SCHEMA.turnMetadata.default
  const fields = SCHEMA.turnMetadata.items.enum
  if (!turnMetadata.every((field) => fields.includes(field))) {
    throw new ConfigError('turnMetadata', `a list of: ${fields.join(', ')}`)
  }

  return {
    runtimeFiles: runtimeFiles(config, env),
    stateDir:
      config.stateDir === undefined
        ? path.join(openclawStateDir, PLUGIN_ID)
        : absolutePath(config.stateDir, 'stateDir'),
    sessionStateDirs,
    agents: stringList(config, 'agents'),
    sessionKeys: stringList(config, 'sessionKeys'),
    reloadEntries: integer(config, 'reloadEntries'),
    continuousEntries: integer(config, 'continuousEntries'),
    reloadRecall: integer(config, 'reloadRecall'),
    refreshEntries: integer(config, 'refreshEntries'),
    compactionRefresh: boolean(config, 'compactionRefresh'),
    reloadNotice: boolean(config, 'reloadNotice'),
    toolEntries: boolean(config, 'toolEntries'),
    retentionDays: integer(config, 'retentionDays'),
    promptMaxChars: integer(config, 'promptMaxChars'),
    summaryMaxChars: integer(config, 'summaryMaxChars'),
    turnMetadata,
    ignoreSessionKeys: stringList(config, 'ignoreSessionKeys') ?? [],
    // Compiled by the addon's masker (plugin/redact.mjs): one it cannot use is refused with a
    // start-up warning naming it, never a stopped gateway; the others apply.
    redactPatterns: stringList(config, 'redactPatterns') ?? [],
  }
}

/**
 * The files of a gateway set up as the persistent-chat runtime was: `PERSISTENT_CHAT_CONTINUITY_PATH`
 * names its `continuity-summary.txt`, with `perpetual-log.jsonl` and `last-injected-preprompt.txt`
 * beside it. Honoured when the plugin's own settings name no folder (`stateDir`, `sessionStateDirs`):
 * then those files stay one chat's, as the runtime's were, and nothing moves: the chats of the
 * keys listed in `sessionKeys` when it is set, else the first session key that takes a turn
 * (its claim kept in the folder); every other chat gets its own folder under the default
 * `stateDir`, so no chat sees another's history. Undefined otherwise.
 */
function runtimeFiles(config, env) {
  const summary = env?.PERSISTENT_CHAT_CONTINUITY_PATH
  if (!summary || config.stateDir !== undefined || config.sessionStateDirs !== undefined) return undefined
  const file = absolutePath(summary, 'PERSISTENT_CHAT_CONTINUITY_PATH (environment)')
  return { dir: path.dirname(file), summary: file, why: 'PERSISTENT_CHAT_CONTINUITY_PATH' }
}

/** A `sessionKeys` pattern: the exact key, or a prefix when it ends with `*`. */
function keyMatches(pattern, sessionKey) {
  return pattern.endsWith('*') ? sessionKey.startsWith(pattern.slice(0, -1)) : pattern === sessionKey
}

/** Whether `sessionKeys` names the session (an exact key, or a prefix ending with `*`). */
export function listedInSessionKeys(config, sessionKey) {
  return Boolean(config.sessionKeys?.some((pattern) => keyMatches(pattern, sessionKey)))
}

/** Whether `ignoreSessionKeys` names the session: then it is neither logged nor injected. */
export function ignored(config, sessionKey) {
  return typeof sessionKey === 'string' && config.ignoreSessionKeys.some((pattern) => keyMatches(pattern, sessionKey))
}

/**
 * Whether the plugin handles this ACP session: with neither `agents` nor `sessionKeys` set,
 * every ACP session; else those whose ACP agent (as in `acp.allowedAgents`) is listed or
 * whose session key matches.
 */
export function appliesTo(config, { sessionKey, agent }) {
  if (!config.agents && !config.sessionKeys) return true
  if (config.agents && agent && config.agents.includes(agent)) return true
  return listedInSessionKeys(config, sessionKey)
}
