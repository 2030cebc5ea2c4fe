'use strict'
// `openclaw-context restore PATH --state-dir DIR [--apply] [--force] [--json] [--quiet]`: a backup (a folder
// with manifest.json, or a .tar) put back into a state dir by ChatStore.restore. The backup is
// verified first; a chat whose log has lines the backup lacks is refused unless --force.
// Without --apply a dry run. Exit 1 when the backup has problems or a chat was refused.
const path = require('node:path')
const { parseCommandArgs } = require('../../lib/args')
const { UsageError, inWords } = require('../../lib/errors')
const { withProgress } = require('../../lib/progress')
const { maskFrom } = require('../../lib/chat-args')
const { loadChatStore, shown, progressStream } = require('./chat-store')
const { optionsOf } = require('.')

function restoreParams(argv) {
  const { positionals, options } = parseCommandArgs(argv, optionsOf('restore'), { allowPositionals: true })
  if (positionals.length !== 1 || positionals[0] === '') {
    throw new UsageError('restore needs one PATH (a backup folder or .tar)')
  }
  if (!options['state-dir']) throw new UsageError('restore needs --state-dir DIR')
  return {
    params: {
      from: path.resolve(positionals[0]),
      stateDir: path.resolve(options['state-dir']),
      apply: !!options.apply,
      force: !!options.force,
      ...maskFrom(options),
    },
    json: !!options.json,
    quiet: !!options.quiet,
  }
}

const DONE = { create: 'created', replace: 'replaced', unchanged: 'unchanged', refused: 'refused' }
const PLANNED = { create: 'would create', replace: 'would replace', unchanged: 'unchanged', refused: 'refused' }

function chatLine(chat, applied) {
  const verb = (applied ? DONE : PLANNED)[chat.action]
  const lost = chat.liveOnlyLines
    ? chat.action === 'refused'
      ? `: its log has ${chat.liveOnlyLines} line(s) the backup lacks (--force replaces them, and they are lost)`
      : ` (${chat.liveOnlyLines} line(s) only in the live log are lost)`
    : ''
  const notes = [
    chat.maskedLines ? `${chat.maskedLines} line(s) masked` : '',
    chat.forgotten ? `${chat.forgotten} forgotten entr${chat.forgotten === 1 ? 'y' : 'ies'} left out` : '',
  ].filter(Boolean)
  const more = notes.length ? `; ${notes.join(', ')}` : ''
  return `  ${verb} ${shown(chat.folder)} (${chat.entries} entries, ${chat.files.join(', ') || 'no files'}${more})${lost}`
}

async function runRestore(argv, out, err) {
  const { params, json, quiet } = restoreParams(argv)
  const ChatStore = loadChatStore('restore', err)
  if (!ChatStore) return 1
  const label = params.apply ? 'restoring' : 'verifying the backup'
  const result = await withProgress(label, ChatStore.restore(params), { stream: progressStream(quiet) })
  const refused = result.chats.filter((chat) => chat.action === 'refused')
  if (json) {
    out(JSON.stringify(result, null, 2))
  } else if (result.problems.length) {
    err(`openclaw-context: ${shown(result.from)} does not verify; nothing was restored:`)
    for (const problem of result.problems) err(`  ${problem.kind}: ${shown(problem.path)}: ${inWords(problem.message)}`)
  } else {
    // Only what changed counts as restored: an unchanged chat is the backup's already.
    const changed = result.chats.filter((chat) => chat.action === 'create' || chat.action === 'replace')
    const unchanged = result.chats.length - changed.length - refused.length
    const verb = result.applied ? 'restored' : 'would restore'
    const rest = [unchanged ? `${unchanged} unchanged` : '', refused.length ? `${refused.length} refused` : '']
      .filter(Boolean)
      .join(', ')
    out(
      `${verb} ${changed.length} of ${result.chats.length} chat(s) from ${shown(result.from)} into ${shown(result.stateDir)}${rest ? ` (${rest})` : ''}`,
    )
    // --quiet: the line above, and the refused chats (a script must know why it failed).
    for (const chat of result.chats) if (!quiet || chat.action === 'refused') out(chatLine(chat, result.applied))
    if (!result.applied && !quiet) out('dry run: nothing was written; run again with --apply to restore')
  }
  return result.problems.length || refused.length ? 1 : 0
}

module.exports = { runRestore, restoreParams }
