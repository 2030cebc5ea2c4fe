#!/usr/bin/env node
'use strict'
// openclaw-context: patch an installed OpenClaw to use openclaw-context-native, and
// print the persistent-chat continuity summary for the memory script.
// Exit codes: 0 done, 1 a check failed or the work could not be done, 2 bad usage.
const path = require('node:path')

const USAGE = `Usage:
  openclaw-context patch [OPENCLAW_DIR] [--check | --revert | --dry-run]
  openclaw-context summary --state FILE --log FILE [--current-session ID] [--now TS] [--max-chars N]
  openclaw-context --help | --version

patch    Make an installed OpenClaw 2026.7.x's capCompactionSummaryPreservingSuffix delegate
         to openclaw-context-native (the dist chunk is found by the function's text). Atomic
         and idempotent. OPENCLAW_DIR is the openclaw package folder; by default the one
         Node resolves from the current folder, else the one in the global npm root.
           --check    exit 0 only when patched and the addon loads from that dist
           --revert   restore the original chunk byte for byte
           --dry-run  print the change as a diff; write nothing
         An OpenClaw without the function (2026.9.x, fixed upstream) needs nothing: exit 0.

summary  Print rebuildPersistentChatContinuitySummary's output (the contents of
         continuity-summary.txt) for the memory script. A file that does not exist yet
         counts as empty.
           --state FILE           the memory-state JSON
           --log FILE             the perpetual JSON Lines log
           --current-session ID   the backend session in use (failures from others are dropped)
           --now TS               the time for timer status (default: now)
           --max-chars N          the budget in UTF-16 code units (default 6000)

Exit codes: 0 done, 1 a check failed or the work could not be done (reason on stderr),
2 bad usage.`

class UsageError extends Error {}

/** Splits argv into positionals and `--name[=value]` options; `valued` names take a value. */
function parseArgs(argv, valued, flags) {
  const positionals = []
  const options = {}
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === '--') { positionals.push(...argv.slice(i + 1)); break }
    if (!arg.startsWith('--')) {
      if (arg.startsWith('-') && arg.length > 1) throw new UsageError(`unknown option ${arg}`)
      positionals.push(arg)
      continue
    }
    const eq = arg.indexOf('=')
    const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq)
    if (valued.includes(name)) {
      let value
      if (eq !== -1) value = arg.slice(eq + 1)
      else if (i + 1 < argv.length) value = argv[++i]
      else throw new UsageError(`--${name} needs a value`)
      if (Object.prototype.hasOwnProperty.call(options, name)) throw new UsageError(`--${name} given twice`)
      options[name] = value
    } else if (flags.includes(name)) {
      if (eq !== -1) throw new UsageError(`--${name} takes no value`)
      options[name] = true
    } else {
      throw new UsageError(`unknown option --${name}`)
    }
  }
  return { positionals, options }
}

function oneLine(err) {
  const message = String((err && err.message) || err).split('\n')[0]
  return err && err.code && !message.includes(err.code) ? `${message} (${err.code})` : message
}

function patchCommand(argv, out, err) {
  const { PatchError, runPatch } = require('./patch')
  const { positionals, options } = parseArgs(argv, [], ['check', 'revert', 'dry-run'])
  const modes = ['check', 'revert', 'dry-run'].filter((m) => options[m])
  if (modes.length > 1) throw new UsageError(`--${modes.join(' and --')} cannot be combined`)
  if (positionals.length > 1) throw new UsageError(`patch takes one OPENCLAW_DIR, got ${positionals.length}`)
  try {
    return runPatch({ dir: positionals[0], mode: modes[0] || 'apply' }, out, err)
  } catch (e) {
    if (e instanceof PatchError) { err(`openclaw-context: ${e.message}`); return 1 }
    throw e
  }
}

function summaryCommand(argv, out, err) {
  const { positionals, options } = parseArgs(argv, ['state', 'log', 'current-session', 'now', 'max-chars'], [])
  if (positionals.length > 0) throw new UsageError(`summary takes no positional arguments (got ${positionals[0]})`)
  for (const required of ['state', 'log']) {
    if (!options[required]) throw new UsageError(`summary needs --${required} FILE`)
  }
  const params = { statePath: path.resolve(options.state), logPath: path.resolve(options.log) }
  if (options['current-session'] !== undefined) params.currentSession = options['current-session']
  if (options.now !== undefined) {
    if (options.now.trim() === '') throw new UsageError('--now needs a timestamp')
    params.now = options.now
  }
  if (options['max-chars'] !== undefined) {
    if (!/^[0-9]+$/.test(options['max-chars']) || Number(options['max-chars']) < 1) {
      throw new UsageError(`--max-chars must be a positive whole number, got ${JSON.stringify(options['max-chars'])}`)
    }
    params.maxChars = Number(options['max-chars'])
  }
  let native
  try {
    native = require('..')
  } catch (e) {
    err(`openclaw-context: the openclaw-context-native addon does not load: ${oneLine(e)}`)
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
    err(`openclaw-context: ${oneLine(e)}`)
    return 1
  }
  out(summary.endsWith('\n') ? summary.slice(0, -1) : summary)
  return 0
}

function main(argv, out = (s) => process.stdout.write(`${s}\n`), err = (s) => process.stderr.write(`${s}\n`)) {
  const usage = (message) => {
    if (message) err(`openclaw-context: ${message}`)
    err(USAGE)
    return 2
  }
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') { out(USAGE); return 0 }
  if (argv[0] === '--version' || argv[0] === '-v') {
    out(require('../package.json').version)
    return 0
  }
  const [command, ...rest] = argv
  try {
    if (command === 'patch') return patchCommand(rest, out, err)
    if (command === 'summary') return summaryCommand(rest, out, err)
    return usage(command === undefined ? 'no command given' : `unknown command ${JSON.stringify(command)}`)
  } catch (e) {
    if (e instanceof UsageError) return usage(e.message)
    err(`openclaw-context: ${oneLine(e)}`)
    return 1
  }
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2))
}

module.exports = { main, parseArgs, USAGE }
