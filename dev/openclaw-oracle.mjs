// Loads the real OpenClaw compaction-safeguard code as an oracle (the e2e specs, the demo,
// the bench's peers).
//
// The functions are not exported by the dist: the chunk that defines them publishes a
// `testing` object on a global symbol when `process.env.VITEST` is set while it is imported
// (2026.7.x: capCompactionSummaryPreservingSuffix; 2026.9.x: budgetCompactionSummary, on the
// same symbol). The chunk's file name is a content hash, so it is found by its text.
//
// 2026.7 needs Node >= 22.22.3 (the dist uses `fs.globSync`), 2026.9 Node >= 24.16;
// scripts/setup-oracle.sh installs them. Importing a chunk costs 2-4 s and ~330 MB: it is
// imported once per process and per chunk.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const LOGGER_MARKER = '\nfunction setLoggerOverride('
const TESTING_SYMBOL = Symbol.for('openclaw.compactionSafeguardTestApi')
const { findChunk } = createRequire(import.meta.url)('../lib/dist-scan.js')

function withEnv(overrides, fn) {
  const saved = new Map()
  for (const [key, value] of Object.entries(overrides)) {
    saved.set(key, Object.hasOwn(process.env, key) ? process.env[key] : undefined)
    process.env[key] = value
  }
  const restore = () => {
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key]
      else process.env[key] = value
    }
  }
  let result
  try {
    result = fn()
  } catch (err) {
    restore()
    throw err
  }
  return Promise.resolve(result).finally(restore)
}

// Keeps the real code away from the user's OpenClaw state and quiet: its config and state
// go to a scratch folder, and the logger writes nothing (to the console or a file). The
// dist still creates its temp folder (/tmp/openclaw) when the logger module loads: that
// path is hard-coded, not configurable.
export function isolateOpenClaw() {
  if (!process.env.OPENCLAW_STATE_DIR) {
    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openclaw-oracle-state-'))
    process.env.OPENCLAW_STATE_DIR = stateDir
    process.once('exit', () => fs.rmSync(stateDir, { recursive: true, force: true }))
  }
  if (!process.env.OPENCLAW_LOG_LEVEL) process.env.OPENCLAW_LOG_LEVEL = 'silent'
}

async function silenceLogger(openclawDir, stateDir) {
  const loggerChunk = findChunk(openclawDir, LOGGER_MARKER)
  if (!loggerChunk) return
  const mod = await import(pathToFileURL(loggerChunk).href)
  const setLoggerOverride = Object.values(mod).find(
    (value) => typeof value === 'function' && value.name === 'setLoggerOverride',
  )
  setLoggerOverride?.({
    level: 'silent',
    consoleLevel: 'silent',
    file: path.join(stateDir, 'logs', 'openclaw.log'),
  })
}

const loaded = new Map() // chunk path -> { testing, chunkPath, module }

/**
 * Imports the chunk of an installed OpenClaw that defines `fnName` and publishes it on its
 * `testing` object (once per chunk: later calls get the same result).
 *
 * @param {string} openclawDir the package folder (the one holding `dist/`)
 * @returns {Promise<{ testing: Record<string, any>, chunkPath: string, module: Record<string, any> }>}
 *   `module` is the chunk's namespace.
 */
export async function loadTestingApi(openclawDir, fnName) {
  const chunkPath = findChunk(openclawDir, `\nfunction ${fnName}(`)
  if (!chunkPath) throw new Error(`no dist chunk under ${openclawDir} defines ${fnName}`)
  if (loaded.has(chunkPath)) return loaded.get(chunkPath)
  isolateOpenClaw()
  await silenceLogger(openclawDir, process.env.OPENCLAW_STATE_DIR)

  // VITEST only for this import: many other chunks read it and change behaviour. The global
  // is cleared around it, so that each release's chunk publishes its own object.
  delete globalThis[TESTING_SYMBOL]
  let module
  let testing
  try {
    module = await withEnv({ VITEST: '1' }, () => import(pathToFileURL(chunkPath).href))
    testing = globalThis[TESTING_SYMBOL]
  } finally {
    delete globalThis[TESTING_SYMBOL]
  }
  if (typeof testing?.[fnName] !== 'function') {
    throw new Error(
      `${chunkPath} did not publish testing.${fnName} on Symbol.for("openclaw.compactionSafeguardTestApi") ` +
        '(was it imported earlier without VITEST set?)',
    )
  }
  const result = { testing, chunkPath, module }
  loaded.set(chunkPath, result)
  return result
}

/**
 * The compaction-safeguard chunk of an installed OpenClaw 2026.7.x: `testing` has
 * capCompactionSummary, capCompactionSummaryPreservingSuffix, auditSummaryQuality,
 * extractOpaqueIdentifiers, formatPreservedTurnsSection, …; `module`'s export `S` is
 * buildEmbeddedExtensionFactories.
 */
export function loadOpenClawTesting(openclawDir) {
  return loadTestingApi(openclawDir, 'capCompactionSummaryPreservingSuffix')
}
