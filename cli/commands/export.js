'use strict'
// `openclaw-context export CHAT [--format jsonl|md] [--since TS] [--until TS] [--out FILE]`:
// a chat's log as its lines (JSON Lines) or as Markdown for a person, by ChatStore.exportLog
// (whole lines that are entries only, each masked, the store's file rules). To stdout, or to FILE
// (0600, written under a temp name and renamed). What was left out is said on stderr.
const path = require('node:path')
const { parseCommandArgs } = require('../../lib/args')
const { UsageError } = require('../../lib/errors')
const { withProgress } = require('../../lib/progress')
const { CHAT_OPTIONS, chatFrom } = require('../../lib/chat-args')
const { loadChatStore, usageFromRange, shown, bytes } = require('./chat-store')

const OPTIONS = {
  ...CHAT_OPTIONS,
  format: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  out: { type: 'string' },
}

/** ChatStore.exportLog's options from the command line (a UsageError when they are wrong). */
function exportParams(argv) {
  const { options } = parseCommandArgs(argv, OPTIONS)
  const params = chatFrom(options, 'export')
  const format = options.format ?? 'jsonl'
  if (format !== 'jsonl' && format !== 'md') {
    throw new UsageError(`--format must be jsonl or md, got ${JSON.stringify(format)}`)
  }
  params.format = format
  for (const bound of ['since', 'until']) {
    if (options[bound] === undefined) continue
    if (options[bound].trim() === '') throw new UsageError(`--${bound} needs a timestamp`)
    params[bound] = options[bound]
  }
  if (options.out !== undefined) {
    if (options.out === '') throw new UsageError('--out needs a file')
    params.out = path.resolve(options.out)
  }
  return params
}

async function runExport(argv, out, err) {
  const params = exportParams(argv)
  const ChatStore = loadChatStore('exportLog', err)
  if (!ChatStore) return 1
  let result
  try {
    result = await withProgress('exporting', ChatStore.exportLog(params))
  } catch (e) {
    throw usageFromRange(e, { since: '--since', until: '--until', format: '--format' })
  }
  if (result.data) process.stdout.write(result.data)
  const what = params.format === 'md' ? 'entries' : 'lines'
  if (result.tornBytes > 0) {
    err(
      `openclaw-context: left out the torn last line of ${shown(result.logPath)} (${bytes(result.tornBytes)} without a line break)`,
    )
  }
  if (result.notEntries > 0) {
    const why = params.since || params.until ? 'not an entry with a readable time' : 'not a valid entry'
    err(`openclaw-context: left out ${result.notEntries} line(s) of ${shown(result.logPath)}: ${why}`)
  }
  if (result.masked > 0) {
    err(
      `openclaw-context: masked ${result.masked} entr${result.masked === 1 ? 'y' : 'ies'} of ${shown(result.logPath)} ` +
        'that an earlier writer stored unmasked (a secret or a <private> span): exported masked',
    )
  }
  if (result.out) {
    out(
      `exported ${result.exported} ${what} of ${shown(result.logPath)} to ${shown(result.out)} (${bytes(result.bytes)})`,
    )
  }
  return 0
}

module.exports = { runExport, exportParams }
