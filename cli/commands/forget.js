'use strict'
// `openclaw-context forget CHAT (--id ID | --before TS | --match TEXT) [--apply] [--json] [--quiet]`:
// entries removed from a chat's log and from every file derived from it, by
// ChatStore.forgetIn (the log rewritten through a temp file and a rename under the folder's
// lock, so a gateway's appends meanwhile are kept). Without --apply a dry run: it lists what
// would be removed and changes nothing.
const { parseCommandArgs } = require('../../lib/args')
const { UsageError } = require('../../lib/errors')
const { withProgress } = require('../../lib/progress')
const { chatFrom, maskFrom } = require('../../lib/chat-args')
const { escapeControl } = require('../../lib/shell-quote')
const { loadChatStore, usageFromRange, shown, bytes, progressStream } = require('./chat-store')
const { optionsOf } = require('.')

function forgetParams(argv) {
  const { options } = parseCommandArgs(argv, optionsOf('forget'))
  const params = chatFrom(options, 'forget')
  if (options.id) {
    if (options.id.some((id) => id === '')) throw new UsageError('--id needs an id')
    params.id = options.id
  }
  if (options.before !== undefined) {
    if (options.before.trim() === '') throw new UsageError('--before needs a timestamp')
    params.before = options.before
  }
  if (options.match !== undefined) {
    if (options.match === '') throw new UsageError('--match needs a text')
    params.match = options.match
  }
  if (options['ignore-case']) {
    if (options.match === undefined) throw new UsageError('--ignore-case goes with --match TEXT')
    params.ignoreCase = true
  }
  if (!params.id && params.before === undefined && params.match === undefined) {
    throw new UsageError('forget needs --id ID, --before TS or --match TEXT')
  }
  params.apply = !!options.apply
  Object.assign(params, maskFrom(options))
  return { params, json: !!options.json, quiet: !!options.quiet }
}

/** One removed entry as one line: `#LINE [TS] ROLE: TEXT` (control characters escaped). */
function entryLine(entry) {
  const ts = entry.ts === undefined ? '' : ` [${escapeControl(entry.ts)}]`
  return `  #${entry.line}${ts} ${entry.role ?? '(not an entry)'}: ${escapeControl(entry.text)}`
}

async function runForget(argv, out, err) {
  const { params, json, quiet } = forgetParams(argv)
  const ChatStore = loadChatStore('forgetIn', err)
  if (!ChatStore) return 1
  let result
  try {
    const label = params.apply ? 'forgetting' : 'looking for what to forget'
    result = await withProgress(label, ChatStore.forgetIn(params), { stream: progressStream(quiet) })
  } catch (e) {
    throw usageFromRange(e, { before: '--before', id: '--id', match: '--match' })
  }
  if (json) {
    out(JSON.stringify(result, null, 2))
    return 0
  }
  const verb = result.applied ? 'removed' : 'would remove'
  out(
    `${verb} ${result.removedLines} of ${result.lines} line(s) (${bytes(result.removedBytes)}) from ${shown(result.logPath)}`,
  )
  if (quiet) return 0
  for (const entry of result.removed) out(entryLine(entry))
  if (result.removedLines > result.removed.length) {
    out(`  … and ${result.removedLines - result.removed.length} more`)
  }
  if (result.derivedFiles.length) {
    out(`${verb} the derived file(s), rebuilt at the next turn: ${result.derivedFiles.map(shown).join(', ')}`)
  }
  if (result.missedLines) {
    out(
      `kept ${result.missedLines} entr${result.missedLines === 1 ? 'y' : 'ies'} holding the text only in another case ` +
        'or with other accents (--ignore-case removes them too):',
    )
    for (const entry of result.missedByCase) out(entryLine(entry))
  }
  if (result.carriedLines) {
    out(`kept ${result.carriedLines} line(s) another process appended without the chat's lock during the rewrite`)
  }
  if (result.memoryStateStrings) {
    out(`${result.applied ? 'scrubbed' : 'would scrub'} ${result.memoryStateStrings} string(s) of memory-state.json`)
  }
  if (result.tempFiles.length) out(`${verb} temp file(s): ${result.tempFiles.map(shown).join(', ')}`)
  if (!result.applied) out('dry run: nothing was changed; run again with --apply to remove it')
  return 0
}

module.exports = { runForget, forgetParams }
