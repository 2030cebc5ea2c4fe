#!/usr/bin/env node
'use strict'
// openclaw-context: the operator's command. Each subcommand is one file of cli/commands/,
// behind the table in cli/commands/index.js; this file parses the first word, prints the
// usage, and maps errors to exit codes.
// Exit codes: 0 done, 1 a check failed or the work could not be done, 2 bad usage.
const { UsageError, oneLine } = require('../lib/errors')
const { COMMANDS } = require('./commands')

/** A command's help paragraph, indented under its name as --help prints it. */
const helpBlock = (name, help) =>
  help
    .split('\n')
    .map((line, i) => (i === 0 ? `${name.padEnd(8)} ${line}` : `         ${line}`))
    .join('\n')

const USAGE = `Usage:
${Object.values(COMMANDS)
  .map((command) => `  openclaw-context ${command.synopsis}`)
  .join('\n')}
  openclaw-context --help | --version

${Object.entries(COMMANDS)
  .map(([name, command]) => helpBlock(name, command.help))
  .join('\n\n')}

Exit codes: 0 done, 1 a check failed or the work could not be done (reason on stderr),
2 bad usage.`

function main(argv, out = (s) => process.stdout.write(`${s}\n`), err = (s) => process.stderr.write(`${s}\n`)) {
  const usage = (message) => {
    if (message) err(`openclaw-context: ${message}`)
    err(USAGE)
    return 2
  }
  const failed = (e) => {
    if (e instanceof UsageError) return usage(e.message)
    err(`openclaw-context: ${oneLine(e)}`)
    return 1
  }
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    out(USAGE)
    return 0
  }
  if (argv[0] === '--version' || argv[0] === '-v') {
    out(require('../package.json').version)
    return 0
  }
  const [name, ...rest] = argv
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined
  if (!command) return usage(name === undefined ? 'no command given' : `unknown command ${JSON.stringify(name)}`)
  try {
    const code = command.run(rest, out, err)
    return code instanceof Promise ? code.catch(failed) : code
  } catch (e) {
    return failed(e)
  }
}

if (require.main === module) {
  // Some commands answer with a Promise (they read files on the addon's thread pool).
  Promise.resolve(main(process.argv.slice(2))).then((code) => {
    process.exitCode = code
  })
}

module.exports = { main, USAGE }
