'use strict'
// The patch itself: the text that replaces OpenClaw's capCompactionSummaryPreservingSuffix,
// how a chunk is edited to hold it, and how the original is read back out of it.
//
// Chunks are handled as 'latin1' strings (one char per byte), so every byte outside the
// edit is written back exactly, whatever its encoding.
const crypto = require('node:crypto')
const { locateFunction, ScanError } = require('./js-scan')
const { PatchError } = require('./errors')

const FUNCTION_NAME = 'capCompactionSummaryPreservingSuffix'
const FUNCTION_MARKER = `\nfunction ${FUNCTION_NAME}(`
const PACKAGE_NAME = 'openclaw-context-native'
// v1 (0.1.0) loaded the addon from a list of candidates, the package name first: resolved
// again at every load, so a package planted later in a node_modules above the dist won. v2
// loads one absolute path, the one `patch` resolved and checked, and nothing else. A v1 chunk
// is still recognised: --revert restores it, `patch` rewrites it as v2, --check says so.
const PATCH_VERSION = 2
const KNOWN_VERSIONS = [1, 2]
const TAG = `${PACKAGE_NAME} patch`
const beginOf = (version) => `/* ${TAG} v${version} BEGIN`
const endOf = (version) => `/* ${TAG} v${version} END */`
const importLineOf = (version) =>
  `import { createRequire as __occnCreateRequire } from "node:module"; /* ${TAG} v${version} */\n`
const BEGIN = beginOf(PATCH_VERSION)
const END = endOf(PATCH_VERSION)
/** What every version's block starts with (dist-scan.js reads the chunks that hold it). */
const ANY_BEGIN_TEXT = `/* ${TAG} v`
const ANY_BEGIN = /\/\* openclaw-context-native patch v(\d+) BEGIN/
const IMPORT_LINE = importLineOf(PATCH_VERSION)

/**
 * A JavaScript string literal for `text` in ASCII alone: the chunk is edited as 'latin1'
 * (one char per byte) and read by Node as UTF-8, so a path with other characters is written
 * as \u escapes (JSON.stringify escapes the control characters and quotes).
 */
const asciiLiteral = (text) =>
  JSON.stringify(text).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

// The two released texts of the buggy function, whitespace-collapsed. They differ in how
// the suffix is cut when it alone reaches the budget (and their capCompactionSummary in
// how it cuts: `.slice` or truncateUtf16Safe).
const RELEASED_TEXTS = {
  // 2026.3.22 … 2026.7.1-beta.2
  A: 'if (suffix.length >= maxChars) return suffix.slice(-maxChars);',
  // 2026.7.1-beta.4 … 2026.8.1-beta.1
  B: 'if (suffix.length >= maxChars) return sliceUtf16Safe(suffix, -maxChars);',
}
const releasedBody = (suffixLine) =>
  [
    'if (!suffix) return capCompactionSummary(summaryBody, maxChars);',
    'if (maxChars <= 0) return capCompactionSummary(`${summaryBody}${suffix}`, maxChars);',
    suffixLine,
    'return `${capCompactionSummary(summaryBody, Math.max(0, maxChars - suffix.length))}${suffix}`;',
  ].join(' ')
const RELEASED_BODIES = Object.entries(RELEASED_TEXTS).map(([text, line]) => ({ text, body: releasedBody(line) }))
/** 2026.8.1-beta.2's function calls upstream's fix; no buggy text does. */
const UPSTREAM_FIX_CALL = /\bbudgetCompactionSummary\s*\(/

const sha256 = (text) => crypto.createHash('sha256').update(Buffer.from(text, 'latin1')).digest('hex')

/**
 * The function's definition in a chunk: `{ fn, text }` where `text` is 'A' or 'B' (a
 * released buggy text), 'upstream-fix' (it calls budgetCompactionSummary) or 'other'.
 * Throws a PatchError when it is defined more than once or its end cannot be found.
 */
function readFunction(chunkText) {
  const first = chunkText.indexOf(FUNCTION_MARKER)
  if (first === -1) throw new PatchError(`no ${FUNCTION_NAME} definition`)
  if (chunkText.indexOf(FUNCTION_MARKER, first + 1) !== -1) {
    throw new PatchError(`${FUNCTION_NAME} is defined more than once; refusing to guess which one is meant`)
  }
  let fn
  try {
    fn = locateFunction(chunkText, first + 1, FUNCTION_NAME)
  } catch (err) {
    if (err instanceof ScanError) throw new PatchError(`cannot find where ${FUNCTION_NAME} ends (${err.message})`)
    throw err
  }
  return { fn, text: classifyBody(fn.body) }
}

function classifyBody(body) {
  const collapsed = body.replace(/\s+/g, ' ').trim()
  const released = RELEASED_BODIES.find((known) => known.body === collapsed)
  if (released) return released.text
  return UPSTREAM_FIX_CALL.test(body) ? 'upstream-fix' : 'other'
}

function importOffset(text) {
  if (!text.startsWith('#!')) return 0
  const eol = text.indexOf('\n')
  return eol === -1 ? text.length : eol + 1
}

/**
 * The block that replaces the function: the original kept for --revert, then a function that
 * loads the addon from `addonPath` (absolute, resolved and checked by `patch`) and from nowhere
 * else: no package name, so nothing planted later in a node_modules on the way up is looked at.
 */
function patchBlock(original, fn, addonPath, originalSha) {
  const [body, suffix, maxChars] = fn.params
  const b64 = Buffer.from(original.slice(fn.start, fn.end), 'latin1').toString('base64')
  return [
    `${BEGIN}: ${FUNCTION_NAME} delegates to the ${PACKAGE_NAME} addon.`,
    ` * Undo with \`openclaw-context patch --revert\`. The lines below keep the original function.`,
    ` * original-chunk-sha256: ${originalSha}`,
    ' * original-function-base64:',
    ...(b64.match(/.{1,76}/g) || []).map((line) => ` *  ${line}`),
    ' */',
    `function ${FUNCTION_NAME}(${fn.paramsText}) {`,
    `\treturn __occnNative().${FUNCTION_NAME}(${body}, ${suffix}, ${maxChars});`,
    '}',
    'var __occnNativeBinding;',
    '// Loaded on first use, so a missing addon never stops the gateway from starting; a failure',
    '// throws, and the compaction safeguard then cancels that compaction and keeps the history.',
    '// Only the file `openclaw-context patch` resolved and checked is loaded, never a package name.',
    'function __occnNative() {',
    '\tif (__occnNativeBinding) return __occnNativeBinding;',
    `\tconst addon = ${asciiLiteral(addonPath)};`,
    '\tlet binding, failure;',
    '\ttry {',
    '\t\tbinding = __occnCreateRequire(import.meta.url)(addon);',
    '\t} catch (err) {',
    '\t\tfailure = String(err && err.message || err).split("\\n")[0];',
    '\t}',
    `\tif (binding && typeof binding.${FUNCTION_NAME} === "function") return __occnNativeBinding = binding;`,
    `\tthrow new Error(\`${PACKAGE_NAME} could not be loaded from \${addon} (\${failure || "it has no ${FUNCTION_NAME}"}); run \\\`openclaw-context patch\\\` again (it records where the package is) or \\\`openclaw-context patch --revert\\\`\`);`,
    '}',
    END,
  ].join('\n')
}

function applyEdits(text, edits) {
  let out = ''
  let pos = 0
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    out += text.slice(pos, edit.start) + edit.text
    pos = edit.end
  }
  return out + text.slice(pos)
}

/**
 * Plans the patch of an unpatched chunk whose function loads the addon from `addonPath` (an
 * absolute path: the file `patch` resolved and checked). Returns the edits (offsets into
 * `original`), the patched text, and which released text the function had.
 */
function planPatch(original, addonPath) {
  const { fn, text } = readFunction(original)
  if (original.includes('__occn')) throw new PatchError('the chunk already uses __occn* names; refusing to patch')
  if (fn.params.length !== 3 || fn.params.some((name) => !name)) {
    throw new PatchError(`${FUNCTION_NAME}(${fn.paramsText}) does not have the expected three parameters; not patching`)
  }
  const block = patchBlock(original, fn, addonPath, sha256(original))
  const at = importOffset(original)
  const edits = [
    { start: at, end: at, text: IMPORT_LINE },
    { start: fn.start, end: fn.end, text: block },
  ]
  return { edits, patched: applyEdits(original, edits), text, signature: `${FUNCTION_NAME}(${fn.paramsText})` }
}

/**
 * Recovers the original chunk from a patched one (this version's patch or v1's). Returns
 * `{ original, edits, version, addon?, candidates? }`: `addon` the absolute path a v2 chunk
 * loads, `candidates` the list a v1 chunk tries (the package name first). Throws a PatchError
 * when the patch is not intact.
 */
function planRevert(patched) {
  const versions = [...patched.matchAll(new RegExp(ANY_BEGIN.source, 'g'))].map((m) => Number(m[1]))
  if (versions.length !== 1) throw new PatchError(`found ${versions.length} patch blocks; expected one`)
  const [version] = versions
  if (!KNOWN_VERSIONS.includes(version)) {
    throw new PatchError(`patched by a different version of this tool (patch v${version}); revert it with that version`)
  }
  const begin = beginOf(version)
  const end = endOf(version)
  const importLine = importLineOf(version)
  const start = patched.indexOf(begin)
  const endAt = patched.indexOf(end, start)
  if (endAt === -1) throw new PatchError('the patch block has no end marker (edited by hand?)')
  const block = patched.slice(start, endAt + end.length)
  const sha = /original-chunk-sha256: ([0-9a-f]{64})/.exec(block)
  const b64 = /\n \* original-function-base64:\n((?: \* {2}[A-Za-z0-9+/=]+\n)*) \*\/\n/.exec(block)
  const load = version === 1 ? /\tconst candidates = (\[.*\]);/.exec(block) : /\tconst addon = (".*");/.exec(block)
  if (!sha || !b64 || !load) throw new PatchError('the patch block is damaged (edited by hand?)')
  let loads
  try {
    loads = JSON.parse(load[1])
  } catch {
    throw new PatchError('the patch block is damaged (edited by hand?)')
  }
  const originalFunction = Buffer.from(b64[1].replace(/ \* {2}|\n/g, ''), 'base64').toString('latin1')
  const edits = [{ start, end: endAt + end.length, text: originalFunction }]
  const at = importOffset(patched)
  const importAt = patched.startsWith(importLine, at) ? at : patched.indexOf(importLine)
  if (importAt === -1) throw new PatchError('the patch is incomplete: its import line is missing (edited by hand?)')
  edits.push({ start: importAt, end: importAt + importLine.length, text: '' })
  const original = applyEdits(patched, edits)
  if (sha256(original) !== sha[1]) {
    throw new PatchError('the chunk was changed after it was patched: the original bytes cannot be restored exactly')
  }
  return version === 1 ? { original, edits, version, candidates: loads } : { original, edits, version, addon: loads }
}

/** Whether a chunk carries this tool's patch of any version (intact or not). */
const carriesPatch = (text) =>
  ANY_BEGIN.test(text) || KNOWN_VERSIONS.some((version) => text.includes(importLineOf(version)))

module.exports = {
  FUNCTION_NAME,
  FUNCTION_MARKER,
  PACKAGE_NAME,
  PATCH_VERSION,
  BEGIN,
  END,
  ANY_BEGIN_TEXT,
  IMPORT_LINE,
  asciiLiteral,
  sha256,
  readFunction,
  planPatch,
  planRevert,
  carriesPatch,
}
