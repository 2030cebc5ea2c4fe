'use strict'
// `openclaw-context verify PATH [--json] [--quiet]`: a backup (a folder with manifest.json, or a .tar)
// checked against its manifest, or a live state dir's chat folders against the store's rules,
// by ChatStore.verify. Each problem is named with its path (--quiet: the problems alone). Exit
// 0 when clean, 1 otherwise.
const path = require('node:path')
const { parseCommandArgs } = require('../../lib/args')
const { UsageError, inWords } = require('../../lib/errors')
const { withProgress } = require('../../lib/progress')
const { loadChatStore, shown, progressStream } = require('./chat-store')
const { optionsOf } = require('.')

const KINDS = { 'backup-folder': 'a backup folder', 'backup-tar': 'a backup tar file', 'state-dir': 'a state dir' }

async function runVerify(argv, out, err) {
  const { positionals, options } = parseCommandArgs(argv, optionsOf('verify'), { allowPositionals: true })
  if (positionals.length !== 1 || positionals[0] === '') {
    throw new UsageError('verify needs one PATH (a backup folder or .tar, or a state dir)')
  }
  const ChatStore = loadChatStore('verify', err)
  if (!ChatStore) return 1
  const work = ChatStore.verify(path.resolve(positionals[0]))
  const result = await withProgress('verifying', work, { stream: progressStream(options.quiet) })
  if (options.json) {
    out(JSON.stringify(result, null, 2))
  } else {
    const head = `${shown(result.path)}: ${KINDS[result.kind]}, ${result.chats} chat(s), ${result.files} file(s)`
    if (!options.quiet) out(result.problems.length ? `${head}: ${result.problems.length} problem(s)` : `${head}: clean`)
    for (const problem of result.problems) out(`  ${problem.kind}: ${shown(problem.path)}: ${inWords(problem.message)}`)
  }
  return result.problems.length ? 1 : 0
}

module.exports = { runVerify }
