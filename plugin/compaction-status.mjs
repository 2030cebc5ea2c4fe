// At gateway start: does this OpenClaw release carry the buggy compaction cap, unpatched?
// The plugin only says so (one line naming `openclaw-context patch`); it patches nothing.
//
// The check (lib/compaction-status.js, shared with the command line) reads the dist's
// thousands of chunks synchronously, so it runs in a worker thread (compaction-status-worker.cjs):
// the gateway's event loop, and its start-up, never wait for it.
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'

const WORKER_FILE = new URL('./compaction-status-worker.cjs', import.meta.url)

/**
 * The running OpenClaw's package folder. The plugin loader resolves this package's
 * `openclaw/plugin-sdk/*` imports to the running install, wherever this package sits.
 */
export function runningOpenclawDir() {
  const sdkFile = fileURLToPath(import.meta.resolve('openclaw/plugin-sdk/acp-runtime'))
  return path.resolve(path.dirname(sdkFile), '..', '..')
}

/** `compactionStatus(openclawDir)`'s state, version and message, from a worker thread. */
export function readCompactionStatus(openclawDir) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_FILE, { workerData: { openclawDir } })
    worker.unref()
    worker.once('message', (reply) => (reply.error ? reject(new Error(reply.error)) : resolve(reply)))
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`the status worker exited (${code})`)))
  })
}

/**
 * Logs one line when the release carries the buggy cap unpatched; nothing otherwise. A
 * failure to tell is a debug line: the check is advice, not part of any turn.
 */
export async function reportCompactionStatus(logger, prefix) {
  try {
    const status = await readCompactionStatus(runningOpenclawDir())
    if (status.state === 'buggy') logger.warn(`${prefix}: ${status.message}`)
    else logger.debug?.(`${prefix}: compaction cap ${status.state} (openclaw ${status.version})`)
  } catch (error) {
    logger.debug?.(`${prefix}: compaction status not checked (${error.message})`)
  }
}
