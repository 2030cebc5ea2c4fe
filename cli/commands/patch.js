'use strict'
// `openclaw-context patch [OPENCLAW_DIR] [--check | --revert | --dry-run]`: makes an
// installed OpenClaw's capCompactionSummaryPreservingSuffix delegate to this package's
// addon, and leaves every release that does not need it alone, saying why. The pieces
// live in lib/: finding the install, scanning dist/, the state of each chunk, the patch
// text, atomic writing, the addon probe, the dry-run diff, the persistent-chat report.
const path = require('node:path')
const { findOpenClaw, openclawVersion } = require('../../lib/find-openclaw')
const { scanDist } = require('../../lib/dist-scan')
const { statusFromScan } = require('../../lib/compaction-status')
const { FUNCTION_NAME, PACKAGE_NAME, sha256, planPatch } = require('../../lib/patch-text')
const { parseCommandArgs } = require('../../lib/args')
const { PatchError, UsageError } = require('../../lib/errors')
const { writeAtomic, staleTempFiles } = require('../../lib/write-atomic')
const { probe } = require('../../lib/probe-addon')
const { unifiedDiff, differingSpan } = require('../../lib/unified-diff')
const { persistentChatAdvice } = require('../../lib/persistent-chat-advice')
const { quoteArg, escapeControl } = require('../../lib/shell-quote')
const { optionsOf } = require('.')

const PACKAGE_ROOT = path.resolve(__dirname, '..', '..')
/**
 * Where `patch` looks for the addon, from the chunk's folder: by name (the copy installed next
 * to OpenClaw), else where this copy of the command lives. The first that resolves, is
 * trusted and works is written into the chunk as an absolute path, and is all it ever loads.
 */
const CANDIDATES = [PACKAGE_NAME, PACKAGE_ROOT]

// A diff names files the way diffs do everywhere, with forward slashes.
const diffLabel = (name) => escapeControl(name.split(path.sep).join('/'))

/** --check: exit 0 only when patched and the addon loads, or when there is nothing to patch. */
function checkChunk(ctx, chunk) {
  if (chunk.state === 'upstream-wrapper') {
    ctx.out(chunk.message)
    return 0
  }
  if (chunk.state === 'buggy') {
    ctx.err(
      `not patched: ${quoteArg(chunk.file)} still has OpenClaw's own ${FUNCTION_NAME} (run \`${ctx.patchCommand}\`)`,
    )
    return 1
  }
  if (chunk.candidates) {
    // v1: it would resolve the package name again at every load; nothing is loaded to check it.
    ctx.err(
      `patched by an earlier openclaw-context: ${quoteArg(chunk.name)} loads ${PACKAGE_NAME} by name first, which a package planted later in a node_modules above the dist would win; run \`${ctx.patchCommand}\` to update it`,
    )
    if (chunk.replacedUpstreamFix) ctx.err(`warning: ${chunk.message}`)
    return 1
  }
  // The one file the chunk loads: the probe loads that and nothing else.
  const result = probe(chunk.file, [chunk.addon], ctx.probeOptions)
  if (!result.ok) {
    ctx.err(`patched, but ${PACKAGE_NAME} does not load from ${quoteArg(chunk.addon)}: ${result.failures.join('; ')}`)
    return 1
  }
  ctx.out(
    `patched: ${quoteArg(chunk.name)} (openclaw ${ctx.version}); the addon loads from ${quoteArg(result.resolved)}, the only file the chunk loads (${PACKAGE_NAME} ${result.version})`,
  )
  if (chunk.damaged) ctx.err(`warning: ${quoteArg(chunk.name)}: ${chunk.damaged}; --revert will refuse`)
  if (chunk.replacedUpstreamFix) ctx.err(`warning: ${chunk.message}`)
  return 0
}

function revertChunk(ctx, chunk) {
  if (chunk.state !== 'patched') {
    ctx.out(`not patched: ${quoteArg(chunk.name)} is OpenClaw's original; nothing to revert.`)
    return
  }
  if (chunk.damaged)
    throw new PatchError(`${quoteArg(chunk.file)}: ${chunk.damaged}; reinstall openclaw to get the original back`)
  writeAtomic(chunk.file, chunk.original)
  ctx.out(
    `reverted: ${quoteArg(chunk.name)} restored byte for byte (sha256 ${sha256(chunk.original).slice(0, 16)}…). Restart the gateway to use it.`,
  )
}

/** An earlier version of this tool replaced 2026.8.1-beta.2's wrapper: put upstream's fix back. */
function restoreUpstreamFix(ctx, chunk, text, dryRun) {
  if (dryRun) {
    ctx.out(unifiedDiff(diffLabel(chunk.name), text, [differingSpan(text, chunk.original)]))
    ctx.out(
      `dry run: ${quoteArg(chunk.name)} would get back its original ${FUNCTION_NAME}, upstream's fix (budgetCompactionSummary); nothing was written.`,
    )
    return
  }
  writeAtomic(chunk.file, chunk.original)
  ctx.out(
    `restored: ${quoteArg(chunk.name)}'s original ${FUNCTION_NAME} wraps budgetCompactionSummary, upstream's fix, which an earlier openclaw-context had replaced; nothing to patch. Restart the gateway to use it.`,
  )
}

/** Patch (or, for --dry-run, show the patch of) one chunk that defines the function. */
function patchChunk(ctx, chunk, text, dryRun) {
  if (chunk.state === 'upstream-wrapper') {
    ctx.out(chunk.message)
    return
  }
  if (chunk.state === 'patched' && chunk.damaged) {
    throw new PatchError(
      `${quoteArg(chunk.file)} carries a patch that is not intact (${chunk.damaged}); reinstall openclaw, then patch again`,
    )
  }
  if (chunk.replacedUpstreamFix) {
    restoreUpstreamFix(ctx, chunk, text, dryRun)
    return
  }
  if (chunk.problem) throw new PatchError(`${quoteArg(chunk.file)}: ${chunk.problem}; not patching`)
  const patched = chunk.state === 'patched'
  // The addon is resolved, checked and loaded first (a dry run too: it shows the path that
  // would be written); the chunk then names that file alone.
  const result = probe(chunk.file, CANDIDATES, ctx.probeOptions)
  if (!result.ok) {
    throw new PatchError(
      `${PACKAGE_NAME} does not load from ${quoteArg(path.dirname(chunk.file))} (${result.failures.join('; ')}); not patching, since compaction would then fail`,
    )
  }
  const plan = planPatch(patched ? chunk.original : text, result.resolved)
  if (patched && plan.patched === text) {
    ctx.out(`already patched: ${quoteArg(chunk.name)} (openclaw ${ctx.version}); nothing changed.`)
    return
  }
  if (dryRun) {
    ctx.out(unifiedDiff(diffLabel(chunk.name), text, patched ? [differingSpan(text, plan.patched)] : plan.edits))
    ctx.out(`dry run: ${quoteArg(chunk.name)} would be ${patched ? 'updated' : 'patched'}; nothing was written.`)
    return
  }
  if (plan.text === 'other')
    ctx.err(
      `note: ${quoteArg(chunk.name)}: ${FUNCTION_NAME}'s body is neither released text; replacing it anyway (same signature: ${plan.signature})`,
    )
  writeAtomic(chunk.file, plan.patched)
  const how =
    result.id === PACKAGE_NAME
      ? 'found by name from the dist'
      : `this command's own copy: not resolvable by name from the dist; \`npm install ${PACKAGE_NAME}\` next to OpenClaw installs one there`
  ctx.out(
    `${patched ? 'updated' : 'patched'}: ${quoteArg(chunk.name)} (openclaw ${ctx.version}); ${FUNCTION_NAME} now delegates to ${PACKAGE_NAME} ${result.version}, loaded from ${quoteArg(result.resolved)} and from nowhere else (${how}). Restart the gateway to use it.`,
  )
}

/**
 * Runs `patch` in one of the modes 'apply' | 'check' | 'revert' | 'dry-run'.
 * Returns the exit code; `out`/`err` receive lines. A PatchError means exit 1.
 */
function runPatch({ dir, mode }, out, err, { trust } = {}) {
  const openclawDir = findOpenClaw(dir, { note: err, trust })
  const version = openclawVersion(openclawDir)
  const scan = scanDist(openclawDir)
  const status = statusFromScan(openclawDir, version, scan)
  const ctx = {
    out,
    err,
    version: escapeControl(version),
    patchCommand: `openclaw-context patch ${quoteArg(openclawDir)}`,
    probeOptions: { trust },
  }
  for (const { file, reason } of scan.skipped)
    err(
      `note: ${quoteArg(path.relative(openclawDir, file))} ${reason}; only regular files in dist/ are read or patched`,
    )
  // Leftovers of a run killed mid-write: removed by the runs that write, reported by the others.
  const writes = mode === 'apply' || mode === 'revert'
  for (const file of staleTempFiles(scan.distDir, { remove: writes })) {
    err(
      writes
        ? `removed ${quoteArg(file)}, left by an interrupted run`
        : `note: ${quoteArg(file)} was left by an interrupted run; the next patch or --revert removes it`,
    )
  }
  const advise = () => {
    if (scan.persistentChat.length === 0 || mode === 'revert') return
    // The addon as patch resolves it from the dist (a file there need not exist for that).
    const addon = probe(path.join(scan.distDir, 'index.js'), CANDIDATES, ctx.probeOptions)
    out(persistentChatAdvice(openclawDir, scan.persistentChat, addon.ok ? addon.resolved : undefined))
  }

  if (status.chunks.length === 0) {
    if (status.state === 'not-found' && mode !== 'revert') throw new PatchError(status.message)
    out(
      `openclaw ${ctx.version} at ${quoteArg(openclawDir)} ${status.reason}; nothing to ${mode === 'revert' ? 'revert' : 'patch'}.`,
    )
    advise()
    return 0
  }
  let code = 0
  status.chunks.forEach((chunk, i) => {
    const { text } = scan.chunks[i]
    if (mode === 'check') code = Math.max(code, checkChunk(ctx, chunk))
    else if (mode === 'revert') revertChunk(ctx, chunk)
    else patchChunk(ctx, chunk, text, mode === 'dry-run')
  })
  advise()
  return code
}

const PATCH_MODES = ['check', 'revert', 'dry-run']

/** `openclaw-context patch …`: the command line to runPatch. */
function runPatchCommand(argv, out, err) {
  const { positionals, options: given } = parseCommandArgs(argv, optionsOf('patch'), { allowPositionals: true })
  const modes = PATCH_MODES.filter((mode) => given[mode])
  if (modes.length > 1) throw new UsageError(`--${modes.join(' and --')} cannot be combined`)
  if (positionals.length > 1) throw new UsageError(`patch takes one OPENCLAW_DIR, got ${positionals.length}`)
  try {
    return runPatch({ dir: positionals[0], mode: modes[0] || 'apply' }, out, err)
  } catch (e) {
    if (e instanceof PatchError) {
      err(`openclaw-context: ${e.message}`)
      return 1
    }
    throw e
  }
}

module.exports = { runPatch, runPatchCommand }
