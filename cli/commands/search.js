'use strict'
// `openclaw-context search (--log FILE | --state-dir DIR --session-key KEY) [--limit N] [--json]
// QUERY…`: the chat's log searched as the plugin's tools search it, best first. One hit a line:
// `#line [ts] role: excerpt`, control characters escaped so a hostile entry cannot add a line or
// move the terminal; or, with --json, one JSON hit a line. Changes nothing but the search's own
// index (a cache the search keeps beside the log) and, for a chat named by its key, the folder's
// empty lock file: a chat folder is never created or migrated. No hit: stdout stays empty (a
// script reads nothing) and a note on stderr says so, unless --quiet or --json.
const { parseCommandArgs } = require('../../lib/args')
const { chatFrom } = require('../../lib/chat-args')
const { UsageError } = require('../../lib/errors')
const { escapeControl } = require('../../lib/shell-quote')
const { withProgress } = require('../../lib/progress')
const { progressStream, shown } = require('./chat-store')
const { optionsOf } = require('.')

function searchArgs(argv) {
  const { positionals, options } = parseCommandArgs(argv, optionsOf('search'), { allowPositionals: true })
  const chat = chatFrom(options, 'search')
  const query = positionals.join(' ')
  if (query.trim() === '') throw new UsageError('search needs a QUERY')
  let limit = 10
  if (options.limit !== undefined) {
    limit = /^\d+$/.test(options.limit) ? Number(options.limit) : Number.NaN
    if (!(limit >= 1 && limit <= 100)) throw new UsageError('--limit takes a whole number from 1 to 100')
  }
  return { chat, query, limit, json: options.json === true, quiet: options.quiet === true }
}

/** A hit as one printed line. */
function hitLine(hit) {
  const ts = hit.ts === undefined ? '' : ` [${escapeControl(String(hit.ts))}]`
  return `#${hit.line}${ts} ${hit.role}: ${escapeControl(hit.text)}`
}

async function runSearch(argv, out, err = () => {}) {
  const { chat, query, limit, json, quiet } = searchArgs(argv)
  const native = require('../..')
  // Time words ("yesterday", "in May") are read at the clock in this machine's time zone; a zone
  // name the addon's tz database does not know is given as its offset now.
  const search = async (timeZone) => {
    if (chat.log) return native.searchPersistentChatLog(chat.log, query, { limit, refuseLinks: true, timeZone })
    const store = await native.ChatStore.open({ ...chat, create: false }).catch((e) => {
      if (e.code !== 'ENOENT') throw e
      throw new Error(`no chat for that session key in ${chat.stateDir} (${e.path} does not exist)`)
    })
    return store.search(query, { limit, timeZone })
  }
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
  const searching = search(zone).catch((error) => {
    if (error?.name !== 'RangeError' || !String(error.message).includes('timeZone"')) throw error
    return search(-new Date().getTimezoneOffset())
  })
  // A chat's first search builds its index from the whole log: on a terminal, how far it is.
  const hits = await withProgress('searching (indexing the log)', searching, { stream: progressStream(quiet) })
  for (const hit of hits) out(json ? JSON.stringify(hit) : hitLine(hit))
  if (hits.length === 0 && !json && !quiet) {
    const where = chat.log
      ? shown(chat.log)
      : `the chat of ${escapeControl(chat.sessionKey)} in ${shown(chat.stateDir)}`
    err(`openclaw-context: no hits for ${escapeControl(JSON.stringify(query))} in ${where}`)
  }
  return 0
}

module.exports = { runSearch, searchArgs, hitLine }
