#!/usr/bin/env node
'use strict'
// openclaw-context: the operator's command. Each subcommand is one file of cli/commands/,
// behind the table in cli/commands/index.js; this file reads the first word, prints help
// (cli/help.js), and maps errors to exit codes.
// Exit codes: 0 done, 1 a check failed or the work could not be done, 2 bad usage.
const { UsageError, inWords, errorJson } = require('../lib/errors')
const { nearest } = require('../lib/nearest')
const { COMMANDS } = require('./commands')
const { overview, commandHelp, usageLines, GLOBAL_FLAGS } = require('./help')
const { stdoutWriter } = require('./output')

/** The arguments before `--` (after it everything is an operand). */
const flagsOf = (argv) => (argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv)
const asksHelp = (argv) => flagsOf(argv).some((arg) => arg === '--help' || arg === '-h')

/** ` (did you mean 'export'?)` when a known word is close to `given`, else nothing. */
function didYouMean(given, known) {
  const match = nearest(given, known)
  return match ? ` (did you mean '${match}'?)` : ''
}

/** The command named by `word`, or a UsageError saying it is not one (and which is near). */
function commandNamed(word) {
  if (Object.hasOwn(COMMANDS, word)) return word
  if (word.startsWith('-')) {
    const globals = GLOBAL_FLAGS.map((flag) => `--${flag.name}`)
    throw new UsageError(`unknown option ${word}${didYouMean(word, globals)}`)
  }
  throw new UsageError(`unknown command '${word}'${didYouMean(word, [...Object.keys(COMMANDS), 'help'])}`)
}

/** `help [COMMAND]`: the overview (also for `help --help`), or that command's help. */
function help(rest, out) {
  const named = rest.filter((arg) => arg !== '--help' && arg !== '-h')
  if (named.length > 1) throw new UsageError('help takes one COMMAND')
  out(named.length ? commandHelp(commandNamed(named[0])) : overview())
  return 0
}

function main(argv, out = (s) => process.stdout.write(`${s}\n`), err = (s) => process.stderr.write(`${s}\n`)) {
  let name
  const usage = (message) => {
    for (const line of usageLines(message, name)) err(line)
    return 2
  }
  const failed = (e) => {
    if (e instanceof UsageError) return usage(e.message)
    err(`openclaw-context: ${inWords(e)}`)
    // A script asked for JSON: the failure as JSON too, the code as a field.
    if (name && flagsOf(argv).includes('--json')) out(JSON.stringify(errorJson(e)))
    return 1
  }
  const [first, ...rest] = argv
  if (first === undefined) return usage('no command given')
  if (first === '--help' || first === '-h') {
    out(overview())
    return 0
  }
  if (first === '--version' || first === '-v') {
    out(require('../package.json').version)
    return 0
  }
  try {
    if (first === 'help') return help(rest, out)
    name = commandNamed(first)
    if (asksHelp(rest)) {
      out(commandHelp(name))
      return 0
    }
    const code = COMMANDS[name].run(rest, out, err)
    return code instanceof Promise ? code.catch(failed) : code
  } catch (e) {
    return failed(e)
  }
}

/**
 * On SIGINT, SIGTERM or SIGHUP: the temp files and folders the addon made for this command and
 * has not renamed into place are removed before the process ends (lib/interrupt.js). Nothing to
 * do when the addon was never loaded.
 */
function removeUnfinishedOnInterrupt() {
  const { onInterrupt } = require('../lib/interrupt')
  const addon = require.resolve('../index.js')
  onInterrupt(() => {
    if (require.cache[addon]) require(addon).ChatStore.removeUnfinishedTempFiles()
  })
}

if (require.main === module) {
  removeUnfinishedOnInterrupt()
  const stdout = stdoutWriter(process.stdout, (e) => {
    process.stderr.write(`openclaw-context: cannot write the output: ${inWords(e)}\n`)
    process.exitCode = 1
  })
  const out = (text) => stdout.line(text)
  out.bytes = stdout.bytes
  out.closed = stdout.closed
  // Some commands answer with a Promise (they read files on the addon's thread pool).
  Promise.resolve(main(process.argv.slice(2), out)).then((code) => {
    process.exitCode = process.exitCode || code
  })
}

module.exports = { main }
