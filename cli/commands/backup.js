'use strict'
// `openclaw-context backup --state-dir DIR [--session-key KEY] --out PATH [--force] [--dry-run]
// [--json] [--quiet]`: a consistent copy of one chat or every chat folder of DIR, by
// ChatStore.backup, into a new folder or .tar with a manifest. It writes by default (it only
// ever creates PATH; an existing one is refused unless --force); --dry-run reads and hashes
// everything and says what it would write. --apply, the old way to write, is accepted and does
// nothing. Exit 1 when a chat folder or file was refused (named).
const fs = require('node:fs')
const path = require('node:path')
const { parseCommandArgs } = require('../../lib/args')
const { UsageError, inWords } = require('../../lib/errors')
const { withProgress } = require('../../lib/progress')
const { unwrittenSuffix } = require('../../lib/out-path')
const { loadChatStore, shown, bytes, progressStream } = require('./chat-store')
const { backupReplacing } = require('./backup-replace')
const { optionsOf } = require('.')

/** --out PATH, checked: a folder or a .tar, never a compressed form made into a folder's name. */
function outPath(out) {
  if (!out) throw new UsageError('backup needs --out PATH (a new folder, or a new file ending in .tar)')
  const suffix = unwrittenSuffix(out)
  if (suffix) {
    throw new UsageError(
      `backup writes a folder or a .tar file, not ${suffix}: use --out ${out.slice(0, -suffix.length)}.tar (then compress it) or a folder name`,
    )
  }
  return path.resolve(out)
}

function backupParams(argv) {
  const { options } = parseCommandArgs(argv, optionsOf('backup'))
  if (!options['state-dir']) throw new UsageError('backup needs --state-dir DIR')
  const out = outPath(options.out)
  if (options['session-key'] === '') throw new UsageError('--session-key needs a key')
  if (options['dry-run'] && options.apply) throw new UsageError('--dry-run and --apply cannot be combined')
  const params = { stateDir: path.resolve(options['state-dir']), out, apply: !options['dry-run'] }
  if (options['session-key'] !== undefined) params.sessionKey = options['session-key']
  return { params, force: !!options.force, json: !!options.json, quiet: !!options.quiet }
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

/** The backup as the addon makes it, or over an existing one with --force. */
function backUp(ChatStore, params, force) {
  const stats = fs.lstatSync(params.out, { throwIfNoEntry: false })
  if (!stats) return ChatStore.backup(params)
  if (!force) {
    throw Object.assign(
      new Error(`${params.out} exists; backup only creates a new folder or .tar (--force replaces an earlier backup)`),
      { code: 'EEXIST', path: params.out },
    )
  }
  return backupReplacing(ChatStore, params, stats)
}

function printResult(result, out) {
  const files = result.chats.reduce((n, chat) => n + chat.files.length, 0)
  const size = result.chats.reduce((n, chat) => n + chat.files.reduce((m, file) => m + file.size, 0), 0)
  const into = `${shown(result.out)} (${result.form === 'tar' ? 'a tar file' : 'a folder'})`
  const counts = `${result.chats.length} chat(s), ${files} file(s), ${bytes(size)}`
  out(result.written ? `backed up ${counts} into ${into}` : `would back up ${counts} into ${into}`)
  for (const chat of result.chats) out(chatLine(chat))
  if (result.notCopied.length) out(`not copied (not chat files): ${result.notCopied.map(shown).join(', ')}`)
  if (!result.written) out('dry run: nothing was written; run again without --dry-run to write it')
}

async function runBackup(argv, out, err) {
  const { params, force, json, quiet } = backupParams(argv)
  const ChatStore = loadChatStore('backup', err)
  if (!ChatStore) return 1
  const label = params.apply ? 'backing up' : 'reading for the backup'
  const result = await withProgress(label, backUp(ChatStore, params, force), { stream: progressStream(quiet) })
  if (json) out(JSON.stringify(result, null, 2))
  else if (!quiet) printResult(result, out)
  for (const refusal of result.refused) {
    err(
      `openclaw-context: refused ${shown(refusal.path)}: ${inWords(refusal.message)} (that chat is not in the backup)`,
    )
  }
  return result.refused.length ? 1 : 0
}

module.exports = { runBackup, backupParams }
