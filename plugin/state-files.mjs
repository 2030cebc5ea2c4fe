// Where a persistent chat keeps its files: wiring over the addon's ChatStore, which owns every
// byte of a chat folder (crates/core/src/store/: the layout, the file rules, the append, the
// atomic replace). No file of a chat is opened, read or written here.
//
// One folder per session key, with the file names the operator's runtime used:
//   perpetual-log.jsonl           the log: one JSON line per message, appended
//   continuity-summary.txt        state and memory, rebuilt for each new backend session
//   last-injected-preprompt.txt   the last prompt sent (for debugging)
//   memory-state.json             the Python memory script's state (read, never written here)
//
// The rules (README, "Security and data"): folders 0700 and files 0600 at creation; every
// folder and file a regular one of its own (one link), owned by the gateway's user and not
// writable by group or others, checked on the open handle; anything else is refused with code
// ENOTREGULAR before a byte moves.
import fs from 'node:fs/promises'
import path from 'node:path'

import { listedInSessionKeys } from './config.mjs'
import { ChatStore } from './native.mjs'

export const FILE_NAMES = {
  log: 'perpetual-log.jsonl',
  summary: 'continuity-summary.txt',
  lastPrompt: 'last-injected-preprompt.txt',
  memoryState: 'memory-state.json',
}

/** The folder name of a session key under the state dir (the store's layout). */
export const sessionFolderName = (sessionKey) => ChatStore.folderName(sessionKey)

/** The four files of a folder. */
export function filesIn(dir, summary = path.join(dir, FILE_NAMES.summary)) {
  return {
    dir,
    log: path.join(dir, FILE_NAMES.log),
    summary,
    lastPrompt: path.join(dir, FILE_NAMES.lastPrompt),
    memoryState: path.join(dir, FILE_NAMES.memoryState),
  }
}

/**
 * The four files of one session key's own folder: its `sessionStateDirs` folder, else its folder
 * under `stateDir` (whether the runtime's files are its instead, openSessionFolder decides).
 */
export function sessionFiles(config, sessionKey) {
  const fixed = config.sessionStateDirs.get(sessionKey)
  return filesIn(fixed ?? path.join(config.stateDir, sessionFolderName(sessionKey)))
}

/** The file in the runtime's folder naming the key whose chat it is (the store's `OWNER_FILE`). */
const OWNER_FILE = 'session-key-owner'

/**
 * The session's folder, ready for use (ChatStore.open): its `sessionStateDirs` folder; else the
 * runtime's files (`config.runtimeFiles`: the gateway's `PERSISTENT_CHAT_CONTINUITY_PATH`) when
 * they are this chat's (listed in `sessionKeys`, or, without it, the first key to claim them);
 * else its own folder under `stateDir`, found (a folder of an earlier release under its old name
 * is renamed to the new one, history and all) or created 0700. The folder and each state file in
 * it are checked. Rejects with code `ENOTREGULAR` naming the first path refused. Returns the
 * store, its files and `migratedFrom` when an old folder was taken over. The store masks all it
 * writes with the built-in patterns and `maskPatterns` (the operator's).
 *
 * `{ create: false }` (the chat-log tools): the same rule, read-only: nothing is created,
 * renamed, cleaned or claimed (the runtime's files are this key's only when `sessionKeys` lists
 * it or its claim is already recorded); a key with no chat rejects with code `ENOENT`.
 */
export async function openSessionFolder(config, sessionKey, { create = true, maskPatterns = [] } = {}) {
  const fixed = config.sessionStateDirs.get(sessionKey)
  const readOnly = create ? {} : { create: false }
  let store
  if (fixed !== undefined) store = await ChatStore.open({ folder: fixed, maskPatterns, ...readOnly })
  else if (config.runtimeFiles) store = await runtimeStore(config, sessionKey, create, maskPatterns)
  store ??= await ChatStore.open({ stateDir: config.stateDir, sessionKey, maskPatterns, ...readOnly })
  return {
    store,
    files: filesIn(store.folder, store.summaryPath),
    migratedFrom: store.migratedFrom ?? undefined,
  }
}

/** The runtime's files' store when they are this key's chat, else undefined. */
async function runtimeStore(config, sessionKey, create, maskPatterns) {
  const listed = config.sessionKeys !== undefined && listedInSessionKeys(config, sessionKey)
  if (!create && !listed) {
    // Read-only: claimForKey would record a first claim; with no claim recorded yet, the
    // files are no key's (the gateway claims them at a chat's first turn, before any tool).
    if (config.sessionKeys !== undefined) return undefined
    const owner = await fs.lstat(path.join(config.runtimeFiles.dir, OWNER_FILE)).catch(() => undefined)
    if (!owner) return undefined
  }
  const runtime = await ChatStore.open({
    folder: config.runtimeFiles.dir,
    summaryFile: path.basename(config.runtimeFiles.summary),
    maskPatterns,
    ...(create ? {} : { create: false }),
  })
  if (listed || (config.sessionKeys === undefined && (await runtime.claimForKey(sessionKey)))) return runtime
  return undefined
}

const MAX_SCANNED_FOLDERS = 10000

/**
 * The state paths that other local users can read or enter (any group or other mode bit):
 * `root` itself, each folder in it (up to 10,000) and the state files in those, and the
 * `extraDirs` with their files (ChatStore.inspectFolder: modes only, nothing read). Empty on
 * Windows, where access is the folder's ACL (see README).
 */
export async function findWideModes(root, extraDirs = []) {
  if (process.platform === 'win32') return []
  const wide = []
  const shown = (mode) => (mode & 0o777).toString(8).padStart(4, '0')
  const checkFolder = async (dir) => {
    const report = await ChatStore.inspectFolder(dir, { entries: 0 }).catch(() => undefined)
    for (const problem of report?.problems ?? []) {
      if (problem.kind !== 'readable') continue
      const item = report.items.find((i) => i.path === problem.path)
      wide.push({ path: problem.path, mode: shown(item?.mode ?? 0) })
    }
  }
  const rootStats = await fs.lstat(root).catch(() => undefined)
  if (rootStats?.isDirectory()) {
    if ((rootStats.mode & 0o077) !== 0) wide.push({ path: root, mode: shown(rootStats.mode) })
    try {
      let seen = 0
      for await (const entry of await fs.opendir(root)) {
        if (!entry.isDirectory()) continue
        await checkFolder(path.join(root, entry.name))
        if (++seen >= MAX_SCANNED_FOLDERS) break
      }
    } catch {
      // An unreadable root lists nothing more; its own mode is reported above.
    }
  }
  for (const extra of extraDirs) await checkFolder(extra)
  return wide
}
