// A chat's upkeep around its turns, never awaited by a turn: the search index caught up after a
// reload that found it behind, and the `retentionDays` rule once a day. Each job's state is an
// object the caller makes once (createUpkeep) and passes in.
import { PLUGIN_ID } from './config.mjs'
import { oneLine } from './lib.mjs'

const DAY_MS = 24 * 60 * 60 * 1000

/** Logs `line` as a warning, masked (a failure's words can hold what the log masks). */
export async function warnMasked({ logger, redactorReady }, line) {
  logger.warn(await redactorReady.then(({ redact }) => redact(line)).catch(() => line))
}

/**
 * The upkeep's state: chat folders whose index is being caught up, and the UTC day each
 * folder's retention rule last ran (once a day a chat, per gateway run).
 */
export function createUpkeep({ config, queue, logger, redactorReady }) {
  return { config, queue, logger, redactorReady, warming: new Set(), retainedOn: new Map() }
}

/**
 * A reload whose recall found the chat's search index far behind its log (its first reload
 * after an import or an upgrade, with a large log: `indexBehind`) recalled nothing rather
 * than hold the prompt for the build. The index is caught up after the turn, on the thread
 * pool and outside the chat's queue: the next turn neither waits for it nor builds it twice
 * (its recall passes while the build runs), and the reload after it recalls.
 */
export function warmIndexAfter(upkeep, sessionKey, store) {
  if (upkeep.warming.has(store.folder)) return
  upkeep.warming.add(store.folder)
  store
    .warmIndex()
    .catch((error) => warnMasked(upkeep, `${PLUGIN_ID}: ${sessionKey}: search index not built (${oneLine(error)})`))
    .finally(() => upkeep.warming.delete(store.folder))
}

/**
 * `retentionDays`: at a chat's first turn of a day, its entries older than that many days
 * removed (ChatStore#forget: the log rewritten under the folder's lock, derived files with
 * it). Queued behind the turn, never awaited by it: the reply is not held up, and the next
 * turn of the chat waits for the rewrite as it waits for any earlier turn.
 */
export function scheduleRetention(upkeep, sessionKey, store) {
  const days = upkeep.config.retentionDays
  const today = new Date().toISOString().slice(0, 10)
  if (!days || upkeep.retainedOn.get(store.folder) === today) return
  upkeep.retainedOn.set(store.folder, today)
  upkeep.queue
    .run(sessionKey, async () => {
      const result = await store.forget({ before: Date.now() - days * DAY_MS, apply: true })
      if (result.removedLines > 0)
        upkeep.logger.info(
          `${PLUGIN_ID}: ${sessionKey}: retentionDays ${days}: removed ${result.removedLines} log entries older than ${days} day(s)`,
        )
    })
    .catch((error) =>
      warnMasked(upkeep, `${PLUGIN_ID}: ${sessionKey}: retentionDays: nothing removed (${oneLine(error)})`),
    )
}
