'use strict'
// `openclaw-context backup --state-dir DIR [--session-key KEY] --out PATH [--apply] [--json]`:
// a consistent copy of one chat or every chat folder of DIR, by ChatStore.backup, into a
// folder or a .tar with a manifest. Without --apply a dry run: it reads and hashes everything
// and says what it would write. Exit 1 when a chat folder or file was refused (named).
const path = require('node:path')
const { parseCommandArgs } = require('../../lib/args')
const { UsageError } = require('../../lib/errors')
const { withProgress } = require('../../lib/progress')
const { loadChatStore, shown, bytes } = require('./chat-store')

const OPTIONS = {
  'state-dir': { type: 'string' },
  'session-key': { type: 'string' },
  out: { type: 'string' },
  apply: { type: 'boolean' },
  json: { type: 'boolean' },
}

function backupParams(argv) {
  const { options } = parseCommandArgs(argv, OPTIONS)
  if (!options['state-dir']) throw new UsageError('backup needs --state-dir DIR')
  if (!options.out) throw new UsageError('backup needs --out PATH (a folder, or a file ending in .tar)')
  if (options['session-key'] === '') throw new UsageError('--session-key needs a key')
  const params = {
    stateDir: path.resolve(options['state-dir']),
    out: path.resolve(options.out),
    apply: !!options.apply,
  }
  if (options['session-key'] !== undefined) params.sessionKey = options['session-key']
  return { params, json: !!options.json }
}

/** One line per chat: its files, sizes and the log's entries. */
function chatLine(chat) {
  const files = chat.files.map((file) => {
    const entries = file.entries === undefined ? '' : `, ${file.entries} entries`
    const leftOut = file.leftOutBytes > 0 ? `, a torn last line of ${bytes(file.leftOutBytes)} left out` : ''
    return `${file.name} ${bytes(file.size)}${entries}${leftOut}`
  })
  return `  ${shown(chat.folder)}: ${files.length ? files.join('; ') : 'no chat files'}`
}

async function runBackup(argv, out, err) {
  const { params, json } = backupParams(argv)
  const ChatStore = loadChatStore('backup', err)
  if (!ChatStore) return 1
  const result = await withProgress(params.apply ? 'backing up' : 'reading for the backup', ChatStore.backup(params))
  if (json) {
    out(JSON.stringify(result, null, 2))
  } else {
    const files = result.chats.reduce((n, chat) => n + chat.files.length, 0)
    const size = result.chats.reduce((n, chat) => n + chat.files.reduce((m, file) => m + file.size, 0), 0)
    const into = `${shown(result.out)} (${result.form === 'tar' ? 'a tar file' : 'a folder'})`
    const counts = `${result.chats.length} chat(s), ${files} file(s), ${bytes(size)}`
    out(result.written ? `backed up ${counts} into ${into}` : `would back up ${counts} into ${into}`)
    for (const chat of result.chats) out(chatLine(chat))
    if (result.notCopied.length) out(`not copied (not chat files): ${result.notCopied.map(shown).join(', ')}`)
    if (!result.written) out('dry run: nothing was written; run again with --apply to write it')
  }
  for (const refusal of result.refused) {
    err(`openclaw-context: refused ${shown(refusal.path)}: ${shown(refusal.message)} (that chat is not in the backup)`)
  }
  return result.refused.length ? 1 : 0
}

module.exports = { runBackup, backupParams }
