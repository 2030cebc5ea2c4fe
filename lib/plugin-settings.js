'use strict'
// The plugin's settings as the CLI reads them (doctor), from the manifest's configSchema: what
// is wrong with them, and where the chat folders are. The plugin itself reads them in
// plugin/config.mjs (same schema, same folder rules); the CLI imports nothing from plugin/.
const path = require('node:path')

const MANIFEST = require('../openclaw.plugin.json')
const SCHEMA = MANIFEST.configSchema.properties
const PLUGIN_ID = MANIFEST.id

/** Each setting that the schema refuses, as `config.KEY must be …` (the plugin's words). */
function settingProblems(raw) {
  const config = raw ?? {}
  if (typeof config !== 'object' || Array.isArray(config)) return [`${PLUGIN_ID}: config must be an object`]
  const problems = []
  const must = (key, expected) => problems.push(`${PLUGIN_ID}: config.${key} must be ${expected}`)
  for (const [key, value] of Object.entries(config)) {
    const schema = SCHEMA[key]
    if (!schema) {
      must(key, `one of: ${Object.keys(SCHEMA).join(', ')} (unknown setting)`)
    } else if (schema.type === 'integer') {
      const { minimum: min = Number.MIN_SAFE_INTEGER, maximum: max = Number.MAX_SAFE_INTEGER } = schema
      if (!Number.isInteger(value) || value < min || value > max) must(key, `an integer from ${min} to ${max}`)
    } else if (schema.type === 'array') {
      const items = schema.items.enum
      const ok =
        Array.isArray(value) &&
        value.every((item) => (items ? items.includes(item) : typeof item === 'string' && item.length > 0))
      if (!ok) must(key, items ? `a list of: ${items.join(', ')}` : 'an array of non-empty strings')
    } else if (schema.type === 'string') {
      if (typeof value !== 'string' || value.length === 0) must(key, 'a non-empty path')
    } else if (schema.type === 'object') {
      const ok =
        value !== null &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        Object.values(value).every((dir) => typeof dir === 'string' && dir.length > 0)
      if (!ok) must(key, 'an object mapping session keys to non-empty folders')
    }
  }
  return problems
}

/**
 * Where the chats are: `stateDir` (default `<OpenClaw state dir>/openclaw-context-native`), the
 * `sessionStateDirs` folders, and the runtime's files (`PERSISTENT_CHAT_CONTINUITY_PATH`, when
 * the settings name no folder), as plugin/config.mjs resolves them. Bad values are left out.
 */
function chatFolders(raw, openclawStateDir, env = process.env) {
  const config = raw && typeof raw === 'object' && !Array.isArray(raw) ? raw : {}
  const stateDir =
    typeof config.stateDir === 'string' && config.stateDir
      ? path.resolve(config.stateDir)
      : path.join(openclawStateDir, PLUGIN_ID)
  const sessionStateDirs = new Map()
  const dirs = config.sessionStateDirs
  if (dirs && typeof dirs === 'object' && !Array.isArray(dirs)) {
    for (const [key, dir] of Object.entries(dirs))
      if (typeof dir === 'string' && dir) sessionStateDirs.set(key, path.resolve(dir))
  }
  const summary = env?.PERSISTENT_CHAT_CONTINUITY_PATH
  const runtimeFiles =
    summary && config.stateDir === undefined && config.sessionStateDirs === undefined
      ? { dir: path.dirname(path.resolve(summary)), summary: path.resolve(summary) }
      : undefined
  return { stateDir, sessionStateDirs, runtimeFiles }
}

module.exports = { settingProblems, chatFolders, PLUGIN_ID }
