'use strict'
// How a command names one chat: `--log FILE`, or `--state-dir DIR --session-key KEY` (the
// plugin's folder for that key). One rule for every command that reads or changes a chat (the
// flags themselves are declared in the command table, cli/commands/index.js).
const path = require('node:path')
const { UsageError } = require('./errors')
const { gatewayMaskPatterns } = require('./openclaw-config')

/**
 * `{ log }` or `{ stateDir, sessionKey }` from parsed options; a UsageError unless exactly one
 * way is given, whole.
 */
function chatFrom(options, command) {
  const byLog = options.log !== undefined
  const byKey = options['state-dir'] !== undefined || options['session-key'] !== undefined
  if (byLog === byKey) {
    throw new UsageError(`${command} needs either --log FILE or --state-dir DIR --session-key KEY`)
  }
  if (byLog) {
    if (options.log === '') throw new UsageError('--log needs a file')
    return { log: path.resolve(options.log) }
  }
  if (!options['state-dir']) throw new UsageError(`${command} needs --state-dir DIR with --session-key`)
  if (!options['session-key']) throw new UsageError(`${command} needs --session-key KEY with --state-dir`)
  return { stateDir: path.resolve(options['state-dir']), sessionKey: options['session-key'] }
}

/**
 * The operator's masking patterns for what a command writes or shows (`--config FILE`, else
 * the gateway's own config): `{ maskPatterns }`. A `--config` that cannot be read is a usage
 * error; a gateway config that exists and cannot be read an error (exit 1): the command must
 * not write or show unmasked what the gateway would mask.
 */
function maskFrom(options, env = process.env) {
  if (options.config === '') throw new UsageError('--config needs a file')
  const { patterns, file, error } = gatewayMaskPatterns({ configFile: options.config, env })
  if (error && options.config !== undefined) throw new UsageError(`cannot read --config ${file}: ${error}`)
  if (error) {
    throw new Error(
      `cannot read the gateway's config ${file} for its masking patterns (${error}); name one with --config FILE`,
    )
  }
  return { maskPatterns: patterns }
}

module.exports = { chatFrom, maskFrom }
