'use strict'
// `openclaw-context patch`: makes an installed OpenClaw 2026.7.x's
// capCompactionSummaryPreservingSuffix delegate to this package's native addon.
//
// Files are handled as 'latin1' strings (one char per byte), so every byte that is
// not part of the edit is written back exactly, whatever its encoding.
const crypto = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')
const { locateFunction, ScanError } = require('./lib/js-scan')

const FUNCTION_NAME = 'capCompactionSummaryPreservingSuffix'
const FUNCTION_MARKER = `\nfunction ${FUNCTION_NAME}(`
const PATCH_VERSION = 1
const TAG = 'openclaw-context-native patch'
const BEGIN = `/* ${TAG} v${PATCH_VERSION} BEGIN`
const END = `/* ${TAG} v${PATCH_VERSION} END */`
const ANY_BEGIN = /\/\* openclaw-context-native patch v(\d+) BEGIN/
const IMPORT_LINE = `import { createRequire as __occnCreateRequire } from "node:module"; /* ${TAG} v${PATCH_VERSION} */\n`
const PACKAGE_NAME = 'openclaw-context-native'
const PACKAGE_ROOT = path.resolve(__dirname, '..')
const PERSISTENT_CHAT_FUNCTIONS = ['rebuildPersistentChatContinuitySummary', 'buildPersistentChatInjectedPrompt']
// OpenClaw 2026.7.2's body, whitespace-collapsed: patching anything else is reported.
const KNOWN_BODY = [
  'if (!suffix) return capCompactionSummary(summaryBody, maxChars);',
  'if (maxChars <= 0) return capCompactionSummary(`${summaryBody}${suffix}`, maxChars);',
  'if (suffix.length >= maxChars) return sliceUtf16Safe(suffix, -maxChars);',
  'return `${capCompactionSummary(summaryBody, Math.max(0, maxChars - suffix.length))}${suffix}`;',
].join(' ')

/** A failure the command reports on one line and exits 1 for. */
class PatchError extends Error {}

const sha256 = (text) => crypto.createHash('sha256').update(Buffer.from(text, 'latin1')).digest('hex')
const rel = (file) => path.relative(process.cwd(), file) || '.'

// ---------------------------------------------------------------------------
// Finding the install

function readPackageName(dir) {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).name
  } catch {
    return undefined
  }
}

function npmGlobalRoot() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const result = spawnSync(npm, ['root', '-g'], { encoding: 'utf8', timeout: 30000 })
  return result.status === 0 ? result.stdout.trim() : null
}

/**
 * The `openclaw` package folder: `dir` (the package itself, a folder with
 * node_modules/openclaw, or its dist/), else the one Node would resolve from the
 * current folder, else the global npm root's.
 */
function findOpenClaw(dir) {
  if (dir) {
    const abs = path.resolve(dir)
    if (!fs.existsSync(abs)) throw new PatchError(`${abs} does not exist`)
    for (const candidate of [abs, path.join(abs, 'node_modules', 'openclaw'), path.dirname(abs)]) {
      if (readPackageName(candidate) === 'openclaw') return fs.realpathSync(candidate)
    }
    throw new PatchError(`${abs} is not an openclaw package (no package.json named "openclaw" there or in its node_modules)`)
  }
  // openclaw's `exports` hides package.json from require.resolve: walk up instead.
  for (let current = process.cwd(); ; current = path.dirname(current)) {
    const candidate = path.join(current, 'node_modules', 'openclaw')
    if (readPackageName(candidate) === 'openclaw') return fs.realpathSync(candidate)
    if (path.dirname(current) === current) break
  }
  const globalRoot = npmGlobalRoot()
  if (globalRoot) {
    const candidate = path.join(globalRoot, 'openclaw')
    if (readPackageName(candidate) === 'openclaw') return fs.realpathSync(candidate)
  }
  throw new PatchError(
    `no openclaw package found from ${process.cwd()} or in the global npm root${globalRoot ? ` (${globalRoot})` : ''}; pass its folder: openclaw-context patch /path/to/node_modules/openclaw`,
  )
}

/** Reads dist/*.js once: the chunks that define the function, and persistent-chat files. */
function scanDist(openclawDir) {
  const distDir = path.join(openclawDir, 'dist')
  let names
  try {
    names = fs.readdirSync(distDir).filter((name) => name.endsWith('.js')).sort()
  } catch (err) {
    throw new PatchError(`cannot read ${distDir}: ${err.code || err.message}`)
  }
  const chunks = []
  const persistentChat = []
  for (const name of names) {
    const file = path.join(distDir, name)
    let text
    try {
      text = fs.readFileSync(file, 'latin1')
    } catch (err) {
      if (err.code === 'EISDIR') continue
      throw new PatchError(`cannot read ${file}: ${err.code || err.message}`)
    }
    if (text.includes(FUNCTION_MARKER) || text.includes(BEGIN)) chunks.push({ file: fs.realpathSync(file), text })
    const defined = PERSISTENT_CHAT_FUNCTIONS.filter((fn) => text.includes(`function ${fn}(`))
    if (defined.length > 0) persistentChat.push({ file, functions: defined })
  }
  return { distDir, chunks, persistentChat }
}

// ---------------------------------------------------------------------------
// The edit

function importOffset(text) {
  if (!text.startsWith('#!')) return 0
  const eol = text.indexOf('\n')
  return eol === -1 ? text.length : eol + 1
}

function patchBlock(original, fn, candidates, originalSha) {
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
    'function __occnNative() {',
    '\tif (__occnNativeBinding) return __occnNativeBinding;',
    '\tconst __occnRequire = __occnCreateRequire(import.meta.url);',
    `\tconst candidates = ${JSON.stringify(candidates)};`,
    '\tconst failures = [];',
    '\tfor (const id of candidates) {',
    '\t\ttry {',
    '\t\t\tconst binding = __occnRequire(id);',
    `\t\t\tif (binding && typeof binding.${FUNCTION_NAME} === "function") return __occnNativeBinding = binding;`,
    `\t\t\tfailures.push(\`\${id}: it has no ${FUNCTION_NAME}\`);`,
    '\t\t} catch (err) {',
    '\t\t\tfailures.push(`${id}: ${String(err && err.message || err).split("\\n")[0]}`);',
    '\t\t}',
    '\t}',
    `\tthrow new Error(\`${PACKAGE_NAME} could not be loaded (\${failures.join("; ")}); run \\\`npm install ${PACKAGE_NAME}\\\` next to OpenClaw or \\\`openclaw-context patch --revert\\\`\`);`,
    '}',
    END,
  ].join('\n')
}

/**
 * Plans the patch of an unpatched chunk. Returns the edits (offsets into `original`)
 * and the patched text.
 */
function planPatch(original, candidates) {
  const first = original.indexOf(FUNCTION_MARKER)
  if (first === -1) throw new PatchError(`no ${FUNCTION_NAME} definition`)
  if (original.indexOf(FUNCTION_MARKER, first + 1) !== -1) {
    throw new PatchError(`${FUNCTION_NAME} is defined more than once; refusing to guess which to replace`)
  }
  if (original.includes('__occn')) throw new PatchError('the chunk already uses __occn* names; refusing to patch')
  let fn
  try {
    fn = locateFunction(original, first + 1, FUNCTION_NAME)
  } catch (err) {
    if (err instanceof ScanError) throw new PatchError(`cannot find where ${FUNCTION_NAME} ends (${err.message}); not patching`)
    throw err
  }
  if (fn.params.length !== 3 || fn.params.some((name) => !name)) {
    throw new PatchError(`${FUNCTION_NAME}(${fn.paramsText}) does not have the expected three parameters; not patching`)
  }
  const block = patchBlock(original, fn, candidates, sha256(original))
  const at = importOffset(original)
  const edits = [
    { start: at, end: at, text: IMPORT_LINE },
    { start: fn.start, end: fn.end, text: block },
  ]
  const knownBody = fn.body.replace(/\s+/g, ' ').trim() === KNOWN_BODY
  return { edits, patched: applyEdits(original, edits), knownBody, signature: `${FUNCTION_NAME}(${fn.paramsText})` }
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
 * Recovers the original chunk from a patched one. Returns `{ original, edits, candidates }`
 * or throws a PatchError when the patch is not intact.
 */
function planRevert(patched) {
  const versions = [...patched.matchAll(new RegExp(ANY_BEGIN.source, 'g'))].map((m) => Number(m[1]))
  if (versions.length !== 1) throw new PatchError(`found ${versions.length} patch blocks; expected one`)
  if (versions[0] !== PATCH_VERSION) {
    throw new PatchError(`patched by a different version of this tool (patch v${versions[0]}); revert it with that version`)
  }
  const start = patched.indexOf(BEGIN)
  const endAt = patched.indexOf(END, start)
  if (endAt === -1) throw new PatchError('the patch block has no end marker (edited by hand?)')
  const block = patched.slice(start, endAt + END.length)
  const sha = /original-chunk-sha256: ([0-9a-f]{64})/.exec(block)
  const b64 = /\n \* original-function-base64:\n((?: \*  [A-Za-z0-9+/=]+\n)*) \*\/\n/.exec(block)
  const candidatesLine = /\tconst candidates = (\[.*\]);/.exec(block)
  if (!sha || !b64 || !candidatesLine) throw new PatchError('the patch block is damaged (edited by hand?)')
  const originalFunction = Buffer.from(b64[1].replace(/ \*  |\n/g, ''), 'base64').toString('latin1')
  const edits = [{ start, end: endAt + END.length, text: originalFunction }]
  const at = importOffset(patched)
  const importAt = patched.startsWith(IMPORT_LINE, at) ? at : patched.indexOf(IMPORT_LINE)
  if (importAt === -1) throw new PatchError('the patch is incomplete: its import line is missing (edited by hand?)')
  edits.push({ start: importAt, end: importAt + IMPORT_LINE.length, text: '' })
  const original = applyEdits(patched, edits)
  if (sha256(original) !== sha[1]) {
    throw new PatchError('the chunk was changed after it was patched: the original bytes cannot be restored exactly')
  }
  return { original, edits, candidates: JSON.parse(candidatesLine[1]) }
}

/** 'patched' | 'unpatched' (plus a reason when a patched chunk is not intact). */
function chunkState(text) {
  if (!ANY_BEGIN.test(text) && !text.includes(IMPORT_LINE)) return { state: 'unpatched' }
  try {
    return { state: 'patched', ...planRevert(text) }
  } catch (err) {
    if (err instanceof PatchError) return { state: 'patched', damaged: err.message }
    throw err
  }
}

// ---------------------------------------------------------------------------
// Writing

const tempPrefix = (file) => `.${path.basename(file)}.${PACKAGE_NAME}-`

function processIsAlive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return err.code === 'EPERM'
  }
}

/**
 * A patch killed between writing its temporary file and renaming it leaves
 * that file behind (hidden, not `.js`: nothing imports it). Remove those of
 * processes that are gone; a live one may be a concurrent patch mid-write.
 */
function removeStaleTempFiles(file) {
  const prefix = tempPrefix(file)
  let names
  try {
    names = fs.readdirSync(path.dirname(file))
  } catch {
    return
  }
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue
    const pid = Number(name.slice(prefix.length).split('-')[0])
    if (!Number.isInteger(pid) || pid <= 0 || processIsAlive(pid)) continue
    try { fs.unlinkSync(path.join(path.dirname(file), name)) } catch { /* gone already, or not ours to remove */ }
  }
}

/**
 * Replaces `file` with `text` atomically: a temporary file in the same folder,
 * fsync, rename over the original. Keeps the mode (and owner, when allowed). A
 * hard link elsewhere to the old file keeps the old bytes.
 */
function writeAtomic(file, text) {
  const dir = path.dirname(file)
  const stat = fs.statSync(file)
  removeStaleTempFiles(file)
  const tmp = path.join(dir, `${tempPrefix(file)}${process.pid}-${crypto.randomBytes(4).toString('hex')}.tmp`)
  let fd
  try {
    fd = fs.openSync(tmp, 'wx', stat.mode & 0o7777)
    fs.writeFileSync(fd, Buffer.from(text, 'latin1'))
    fs.fchmodSync(fd, stat.mode & 0o7777)
    if (typeof process.getuid === 'function' && process.getuid() === 0) {
      try { fs.fchownSync(fd, stat.uid, stat.gid) } catch { /* keep root's */ }
    }
    fs.fsyncSync(fd)
    fs.closeSync(fd)
    fd = undefined
    fs.renameSync(tmp, file)
  } catch (err) {
    if (fd !== undefined) try { fs.closeSync(fd) } catch { /* already failing */ }
    try { fs.unlinkSync(tmp) } catch { /* never created */ }
    const code = err.code ? ` (${err.code})` : ''
    throw new PatchError(`cannot write ${file}${code}: ${err.code === 'EACCES' || err.code === 'EPERM' || err.code === 'EROFS' ? 'the dist is read-only for this user; run as the user that owns the OpenClaw install' : err.message}; nothing was changed`)
  }
  try {
    const dirFd = fs.openSync(dir, 'r')
    try { fs.fsyncSync(dirFd) } finally { fs.closeSync(dirFd) }
  } catch { /* not supported everywhere */ }
}

// ---------------------------------------------------------------------------
// Does the addon load from the dist?

const PROBE = `
const { createRequire } = require('node:module');
const path = require('node:path');
const [chunk, list] = process.argv.slice(1);
const req = createRequire(chunk);
const failures = [];
for (const id of JSON.parse(list)) {
  try {
    const resolved = req.resolve(id);
    const binding = req(id);
    if (typeof binding.${FUNCTION_NAME} !== 'function') { failures.push(id + ': it has no ${FUNCTION_NAME}'); continue; }
    const out = binding.${FUNCTION_NAME}('## Decisions\\n- keep this', 'S'.repeat(200), 80);
    if (typeof out !== 'string' || out.length > 80 || !out.includes('## Decisions')) { failures.push(id + ': it returned an unexpected result'); continue; }
    let version = '?';
    try { version = req(path.join(path.dirname(resolved), 'package.json')).version; } catch {}
    console.log(JSON.stringify({ ok: true, id, resolved, version }));
    process.exit(0);
  } catch (err) { failures.push(id + ': ' + String(err && err.message || err).split('\\n')[0]); }
}
console.log(JSON.stringify({ ok: false, failures }));
`

/** Tries the candidates from the chunk's location in a fresh `node`. */
function probeAddon(chunkFile, candidates) {
  const result = spawnSync(process.execPath, ['-e', PROBE, chunkFile, JSON.stringify(candidates)], {
    cwd: path.dirname(chunkFile),
    encoding: 'utf8',
    timeout: 60000,
    env: { ...process.env, NODE_OPTIONS: '' },
  })
  const line = (result.stdout || '').trim().split('\n').pop()
  try {
    return JSON.parse(line)
  } catch {
    return { ok: false, failures: [`node exited with ${result.status ?? result.signal}: ${(result.stderr || '').trim().split('\n')[0]}`] }
  }
}

function defaultCandidates() {
  return [PACKAGE_NAME, PACKAGE_ROOT]
}

// ---------------------------------------------------------------------------
// Dry-run diff

function lineStarts(text) {
  const starts = [0]
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return starts
}

function lineOf(starts, offset) {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (starts[mid] <= offset) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** The one edit that turns `a` into `b`: everything between their common prefix and suffix. */
function differingSpan(a, b) {
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let tail = 0
  while (tail < a.length - start && tail < b.length - start && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  return { start, end: a.length - tail, text: b.slice(start, b.length - tail) }
}

const clip = (line) => (line.length > 240 ? `${line.slice(0, 240)}… (${line.length} chars)` : line)

/** A unified diff of line-aligned edits (each edit's span is widened to whole lines). */
function unifiedDiff(label, before, edits, context = 2) {
  const starts = lineStarts(before)
  const lines = before.split('\n')
  const out = [`--- a/${label}`, `+++ b/${label}`]
  let delta = 0
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    const firstLine = lineOf(starts, edit.start)
    const lastLine = edit.end > edit.start ? lineOf(starts, edit.end - 1) : firstLine - 1
    const lineStart = starts[firstLine]
    const lineEnd = lastLine >= firstLine ? (starts[lastLine + 1] ?? before.length) : lineStart
    const oldText = before.slice(lineStart, lineEnd)
    const newText = before.slice(lineStart, edit.start) + edit.text + before.slice(edit.end, lineEnd)
    const oldLines = oldText === '' ? [] : oldText.replace(/\n$/, '').split('\n')
    const newLines = newText === '' ? [] : newText.replace(/\n$/, '').split('\n')
    const ctxBefore = lines.slice(Math.max(0, firstLine - context), firstLine)
    const afterFrom = firstLine + oldLines.length
    const ctxAfter = lines.slice(afterFrom, Math.min(lines.length, afterFrom + context))
    const oldStart = firstLine - ctxBefore.length + 1
    const oldCount = ctxBefore.length + oldLines.length + ctxAfter.length
    const newCount = ctxBefore.length + newLines.length + ctxAfter.length
    out.push(`@@ -${oldStart},${oldCount} +${oldStart + delta},${newCount} @@`)
    for (const l of ctxBefore) out.push(` ${clip(l)}`)
    for (const l of oldLines) out.push(`-${clip(l)}`)
    for (const l of newLines) out.push(`+${clip(l)}`)
    for (const l of ctxAfter) out.push(` ${clip(l)}`)
    delta += newLines.length - oldLines.length
  }
  return out.join('\n')
}

// ---------------------------------------------------------------------------
// Persistent chat: report only

function persistentChatAdvice(openclawDir, files) {
  const lines = [
    '',
    'Your dist defines its own persistent-chat functions (this command does not modify them):',
    ...files.map(({ file, functions }) => `  ${path.relative(openclawDir, file)}: ${functions.join(', ')}`),
    'To make them use the native versions, add at the top of each of those files:',
    '  import { createRequire as __occnCreateRequire } from "node:module";',
    `  const __occnPersistentChat = __occnCreateRequire(import.meta.url)("${PACKAGE_NAME}");`,
    'and make each function return the native result, mapping your variables to these parameters:',
  ]
  const defined = new Set(files.flatMap(({ functions }) => functions))
  if (defined.has('rebuildPersistentChatContinuitySummary')) {
    lines.push(
      '  return __occnPersistentChat.rebuildPersistentChatContinuitySummary({',
      '    statePath,      // the memory-state JSON (decisions, guardrails, pendingThreads, timers, ...)',
      '    logPath,        // the perpetual JSON Lines log',
      '    currentSession, // the backend session id now in use (drops failures from before a reload)',
      '    now: new Date().toISOString(),',
      '    maxChars: 6000,',
      '  });',
    )
  }
  if (defined.has('buildPersistentChatInjectedPrompt')) {
    lines.push(
      '  return __occnPersistentChat.buildPersistentChatInjectedPrompt({',
      '    userMessage,       // the live message, verbatim',
      '    reload,            // shouldInjectPersistentChatPrompt(...): a reload or a new backend session',
      '    turnMetadata,      // string or flat object',
      '    continuitySummary, // contents of continuity-summary.txt',
      '    logPath,           // the perpetual JSON Lines log',
      '    continuousEntries: 2,',
      '    reloadEntries: 25,',
      '  });',
    )
  }
  return lines.join('\n')
}

// ---------------------------------------------------------------------------
// The command

/**
 * Runs `patch` in one of the modes 'apply' | 'check' | 'revert' | 'dry-run'.
 * Returns the exit code; `out`/`err` receive lines.
 */
function runPatch({ dir, mode }, out, err) {
  const openclawDir = findOpenClaw(dir)
  let version = '?'
  try { version = JSON.parse(fs.readFileSync(path.join(openclawDir, 'package.json'), 'utf8')).version } catch { /* shown as ? */ }
  const { chunks, persistentChat } = scanDist(openclawDir)
  const advice = () => { if (persistentChat.length > 0 && mode !== 'revert') out(persistentChatAdvice(openclawDir, persistentChat)) }

  if (chunks.length === 0) {
    out(`openclaw ${version} at ${openclawDir} has no ${FUNCTION_NAME}: fixed upstream, nothing to ${mode === 'revert' ? 'revert' : 'patch'}.`)
    advice()
    return 0
  }

  let code = 0
  for (const chunk of chunks) {
    const name = path.relative(openclawDir, chunk.file)
    const current = chunkState(chunk.text)

    if (mode === 'check') {
      if (current.state === 'unpatched') {
        err(`not patched: ${chunk.file} still has OpenClaw's own ${FUNCTION_NAME} (run \`openclaw-context patch ${openclawDir}\`)`)
        code = 1
        continue
      }
      const candidates = current.candidates || defaultCandidates()
      const probe = probeAddon(chunk.file, candidates)
      if (!probe.ok) {
        err(`patched, but ${PACKAGE_NAME} does not load from ${path.dirname(chunk.file)}: ${probe.failures.join('; ')}`)
        code = 1
        continue
      }
      out(`patched: ${name} (openclaw ${version}); the addon loads from ${probe.resolved} (${PACKAGE_NAME} ${probe.version})`)
      if (current.damaged) err(`warning: ${name}: ${current.damaged}; --revert will refuse`)
      continue
    }

    if (mode === 'revert') {
      if (current.state === 'unpatched') {
        out(`not patched: ${name} is OpenClaw's original; nothing to revert.`)
        continue
      }
      if (current.damaged) throw new PatchError(`${chunk.file}: ${current.damaged}; reinstall openclaw to get the original back`)
      writeAtomic(chunk.file, current.original)
      out(`reverted: ${name} restored byte for byte (sha256 ${sha256(current.original).slice(0, 16)}…). Restart the gateway to use it.`)
      continue
    }

    // apply / dry-run
    let original = chunk.text
    if (current.state === 'patched') {
      if (current.damaged) throw new PatchError(`${chunk.file} carries a patch that is not intact (${current.damaged}); reinstall openclaw, then patch again`)
      original = current.original
    }
    const candidates = defaultCandidates()
    const plan = planPatch(original, candidates)
    if (current.state === 'patched' && plan.patched === chunk.text) {
      out(`already patched: ${name} (openclaw ${version}); nothing changed.`)
      continue
    }
    if (mode === 'dry-run') {
      const edits = current.state === 'patched' ? [differingSpan(chunk.text, plan.patched)] : plan.edits
      out(unifiedDiff(name, chunk.text, edits))
      out(`dry run: ${name} would be ${current.state === 'patched' ? 'updated' : 'patched'}; nothing was written.`)
      continue
    }
    if (!plan.knownBody) err(`note: ${name}: ${FUNCTION_NAME}'s body differs from OpenClaw 2026.7.2's; replacing it anyway (same signature: ${plan.signature})`)
    const probe = probeAddon(chunk.file, candidates)
    if (!probe.ok) {
      throw new PatchError(`${PACKAGE_NAME} does not load from ${path.dirname(chunk.file)} (${probe.failures.join('; ')}); not patching, since compaction would then fail`)
    }
    writeAtomic(chunk.file, plan.patched)
    const how = probe.id === PACKAGE_NAME ? `by name (${probe.resolved})` : `from ${probe.resolved} (not resolvable by name from the dist; \`npm install ${PACKAGE_NAME}\` next to OpenClaw makes it so)`
    out(`${current.state === 'patched' ? 'updated' : 'patched'}: ${name} (openclaw ${version}); ${FUNCTION_NAME} now delegates to ${PACKAGE_NAME} ${probe.version}, loaded ${how}. Restart the gateway to use it.`)
  }
  advice()
  return code
}

module.exports = {
  FUNCTION_NAME,
  FUNCTION_MARKER,
  IMPORT_LINE,
  BEGIN,
  END,
  PatchError,
  findOpenClaw,
  scanDist,
  planPatch,
  planRevert,
  chunkState,
  writeAtomic,
  probeAddon,
  unifiedDiff,
  runPatch,
}
