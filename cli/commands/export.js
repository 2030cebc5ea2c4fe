'use strict'
// `openclaw-context export CHAT [--format jsonl|md] [--since TS] [--until TS] [--out FILE
// [--force] [--dry-run]] [--quiet]`: a chat's log as its lines (JSON Lines) or as Markdown for
// a person, by ChatStore.exportLog (whole lines that are entries, each masked; the store's file
// rules).
// To stdout, or to a new FILE (0600, written under a temp name and renamed; an existing one
// only with --force). What was left out is said on stderr.
const fs = require('node:fs')
const path = require('node:path')
const { parseCommandArgs } = require('../../lib/args')
const { UsageError } = require('../../lib/errors')
const { withProgress } = require('../../lib/progress')
const { chatFrom, maskFrom } = require('../../lib/chat-args')
const { emptyWindow } = require('../../lib/time-bound')
const { unwrittenSuffix } = require('../../lib/out-path')
const { loadChatStore, usageFromRange, shown, bytes, progressStream } = require('./chat-store')
const { optionsOf } = require('.')

/** --out FILE, checked: a form export writes (plain text), and a new file unless --force. */
function outFile(options) {
  if (options.out === undefined) {
    if (options.force) throw new UsageError('--force goes with --out FILE')
    return undefined
  }
  if (options.out === '') throw new UsageError('--out needs a file')
  const suffix = unwrittenSuffix(options.out)
  if (suffix) {
    throw new UsageError(
      `export writes plain text (jsonl or md), not ${suffix}: --out ${options.out} would not be compressed; write a .jsonl or .md file, or pipe stdout through a compressor`,
    )
  }
  return path.resolve(options.out)
}

/** ChatStore.exportLog's options from the command line (a UsageError when they are wrong). */
function exportParams(argv) {
  const { options } = parseCommandArgs(argv, optionsOf('export'))
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
  const empty = emptyWindow(params.since, params.until)
  if (empty) throw new UsageError(empty)
  const out = outFile(options)
  if (out !== undefined) params.out = out
  Object.assign(params, maskFrom(options))
  return { params, force: !!options.force, dryRun: !!options['dry-run'], quiet: !!options.quiet }
}

/** An existing --out is refused unless --force: export only creates files by default. */
function refuseExisting(out) {
  if (!fs.lstatSync(out, { throwIfNoEntry: false })) return
  throw Object.assign(new Error(`${out} exists; export writes a new file (--force replaces it, atomically)`), {
    code: 'EEXIST',
    path: out,
  })
}

/**
 * The stderr notes of an export: a torn last line and lines that are not entries, left out;
 * entries an earlier writer stored unmasked, exported masked.
 */
function leftOutNotes(result, params, note) {
  if (result.masked > 0) {
    note(
      `openclaw-context: masked ${result.masked} entr${result.masked === 1 ? 'y' : 'ies'} of ${shown(result.logPath)} ` +
        'that an earlier writer stored unmasked (a secret or a <private> span): exported masked',
    )
  }
  if (result.tornBytes > 0) {
    note(
      `openclaw-context: left out the torn last line of ${shown(result.logPath)} (${bytes(result.tornBytes)} without a line break)`,
    )
  }
  if (result.notEntries > 0) {
    const why = params.since || params.until ? 'not an entry with a readable time' : 'not a valid entry'
    note(`openclaw-context: left out ${result.notEntries} line(s) of ${shown(result.logPath)}: ${why}`)
  }
}

/**
 * The export through ChatStore.openExport in bounded memory; its report. On POSIX the addon
 * writes it to stdout itself (`writeTo(1)`, one buffer: a chunk handed to JavaScript would
 * live until a garbage collection), or to /dev/null for a dry run; elsewhere a chunk at a time
 * through the stream, each once the last was taken. A reader that closed the pipe ends it
 * quietly, as git and rg do.
 */
async function streamed(ChatStore, params, dryRun, out) {
  const { out: _file, ...options } = params
  const exporter = await ChatStore.openExport(options)
  if (process.platform !== 'win32' && (await wroteToFd(exporter, dryRun, out))) return exporter.report
  const write = out.bytes ?? ((chunk) => new Promise((resolve) => process.stdout.write(chunk, resolve)))
  for (;;) {
    const chunk = await exporter.next()
    if (!chunk) break
    if (!dryRun) await write(chunk)
    if (out.closed?.()) break
  }
  return exporter.report
}

/**
 * The addon writes the export to stdout (or /dev/null) itself; false when this build of it has no
 * file descriptors to write to (the WASI build on a POSIX host rejects with a TypeError before
 * it reads anything), so the caller streams the chunks instead.
 */
async function wroteToFd(exporter, dryRun, out) {
  const fd = dryRun ? fs.openSync('/dev/null', 'w') : 1
  try {
    await exporter.writeTo(fd)
  } catch (error) {
    if (error?.code === 'ERR_INVALID_ARG_TYPE') return false
    if (error?.code !== 'EPIPE') throw error
    out.closed?.(true)
  } finally {
    if (dryRun) fs.closeSync(fd)
  }
  return true
}

async function runExport(argv, out, err) {
  const { params, force, dryRun, quiet } = exportParams(argv)
  if (params.out && !force) refuseExisting(params.out)
  const ChatStore = loadChatStore('exportLog', err)
  if (!ChatStore) return 1
  // To a file: the addon writes it. To stdout, and a dry run (which counts and writes nothing):
  // the export a chunk at a time, so memory stays bounded whatever the log's size.
  const work = params.out && !dryRun ? ChatStore.exportLog(params) : streamed(ChatStore, params, dryRun, out)
  let result
  try {
    result = await withProgress('exporting', work, { stream: progressStream(quiet) })
  } catch (e) {
    throw usageFromRange(e, { since: '--since', until: '--until', format: '--format' })
  }
  const what = params.format === 'md' ? 'entries' : 'lines'
  const note = quiet ? () => {} : err
  leftOutNotes(result, params, note)
  if (dryRun) {
    const where = params.out ? shown(params.out) : 'stdout'
    out(`would export ${result.exported} ${what} of ${shown(result.logPath)} to ${where} (${bytes(result.bytes)})`)
    out('dry run: nothing was written')
    return 0
  }
  if (result.out && !quiet) {
    out(
      `exported ${result.exported} ${what} of ${shown(result.logPath)} to ${shown(result.out)} (${bytes(result.bytes)})`,
    )
  }
  return 0
}

module.exports = { runExport, exportParams }
