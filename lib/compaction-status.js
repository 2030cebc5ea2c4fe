'use strict'
// Whether an installed OpenClaw carries the buggy compaction cap, and in what state:
//   'buggy'            a chunk defines OpenClaw's own capCompactionSummaryPreservingSuffix
//                      (text A: 2026.3.22 … 2026.7.1-beta.2, text B: 2026.7.1-beta.4 … 2026.8.1-beta.1)
//   'patched'          it carries this package's patch (delegates to the addon)
//   'upstream-wrapper' 2026.8.1-beta.2: the function wraps budgetCompactionSummary, the upstream fix
//   'fixed-upstream'   the function is gone (2026.8.1-beta.3 on)
//   'not-yet'          the function does not exist yet (before 2026.3.22)
//   'not-found'        none of the above: a release that should have the function, or one whose
//                      version is not SemVer, has no chunk defining it and no upstream fix
// The dist's text decides whenever the function is there; the version only when it is not.
// Used by `openclaw-context patch` and by the OpenClaw plugin at start-up (a sync read of
// dist/, ~0.1-0.2 s for the 5,000-7,000 chunks of a 2026.x release).
const path = require('node:path')
const { FUNCTION_NAME, PACKAGE_NAME, readFunction, planRevert, carriesPatch } = require('./patch-text')
const { PatchError } = require('./errors')
const { scanDist } = require('./dist-scan')
const { openclawAt, openclawVersion } = require('./find-openclaw')
const { FIRST_WITH_FUNCTION, UPSTREAM_WRAPPER, releaseWithoutFunction } = require('./openclaw-release')
const { quoteArg, escapeControl } = require('./shell-quote')

const TEXT_NAMES = {
  A: 'text A: its suffix cut is `.slice`',
  B: 'text B: its suffix cut is sliceUtf16Safe',
  other: 'a text no release has: same name and signature',
}

/**
 * One chunk that defines the function or carries the patch:
 * `{ file, name, state: 'buggy' | 'patched' | 'upstream-wrapper', text?, problem?,
 *    damaged?, original?, addon?, candidates?, replacedUpstreamFix? }`: `addon` the absolute
 * path the patched chunk loads; `candidates` instead for a chunk patched by v1, which loads
 * the package by name first.
 * `text` is the (original) function's: 'A', 'B', 'upstream-fix' or 'other'.
 */
function chunkStatus(openclawDir, chunk) {
  const name = path.relative(openclawDir, chunk.file)
  if (carriesPatch(chunk.text)) {
    try {
      const { original, candidates, addon } = planRevert(chunk.text)
      let text
      try {
        text = readFunction(original).text
      } catch {
        text = 'other'
      }
      return {
        file: chunk.file,
        name,
        state: 'patched',
        text,
        original,
        ...(candidates ? { candidates } : { addon }),
        replacedUpstreamFix: text === 'upstream-fix',
      }
    } catch (err) {
      if (err instanceof PatchError) return { file: chunk.file, name, state: 'patched', damaged: err.message }
      throw err
    }
  }
  try {
    const { text } = readFunction(chunk.text)
    return { file: chunk.file, name, state: text === 'upstream-fix' ? 'upstream-wrapper' : 'buggy', text }
  } catch (err) {
    if (err instanceof PatchError)
      return { file: chunk.file, name, state: 'buggy', text: 'other', problem: err.message }
    throw err
  }
}

function absentState(version, upstreamFix) {
  if (upstreamFix) return 'fixed-upstream'
  const byVersion = releaseWithoutFunction(version)
  return byVersion === 'not-yet' ? 'not-yet' : byVersion === 'gone' ? 'fixed-upstream' : 'not-found'
}

/** Why a dist without the function needs nothing (or, for 'not-found', why nothing can be said). */
const ABSENT_REASONS = {
  'not-yet': `has no ${FUNCTION_NAME} yet (it first appears in ${FIRST_WITH_FUNCTION})`,
  'fixed-upstream': `has no ${FUNCTION_NAME}: fixed upstream (budgetCompactionSummary replaced it)`,
  'not-found': `has no chunk defining ${FUNCTION_NAME}, nor upstream's budgetCompactionSummary, though releases ${FIRST_WITH_FUNCTION} … ${UPSTREAM_WRAPPER} define it (a modified dist?)`,
}

function chunkMessage(where, openclawDir, chunk) {
  const patchCommand = `openclaw-context patch ${quoteArg(openclawDir)}`
  switch (chunk.state) {
    case 'upstream-wrapper':
      return `${where}: ${quoteArg(chunk.name)}'s ${FUNCTION_NAME} wraps budgetCompactionSummary, the upstream fix: nothing to patch.`
    case 'patched':
      if (chunk.damaged)
        return `${where}: ${quoteArg(chunk.name)} carries a patch that is not intact (${chunk.damaged}); reinstall openclaw, then run \`${patchCommand}\`.`
      if (chunk.replacedUpstreamFix)
        return `${where}: ${quoteArg(chunk.name)} is patched, but its original ${FUNCTION_NAME} was upstream's fix (budgetCompactionSummary); \`${patchCommand}\` restores it.`
      if (chunk.candidates)
        return `${where}: ${quoteArg(chunk.name)} is patched by an earlier openclaw-context, which loads ${PACKAGE_NAME} by name first (a package planted in a node_modules above the dist would win); run \`${patchCommand}\` to update it.`
      return `${where}: ${quoteArg(chunk.name)} is patched: ${FUNCTION_NAME} delegates to ${PACKAGE_NAME}.`
    default:
      return `${where}: ${quoteArg(chunk.name)} has OpenClaw's own ${FUNCTION_NAME} (${TEXT_NAMES[chunk.text]}), which drops the whole summary body when the preserved suffix fills the budget; run \`${patchCommand}\`, then restart the gateway.`
  }
}

/**
 * The status of an install already scanned (see dist-scan.js): `{ state, version, chunk?,
 * chunks, reason?, message }`. `chunk` is the chunk the state is about (a buggy one first);
 * `reason` is set when no chunk defines the function.
 */
function statusFromScan(openclawDir, version, scan) {
  const where = `openclaw ${escapeControl(version)} at ${quoteArg(openclawDir)}`
  const chunks = scan.chunks.map((chunk) => chunkStatus(openclawDir, chunk))
  if (chunks.length === 0) {
    const state = absentState(version, scan.upstreamFix)
    const reason = ABSENT_REASONS[state]
    const message =
      state === 'not-found'
        ? `${where} ${reason}; cannot tell whether it needs patching.`
        : `${where} ${reason}; nothing to patch.`
    return { state, version, chunks, reason, message }
  }
  const chunk = ['buggy', 'patched', 'upstream-wrapper']
    .map((state) => chunks.find((c) => c.state === state))
    .find(Boolean)
  for (const c of chunks) c.message = chunkMessage(where, openclawDir, c)
  return { state: chunk.state, version, chunk: chunk.file, chunks, message: chunk.message }
}

/**
 * compactionStatus(openclawPackageDir) -> { state, version, chunk?, message, chunks }
 *
 * `openclawPackageDir`: the `openclaw` package folder (or a folder with node_modules/openclaw,
 * or its dist/). `state`: 'not-yet' | 'buggy' | 'patched' | 'upstream-wrapper' |
 * 'fixed-upstream' | 'not-found' (see the top of this file). `version`: package.json's ('?'
 * if none). `chunk`: the absolute path of the chunk the state is about, when one defines the
 * function. `message`: one line for a log, naming `openclaw-context patch` when it is needed.
 * `chunks`: every chunk that defines the function, with its own state and message.
 * Reads files only (no child process, nothing written). Throws an Error with a one-line
 * message when the folder is not an openclaw package or dist/ cannot be read.
 */
function compactionStatus(openclawPackageDir) {
  const openclawDir = openclawAt(openclawPackageDir)
  const { state, version, chunk, chunks, message } = statusFromScan(
    openclawDir,
    openclawVersion(openclawDir),
    scanDist(openclawDir),
  )
  const status = {
    state,
    version,
    message,
    chunks: chunks.map((c) => ({ file: c.file, state: c.state, text: c.text, message: c.message })),
  }
  if (chunk) status.chunk = chunk
  return status
}

module.exports = { compactionStatus, statusFromScan }
