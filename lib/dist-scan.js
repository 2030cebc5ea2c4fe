'use strict'
// Reads an installed OpenClaw's dist/ once: the chunks that define (or carry the patch of)
// capCompactionSummaryPreservingSuffix, whether upstream's fix is there, and the files that
// define the operator's own persistent-chat functions. Chunk names are content hashes, so
// chunks are found by their text. From 2026.9.3 on chunks are `.mjs`. chunksHolding and
// findChunk find chunks by any other text (the test oracles, the bench, the e2e drivers).
const fs = require('node:fs')
const path = require('node:path')
const { FUNCTION_MARKER, ANY_BEGIN_TEXT } = require('./patch-text')
const { quoteArg } = require('./shell-quote')
const { PatchError, oneLine } = require('./errors')

const CHUNK_NAME = /\.m?js$/
const UPSTREAM_FIX_MARKER = '\nfunction budgetCompactionSummary('
const PERSISTENT_CHAT_FUNCTIONS = ['rebuildPersistentChatContinuitySummary', 'buildPersistentChatInjectedPrompt']

/** The chunk names of `distDir` (`*.js`, `*.mjs`), sorted; a PatchError when it cannot be read. */
function chunkNames(distDir) {
  try {
    return fs
      .readdirSync(distDir)
      .filter((name) => CHUNK_NAME.test(name))
      .sort()
  } catch (err) {
    throw new PatchError(`cannot read ${quoteArg(distDir)}: ${err.code || oneLine(err)}`)
  }
}

/**
 * Why `name` in `distDir` is not read as a chunk (a symbolic link, a folder, a FIFO: anything
 * but a regular file of dist/ itself), or null. A link could make `patch` rewrite a file
 * outside dist/; a FIFO would block the read.
 */
function notAChunk(distDir, name) {
  let st
  try {
    st = fs.lstatSync(path.join(distDir, name))
  } catch (err) {
    return `cannot be read (${err.code || err.message})`
  }
  if (st.isSymbolicLink()) return 'is a symbolic link'
  return st.isFile() ? null : 'is not a regular file'
}

/** A chunk's bytes; null for anything but a regular file (see notAChunk); a PatchError when it cannot be read. */
function readChunk(file, skipped = []) {
  const reason = notAChunk(path.dirname(file), path.basename(file))
  if (reason) {
    skipped.push({ file, reason })
    return null
  }
  try {
    return fs.readFileSync(file)
  } catch (err) {
    throw new PatchError(`cannot read ${quoteArg(file)}: ${err.code || oneLine(err)}`)
  }
}

/** dist/ itself must be the package's own folder, not a link out of it. */
function ownDist(openclawDir) {
  const distDir = path.join(openclawDir, 'dist')
  let real
  try {
    real = fs.realpathSync(distDir)
  } catch {
    return distDir // chunkNames reports it
  }
  const inside = path.relative(fs.realpathSync(openclawDir), real)
  if (inside !== 'dist')
    throw new PatchError(
      `${quoteArg(distDir)} leads to ${quoteArg(real)}, outside the openclaw package; not reading it`,
    )
  return distDir
}

/**
 * `{ distDir, chunks: [{ file, text }], upstreamFix, persistentChat: [{ file, functions }], skipped }`;
 * `text` is the chunk's bytes as a latin1 string, `file` its path, a regular file directly in
 * dist/ (see notAChunk); `skipped`: `[{ file, reason }]`, the chunk names that are not.
 */
function scanDist(openclawDir) {
  const distDir = ownDist(openclawDir)
  const chunks = []
  const persistentChat = []
  const skipped = []
  let upstreamFix = false
  for (const name of chunkNames(distDir)) {
    const file = path.join(distDir, name)
    const bytes = readChunk(file, skipped)
    if (bytes === null) continue
    // The markers are ASCII: a byte search finds them without decoding every chunk.
    if (bytes.includes(FUNCTION_MARKER) || bytes.includes(ANY_BEGIN_TEXT))
      chunks.push({ file, text: bytes.toString('latin1') })
    if (!upstreamFix && bytes.includes(UPSTREAM_FIX_MARKER)) upstreamFix = true
    const defined = PERSISTENT_CHAT_FUNCTIONS.filter((fn) => bytes.includes(`function ${fn}(`))
    if (defined.length > 0) persistentChat.push({ file, functions: defined })
  }
  return { distDir, chunks, upstreamFix, persistentChat, skipped }
}

/**
 * The chunks of `openclawDir`'s dist/ whose bytes hold `marker` (a string, as UTF-8, or a
 * list of them: any one will do), as `dist/<name>` paths in name order, read one at a time;
 * `prefix` keeps only the names that start with it.
 */
function* chunksHolding(openclawDir, marker, { prefix = '' } = {}) {
  const distDir = path.join(openclawDir, 'dist')
  const markers = [marker].flat()
  for (const name of chunkNames(distDir)) {
    if (!name.startsWith(prefix)) continue
    const file = path.join(distDir, name)
    const bytes = readChunk(file)
    if (bytes !== null && markers.some((m) => bytes.includes(m))) yield file
  }
}

/** The first chunk chunksHolding gives (the rest are not read), or null. */
function findChunk(openclawDir, marker, options) {
  return chunksHolding(openclawDir, marker, options).next().value ?? null
}

module.exports = { scanDist, chunksHolding, findChunk, PERSISTENT_CHAT_FUNCTIONS }
