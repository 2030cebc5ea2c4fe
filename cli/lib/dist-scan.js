'use strict'
// Reads an installed OpenClaw's dist/ once: the chunks that define (or carry the patch of)
// capCompactionSummaryPreservingSuffix, whether upstream's fix is there, and the files that
// define the operator's own persistent-chat functions. Chunk names are content hashes, so
// chunks are found by their text. From 2026.9.3 on chunks are `.mjs`.
const fs = require('node:fs')
const path = require('node:path')
const { FUNCTION_MARKER, BEGIN } = require('./patch-text')
const { PatchError } = require('./errors')

const CHUNK_NAME = /\.m?js$/
const UPSTREAM_FIX_MARKER = '\nfunction budgetCompactionSummary('
const PERSISTENT_CHAT_FUNCTIONS = ['rebuildPersistentChatContinuitySummary', 'buildPersistentChatInjectedPrompt']

/**
 * `{ distDir, chunks: [{ file, text }], upstreamFix, persistentChat: [{ file, functions }] }`;
 * `text` is the chunk's bytes as a latin1 string, `file` its real path.
 */
function scanDist(openclawDir) {
  const distDir = path.join(openclawDir, 'dist')
  let names
  try {
    names = fs.readdirSync(distDir).filter((name) => CHUNK_NAME.test(name)).sort()
  } catch (err) {
    throw new PatchError(`cannot read ${distDir}: ${err.code || err.message}`)
  }
  const chunks = []
  const persistentChat = []
  let upstreamFix = false
  for (const name of names) {
    const file = path.join(distDir, name)
    let bytes
    try {
      bytes = fs.readFileSync(file)
    } catch (err) {
      if (err.code === 'EISDIR') continue
      throw new PatchError(`cannot read ${file}: ${err.code || err.message}`)
    }
    // The markers are ASCII: a byte search finds them without decoding every chunk.
    if (bytes.includes(FUNCTION_MARKER) || bytes.includes(BEGIN)) chunks.push({ file: fs.realpathSync(file), text: bytes.toString('latin1') })
    if (!upstreamFix && bytes.includes(UPSTREAM_FIX_MARKER)) upstreamFix = true
    const defined = PERSISTENT_CHAT_FUNCTIONS.filter((fn) => bytes.includes(`function ${fn}(`))
    if (defined.length > 0) persistentChat.push({ file, functions: defined })
  }
  return { distDir, chunks, upstreamFix, persistentChat }
}

module.exports = { scanDist, PERSISTENT_CHAT_FUNCTIONS }
