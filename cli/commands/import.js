'use strict'
// `openclaw-context import CHAT (--from-export FILE | --from-openclaw [OPENCLAW_STATE_DIR]) [--apply] [--json]
// [--quiet]`: a chat's log backfilled by ChatStore.importLog, from an export of this package
// (byte for byte) or from what OpenClaw stored for the session key (lib/openclaw-transcript.js
// finds it; the addon parses, masks, keys and merges it). Without --apply a dry run. An
// OpenClaw state dir that is not there is a usage error naming the folder looked at (the
// default one too): importing "nothing found" from a mistyped path would read as success.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { parseCommandArgs } = require('../../lib/args')
const { UsageError, inWords } = require('../../lib/errors')
const { withProgress } = require('../../lib/progress')
const { chatFrom, maskFrom } = require('../../lib/chat-args')
const { loadChatStore, shown, progressStream } = require('./chat-store')
const { optionsOf } = require('.')

/** OpenClaw's state dir when none is given, as OpenClaw resolves it, and how it was chosen. */
function defaultOpenclawDir() {
  if (process.env.OPENCLAW_STATE_DIR) return { dir: process.env.OPENCLAW_STATE_DIR, how: '$OPENCLAW_STATE_DIR' }
  return { dir: path.join(os.homedir(), '.openclaw'), how: 'the default' }
}

/** OpenClaw's state dir to read, which must be a folder (a UsageError naming it otherwise). */
function openclawDirFrom(given) {
  const { dir, how } = given === undefined ? defaultOpenclawDir() : { dir: given, how: 'given' }
  const resolved = path.resolve(dir)
  const stats = fs.statSync(resolved, { throwIfNoEntry: false })
  if (!stats?.isDirectory()) {
    const what = stats ? 'is not a folder' : 'does not exist'
    const hint = given === undefined ? '; name the state dir: --from-openclaw DIR' : ''
    throw new UsageError(`OpenClaw state dir ${shown(resolved)} (${how}) ${what}${hint}`)
  }
  return resolved
}

function importParams(argv) {
  const { positionals, options } = parseCommandArgs(argv, optionsOf('import'), { allowPositionals: true })
  const params = chatFrom(options, 'import')
  const fromExport = options['from-export']
  if ((fromExport !== undefined) === !!options['from-openclaw']) {
    throw new UsageError('import needs either --from-export FILE or --from-openclaw [OPENCLAW_STATE_DIR]')
  }
  if (positionals.length > (options['from-openclaw'] ? 1 : 0)) {
    throw new UsageError(`unexpected argument ${positionals[positionals.length - 1]}`)
  }
  let openclawDir
  if (fromExport !== undefined) {
    if (fromExport === '') throw new UsageError('--from-export needs a file')
    params.fromExport = path.resolve(fromExport)
  } else {
    if (!params.sessionKey) throw new UsageError('--from-openclaw needs the chat as --state-dir DIR --session-key KEY')
    openclawDir = openclawDirFrom(positionals[0])
  }
  params.apply = !!options.apply
  params.force = !!options.force
  Object.assign(params, maskFrom(options))
  return { params, openclawDir, json: !!options.json, quiet: !!options.quiet }
}

async function runImport(argv, out, err) {
  const { params, openclawDir, json, quiet } = importParams(argv)
  const ChatStore = loadChatStore('importLog', err)
  if (!ChatStore) return 1
  let found
  if (openclawDir) {
    const { openclawTranscript } = require('../../lib/openclaw-transcript')
    try {
      found = openclawTranscript(openclawDir, params.sessionKey)
    } catch (e) {
      err(`openclaw-context: cannot read OpenClaw's store under ${shown(openclawDir)}: ${inWords(e)}`)
      return 1
    }
    // Nothing of this key in OpenClaw's store: a typo'd key or folder must not read as success.
    if (found.store === 'none') {
      err(
        `openclaw-context: OpenClaw's store under ${shown(openclawDir)} holds nothing for the session key ` +
          `${JSON.stringify(params.sessionKey)} (no transcript file, no SQLite store of its agent): nothing imported`,
      )
      return 1
    }
    params.fromOpenclaw = { files: found.files, events: found.events }
  }
  const result = await withProgress('importing', ChatStore.importLog(params), { stream: progressStream(quiet) })
  if (json) {
    out(
      JSON.stringify(
        found ? { ...result, openclawStore: found.store, openclawSessions: found.sessions } : result,
        null,
        2,
      ),
    )
    return 0
  }
  const source = found
    ? `OpenClaw's ${found.store === 'sqlite' ? 'SQLite store' : 'transcript file'} under ${shown(openclawDir)}`
    : shown(params.fromExport)
  const verb = result.applied ? 'imported' : 'would import'
  const span = result.firstTs ? ` (${result.firstTs} … ${result.lastTs})` : ''
  out(`${verb} ${result.imported} of ${result.read} entries from ${source} into ${shown(result.logPath)}${span}`)
  // Entries that could not be read are a loss to report, --quiet or not.
  if (found?.tooLarge) {
    err(
      `openclaw-context: ${found.tooLarge} event(s) left out: larger than 16 MiB once decompressed (no message of a chat is)`,
    )
  }
  if (found?.undecodable) {
    err(
      `openclaw-context: ${found.undecodable} compressed event(s) left out: Node ${process.version} has no zstd (Node 22.15 or later has)`,
    )
  }
  if (quiet) return 0
  if (result.already) out(`  ${result.already} already in the log`)
  if (result.merged) out(`  ${result.merged} merged before its last entry, in time order`)
  if (result.liveMessages)
    out(`  ${result.liveMessages} user turn(s) held an injected prompt: their live message alone`)
  if (result.masked) out(`  ${result.masked} masked (a secret or a <private> span the source held in clear)`)
  if (result.cut) out(`  ${result.cut} cut to the log's 8 MiB line cap`)
  if (result.forgotten) out(`  ${result.forgotten} left out: forget removed them from this chat (--force imports them)`)
  if (!result.applied) out('dry run: nothing was written; run again with --apply to import')
  return 0
}

module.exports = { runImport, importParams }
