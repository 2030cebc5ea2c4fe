#!/usr/bin/env node
'use strict'
// openclaw-context: patch an installed OpenClaw to use openclaw-context-native
// (patch.js), and print the persistent-chat continuity summary for the memory script
// (summary.js), and tell an operator where the gateway stands (doctor.js).
// Exit codes: 0 done, 1 a check failed or the work could not be done, 2 bad usage.
const { parseCommandArgs } = require('../lib/args')
const { PatchError, UsageError, oneLine } = require('../lib/errors')
const { FIRST_WITH_FUNCTION, UPSTREAM_WRAPPER, FIRST_WITHOUT_FUNCTION } = require('../lib/openclaw-release')

const USAGE = `Usage:
  openclaw-context patch [OPENCLAW_DIR] [--check | --revert | --dry-run]
  openclaw-context summary --state FILE --log FILE [--current-session ID] [--now TS] [--max-chars N]
  openclaw-context doctor [OPENCLAW_DIR] [--state-dir DIR]
  openclaw-context --help | --version

patch    Make an installed OpenClaw's capCompactionSummaryPreservingSuffix delegate to
         openclaw-context-native (the dist chunk is found by the function's text). Atomic
         and idempotent. OPENCLAW_DIR is the openclaw package folder; by default the one
         Node resolves from the current folder, else the one in the global npm root.
           --check    exit 0 only when patched and the addon loads from that dist
           --revert   restore the original chunk byte for byte
           --dry-run  print the change as a diff; write nothing
         Releases that need nothing say why and exit 0: before ${FIRST_WITH_FUNCTION} (the function
         does not exist yet), ${UPSTREAM_WRAPPER} (it wraps upstream's fix), ${FIRST_WITHOUT_FUNCTION}
         on (fixed upstream).

summary  Print rebuildPersistentChatContinuitySummary's output (the contents of
         continuity-summary.txt) for the memory script. A file that does not exist yet
         counts as empty.
           --state FILE           the memory-state JSON
           --log FILE             the perpetual JSON Lines log
           --current-session ID   the backend session in use (failures from others are dropped)
           --now TS               the time for timer status (default: now)
           --max-chars N          the budget in UTF-16 code units (default 6000)

doctor   Where this gateway stands, read-only: the OpenClaw release and what of this
         package it supports, the compaction cap (buggy, patched, fixed upstream), the
         plugin (installed, enabled, its settings), each chat folder (modes, log size and
         entries, unreadable or torn lines, the last backend session), and for each problem
         the command that fixes it. Exit 0 when nothing needs doing, 1 otherwise.
           --state-dir DIR        the plugin's chat folders (default: its stateDir setting)

Exit codes: 0 done, 1 a check failed or the work could not be done (reason on stderr),
2 bad usage.`

const PATCH_MODES = ['check', 'revert', 'dry-run']

function patchCommand(argv, out, err) {
  const { runPatch } = require('./patch')
  const options = Object.fromEntries(PATCH_MODES.map((mode) => [mode, { type: 'boolean' }]))
  const { positionals, options: given } = parseCommandArgs(argv, options, { allowPositionals: true })
  const modes = PATCH_MODES.filter((mode) => given[mode])
  if (modes.length > 1) throw new UsageError(`--${modes.join(' and --')} cannot be combined`)
  if (positionals.length > 1) throw new UsageError(`patch takes one OPENCLAW_DIR, got ${positionals.length}`)
  try {
    return runPatch({ dir: positionals[0], mode: modes[0] || 'apply' }, out, err)
  } catch (e) {
    if (e instanceof PatchError) {
      err(`openclaw-context: ${e.message}`)
      return 1
    }
    throw e
  }
}

function summaryCommand(argv, out, err) {
  return require('./summary').runSummary(argv, out, err)
}

function main(argv, out = (s) => process.stdout.write(`${s}\n`), err = (s) => process.stderr.write(`${s}\n`)) {
  const usage = (message) => {
    if (message) err(`openclaw-context: ${message}`)
    err(USAGE)
    return 2
  }
  if (argv.includes('--help') || argv.includes('-h') || argv[0] === 'help') {
    out(USAGE)
    return 0
  }
  if (argv[0] === '--version' || argv[0] === '-v') {
    out(require('../package.json').version)
    return 0
  }
  const [command, ...rest] = argv
  try {
    if (command === 'patch') return patchCommand(rest, out, err)
    if (command === 'summary') return summaryCommand(rest, out, err)
    if (command === 'doctor') {
      return require('./doctor')
        .runDoctor(rest, out, err)
        .catch((e) => {
          if (e instanceof UsageError) return usage(e.message)
          err(`openclaw-context: ${oneLine(e)}`)
          return 1
        })
    }
    return usage(command === undefined ? 'no command given' : `unknown command ${JSON.stringify(command)}`)
  } catch (e) {
    if (e instanceof UsageError) return usage(e.message)
    err(`openclaw-context: ${oneLine(e)}`)
    return 1
  }
}

if (require.main === module) {
  // doctor answers with a Promise (it imports the plugin's ESM modules); the others at once.
  Promise.resolve(main(process.argv.slice(2))).then((code) => {
    process.exitCode = code
  })
}

module.exports = { main, USAGE }
