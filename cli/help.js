'use strict'
// What `openclaw-context` prints for help, from the command table alone: the overview
// (`--help`), one command's help (`COMMAND --help`, `help COMMAND`; each fits a screen), and
// the two lines of a usage error.
const path = require('node:path')
const { COMMANDS } = require('./commands')

const PROGRAM = 'openclaw-context'
const PACKAGE_ROOT = path.resolve(__dirname, '..')
/** Where the full reference is: docs/cli.md, shipped in the package. */
const REFERENCE = path.join(PACKAGE_ROOT, 'docs', 'cli.md')

/** The flags every command takes, and those before a command. */
const HELP_FLAG = { name: 'help', short: 'h', help: 'this help' }
const GLOBAL_FLAGS = [
  { name: 'help', short: 'h', help: "this overview; a command's own: openclaw-context COMMAND --help" },
  { name: 'version', short: 'v', help: "the package's version" },
]
const EXIT_CODES =
  'Exit codes: 0 done, 1 a check failed or the work could not be done (the reason on stderr), 2 bad usage.'

/**
 * `Usage: openclaw-context SYNOPSIS`, wrapped before a `[` or `(` group to fit `width`
 * columns, later lines indented under the first word after the program's name.
 */
function usageLine(synopsis, width = 100) {
  const head = `Usage: ${PROGRAM} `
  const lines = []
  let line = head
  for (const part of synopsis.split(/ (?=[[(])/)) {
    if (line !== head && line.trimEnd().length + 1 + part.length > width) {
      lines.push(line.trimEnd())
      line = ' '.repeat(head.length + synopsis.indexOf(' ') + 1)
    }
    line += `${part} `
  }
  lines.push(line.trimEnd())
  return lines
}

/** `-q, --quiet` or `    --out FILE`: a flag as its help lists it. */
const flagLabel = (flag) =>
  `${flag.short ? `-${flag.short}, ` : '    '}--${flag.name}${flag.value ? ` ${flag.value}` : ''}`

/** Rows of `  LABEL  HELP`, the labels padded to one column. */
function rows(items, label, help) {
  const width = Math.max(...items.map((item) => label(item).length))
  return items.map((item) => `  ${label(item).padEnd(width)}  ${help(item)}`)
}

/** The overview: each command in one line, the global flags, the exit codes, the reference. */
function overview() {
  const names = Object.keys(COMMANDS)
  return [
    `Usage: ${PROGRAM} COMMAND [FLAGS...]`,
    `       ${PROGRAM} COMMAND --help     (or: ${PROGRAM} help COMMAND)`,
    '',
    'Commands:',
    ...rows(
      names,
      (name) => name,
      (name) => COMMANDS[name].summary,
    ),
    `  ${'help'.padEnd(Math.max(...names.map((name) => name.length)))}  a command's help`,
    '',
    'Flags:',
    ...rows(GLOBAL_FLAGS, flagLabel, (flag) => flag.help),
    '',
    EXIT_CODES,
    `Reference for every command (synopsis, flags, exit codes, examples): ${REFERENCE}`,
  ].join('\n')
}

/** One command's help: usage, what it does, its flags, exit codes, where the rest is. */
function commandHelp(name) {
  const command = COMMANDS[name]
  const flags = [...command.flags, HELP_FLAG]
  return [
    ...usageLine(command.synopsis),
    '',
    command.about,
    '',
    'Flags:',
    ...rows(flags, flagLabel, (flag) => flag.help),
    '',
    `Exit codes: ${command.exits}.`,
    `Reference: ${REFERENCE}, section "${name}"`,
  ].join('\n')
}

/** A usage error's two lines: what is wrong, and which help to read. */
function usageLines(message, name) {
  const help = name && Object.hasOwn(COMMANDS, name) ? `${PROGRAM} ${name} --help` : `${PROGRAM} --help`
  return [`${PROGRAM}: ${message}`, `see '${help}'`]
}

module.exports = { overview, commandHelp, usageLines, GLOBAL_FLAGS, PROGRAM }
