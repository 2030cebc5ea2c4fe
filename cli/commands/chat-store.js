'use strict'
// What the chat commands (export, backup, verify, restore, forget, import) share: the addon's ChatStore, loaded when
// a command runs, a RangeError as a usage error, how a path and a size are printed (how a chat
// is named: lib/chat-args.js). The bytes of a chat's files are the addon's alone:
// these commands parse arguments, call ChatStore, and print.
const { UsageError, inWords } = require('../../lib/errors')
const { escapeControl } = require('../../lib/shell-quote')

/** ChatStore with `method`, or null after saying on stderr why it is missing. */
function loadChatStore(method, err) {
  let native
  try {
    native = require('../..')
  } catch (e) {
    err(`openclaw-context: the openclaw-context-native addon does not load: ${inWords(e)}`)
    return null
  }
  if (typeof native.ChatStore?.[method] !== 'function') {
    err(`openclaw-context: this build of openclaw-context-native has no ChatStore.${method}`)
    return null
  }
  return native.ChatStore
}

/** A RangeError of the addon's about an option (`options.since`, …) as a usage error. */
function usageFromRange(e, flags) {
  if (e instanceof RangeError) {
    const field = /"options\.(\w+)"/.exec(e.message)?.[1]
    const rule = /It must be (.*?)\. Received (.*)$/.exec(e.message)
    if (field && flags[field] && rule) return new UsageError(`${flags[field]} must be ${rule[1]}, got ${rule[2]}`)
    if (field && flags[field]) return new UsageError(`${flags[field]}: ${inWords(e)}`)
  }
  return e
}

/** A path as one line of output (control characters escaped). */
const shown = (p) => escapeControl(String(p), { backslashes: false })

const bytes = (n) => `${n.toLocaleString('en-US')} byte${n === 1 ? '' : 's'}`

/** Where a command's progress line goes: stderr, or nowhere under --quiet. */
const progressStream = (quiet) => (quiet ? null : process.stderr)

module.exports = { loadChatStore, usageFromRange, shown, bytes, progressStream }
