'use strict'
// `openclaw-context summary --state FILE --log FILE [--current-session ID] [--now TS]
// [--max-chars N]`: prints rebuildPersistentChatContinuitySummary's output (the contents
// of continuity-summary.txt) for the Python memory script.
const path = require('node:path')
const { parseCommandArgs } = require('../../lib/args')
const { UsageError, inWords } = require('../../lib/errors')

const { optionsOf } = require('.')

/** The addon's params from the command line (a UsageError when they are wrong). */
function summaryParams(argv) {
  const { options } = parseCommandArgs(argv, optionsOf('summary'))
  for (const required of ['state', 'log']) {
    if (!options[required]) throw new UsageError(`summary needs --${required} FILE`)
  }
  const params = { statePath: path.resolve(options.state), logPath: path.resolve(options.log) }
  if (options['current-session'] !== undefined) params.currentSession = options['current-session']
  if (options.now !== undefined) {
    if (options.now.trim() === '') throw new UsageError('--now needs a timestamp')
    params.now = options.now
  }
  const maxChars = options['max-chars']
  if (maxChars !== undefined) {
    if (!/^[0-9]+$/.test(maxChars) || Number(maxChars) < 1) {
      throw new UsageError(`--max-chars must be a positive whole number, got ${JSON.stringify(maxChars)}`)
    }
    params.maxChars = Number(maxChars)
  }
  return params
}

function runSummary(argv, out, err) {
  const params = summaryParams(argv)
  let native
  try {
    native = require('../..')
  } catch (e) {
    err(`openclaw-context: the openclaw-context-native addon does not load: ${inWords(e)}`)
    return 1
  }
  if (typeof native.rebuildPersistentChatContinuitySummary !== 'function') {
    err('openclaw-context: this build of openclaw-context-native has no rebuildPersistentChatContinuitySummary')
    return 1
  }
  let summary
  try {
    summary = native.rebuildPersistentChatContinuitySummary(params)
  } catch (e) {
    err(`openclaw-context: ${inWords(e)}`)
    return 1
  }
  out(summary.endsWith('\n') ? summary.slice(0, -1) : summary)
  return 0
}

module.exports = { runSummary, summaryParams }
