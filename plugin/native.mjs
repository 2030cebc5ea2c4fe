// The addon, loaded from this package (the plugin is ESM, the addon's loader CommonJS).
// The plugin calls only the Promise variants: their file I/O and work run on the libuv
// thread pool, so a slow disk never stalls the gateway's other chats. Every read refuses a
// symlink or a hard-linked file (`refuseLinks`), as the plugin's own opens do.
import { createRequire } from 'node:module'

const native = createRequire(import.meta.url)('../index.js')

/**
 * The builders' default `maxEntryChars` (docs/api.md), which the plugin's prompts use: the
 * reader cuts each entry's text to it in Rust, so a window of huge entries never reaches
 * JavaScript whole, and the prompt built from the cut entries is the one from whole ones.
 */
const MAX_ENTRY_CHARS = 8000

/** The log's last `limit` entries, oldest first, each text cut as prompts show it; a log not written yet is empty. */
export const readLogEntries = (logPath, limit) =>
  native.readPersistentChatLogEntriesAsync(logPath, limit, {
    refuseLinks: true,
    emptyIfMissing: true,
    maxEntryChars: MAX_ENTRY_CHARS,
  })

export const rebuildContinuitySummary = (params) =>
  native.rebuildPersistentChatContinuitySummaryAsync({ ...params, refuseLinks: true })

export const buildInjectedPromptReport = (params) => native.buildPersistentChatInjectedPromptReportAsync(params)
