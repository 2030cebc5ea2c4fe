'use strict'
// The gateway's own config, as the CLI reads it: OpenClaw's state folder and its `openclaw.json`
// (doctor), and the masking patterns the plugin masks with (OpenClaw's `logging.redactPatterns`,
// then the plugin's `redactPatterns`, in the order plugin/redact.mjs gives them to the chat
// store), so that `import`, `restore`, `forget` and `export` mask what they write and show as
// the gateway's own writes are masked. `--config FILE` names another config.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const { oneLine } = require('./errors')

const PLUGIN_ID = require('../openclaw.plugin.json').id

/** OpenClaw's state folder, as OpenClaw resolves it by default. */
function openclawStateDir(env = process.env) {
  return env.OPENCLAW_STATE_DIR ? path.resolve(env.OPENCLAW_STATE_DIR) : path.join(os.homedir(), '.openclaw')
}

/** The path of the gateway's config: `file`, else `$OPENCLAW_CONFIG_PATH`, else the state folder's. */
function configPath(stateDir, env = process.env, file = undefined) {
  if (file) return path.resolve(file)
  return env.OPENCLAW_CONFIG_PATH ? path.resolve(env.OPENCLAW_CONFIG_PATH) : path.join(stateDir, 'openclaw.json')
}

/** The gateway's config (`openclaw.json`), or why it could not be read. */
function readOpenclawConfig(stateDir, env = process.env, file = undefined) {
  const at = configPath(stateDir, env, file)
  try {
    return { file: at, config: JSON.parse(fs.readFileSync(at, 'utf8')) }
  } catch (error) {
    return { file: at, config: {}, error: error.code === 'ENOENT' ? 'not found' : oneLine(error) }
  }
}

/** The operator's masking patterns of `config`: OpenClaw's, then the plugin's (non-empty strings). */
function maskPatternsOf(config) {
  const list = (value) => (Array.isArray(value) ? value.filter((p) => typeof p === 'string' && p.trim()) : [])
  return [
    ...list(config?.logging?.redactPatterns),
    ...list(config?.plugins?.entries?.[PLUGIN_ID]?.config?.redactPatterns),
  ]
}

/**
 * The masking patterns a chat command applies: from `--config FILE` (which must be readable:
 * a typo must not leave secrets unmasked), else the gateway's config where it is (a missing one
 * means the built-in patterns alone). Returns `{ patterns, file, error }`.
 */
function gatewayMaskPatterns({ configFile, env = process.env } = {}) {
  const { file, config, error } = readOpenclawConfig(openclawStateDir(env), env, configFile)
  if (error && (configFile || error !== 'not found')) return { patterns: [], file, error }
  return { patterns: maskPatternsOf(config), file }
}

module.exports = { openclawStateDir, readOpenclawConfig, maskPatternsOf, gatewayMaskPatterns, PLUGIN_ID }
