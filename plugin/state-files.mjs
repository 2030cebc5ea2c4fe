// Where a persistent chat keeps its files, and how they are opened and written.
//
// One folder per session key, with the file names the operator's runtime used:
//   perpetual-log.jsonl           the log: one JSON line per message, appended
//   continuity-summary.txt        state and memory, rebuilt for each new backend session
//   last-injected-preprompt.txt   the last prompt sent (for debugging)
//   memory-state.json             the Python memory script's state (read, never written here)
//
// The rules (README, "Security and data"):
// - Private: folders are created 0700 and files 0600, asked for at creation (not left to
//   the umask). Modes of folders and files found in place are never changed (another
//   reader, a backup or the memory script, may rely on them); `findWideModes` names them.
// - Never a hang, never someone else's file: every state path must be absent or a regular
//   file of its own (one link) in a real folder. A symlink, FIFO, socket, device or a
//   hard-linked file is refused before a byte moves (`UnsafeStatePathError`): files are
//   opened O_NOFOLLOW | O_NONBLOCK (a FIFO's open returns at once) and checked on the open
//   handle. Windows has neither flag: there an lstat before the open is the check.
// - Nothing lost: a line is one `write` of one buffer on an O_APPEND handle, starting with
//   a `\n` when the file does not end with one (a torn fragment never takes the next
//   entry with it), then `fdatasync` (on the thread pool, like every call here).
import crypto from 'node:crypto'
import fs from 'node:fs/promises'
import path from 'node:path'

import { replaceFile } from './lib.mjs'

export const FILE_NAMES = {
  log: 'perpetual-log.jsonl',
  summary: 'continuity-summary.txt',
  lastPrompt: 'last-injected-preprompt.txt',
  memoryState: 'memory-state.json',
}

export const FOLDER_MODE = 0o700
export const FILE_MODE = 0o600

const IS_WINDOWS = process.platform === 'win32'
const { O_RDONLY, O_RDWR, O_APPEND, O_CREAT } = fs.constants
// 0 where the platform has no such flag (Windows): the lstat checks stand in for them.
const O_NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0
const O_NONBLOCK = fs.constants.O_NONBLOCK ?? 0

/** A state path that is not a regular file (or folder) of its own: never opened for use. */
export class UnsafeStatePathError extends Error {
  constructor(file, kind) {
    // Worded as Node words a system error (`CODE: what`), so its first line names the code.
    super(`EUNSAFESTATE: ${file} is a ${kind}, not a regular file of its own: refused`)
    this.name = 'UnsafeStatePathError'
    this.code = 'EUNSAFESTATE'
    this.path = file
    this.kind = kind
  }
}

/** What an lstat/fstat result names, for the refusal's message; undefined when acceptable. */
function unsafeKind(stats, { folder = false } = {}) {
  if (stats.isSymbolicLink()) return 'symlink'
  if (folder) return stats.isDirectory() ? undefined : stats.isFile() ? 'file where a folder belongs' : kindName(stats)
  if (stats.isFile()) return stats.nlink > 1 ? `hard-linked file (${stats.nlink} links)` : undefined
  return kindName(stats)
}

function kindName(stats) {
  if (stats.isDirectory()) return 'folder'
  if (stats.isFIFO()) return 'FIFO'
  if (stats.isSocket()) return 'socket'
  if (stats.isCharacterDevice()) return 'character device'
  if (stats.isBlockDevice()) return 'block device'
  return 'special file'
}

async function lstatOrUndefined(file) {
  try {
    return await fs.lstat(file)
  } catch (error) {
    if (error?.code === 'ENOENT') return undefined
    throw error
  }
}

/**
 * A folder name for a session key that is safe on every file system (Windows forbids `:`,
 * which every session key holds) and distinct per key: a readable slug plus 128 bits of
 * the key's SHA-256 (no two keys share a folder short of a SHA-256 collision).
 */
export function sessionFolderName(sessionKey) {
  const slug = sessionSlug(sessionKey)
  const hash = crypto.createHash('sha256').update(sessionKey).digest('hex').slice(0, 32)
  return slug ? `${slug}-${hash}` : hash
}

/** The name releases up to 0.1.0 gave the folder: 40 bits of hash, which two keys can share. */
export function legacySessionFolderName(sessionKey) {
  const slug = sessionSlug(sessionKey)
  const hash = crypto.createHash('sha256').update(sessionKey).digest('hex').slice(0, 10)
  return slug ? `${slug}-${hash}` : hash
}

function sessionSlug(sessionKey) {
  return sessionKey
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
}

/** The four files of a folder. */
export function filesIn(dir) {
  return {
    dir,
    log: path.join(dir, FILE_NAMES.log),
    summary: path.join(dir, FILE_NAMES.summary),
    lastPrompt: path.join(dir, FILE_NAMES.lastPrompt),
    memoryState: path.join(dir, FILE_NAMES.memoryState),
  }
}

/**
 * The four files of one session key (before `openSessionFolder` found or made its folder): its
 * `sessionStateDirs` folder, else the runtime's files (`config.runtimeFiles`: the gateway's
 * `PERSISTENT_CHAT_CONTINUITY_PATH`), else its own folder under `stateDir`.
 */
export function sessionFiles(config, sessionKey) {
  const fixed = config.sessionStateDirs.get(sessionKey)
  if (fixed === undefined && config.runtimeFiles) {
    return { ...filesIn(config.runtimeFiles.dir), summary: config.runtimeFiles.summary }
  }
  return filesIn(fixed ?? path.join(config.stateDir, sessionFolderName(sessionKey)))
}

/**
 * The session's folder, ready for use: found (a folder of an earlier release under its old
 * name is renamed to the new one, history and all), or created 0700; then the folder and
 * each state file in it checked. Throws `UnsafeStatePathError` naming the first path
 * refused. Returns the files and `{ migratedFrom }` when an old folder was taken over.
 */
export async function openSessionFolder(config, sessionKey) {
  const files = sessionFiles(config, sessionKey)
  let migratedFrom
  let stats = await lstatOrUndefined(files.dir)
  if (!stats && !config.sessionStateDirs.has(sessionKey) && !config.runtimeFiles) {
    const legacy = path.join(config.stateDir, legacySessionFolderName(sessionKey))
    const legacyStats = await lstatOrUndefined(legacy)
    if (legacyStats) {
      const kind = unsafeKind(legacyStats, { folder: true })
      if (kind) throw new UnsafeStatePathError(legacy, kind)
      // A rename within one folder: atomic, and the old name is free for no one else.
      await fs.rename(legacy, files.dir)
      migratedFrom = legacy
      stats = await fs.lstat(files.dir)
    }
  }
  if (!stats) {
    await fs.mkdir(files.dir, { recursive: true, mode: FOLDER_MODE })
    stats = await fs.lstat(files.dir)
    // Only a umask that takes the owner's own bits away leaves it otherwise.
    if (!IS_WINDOWS && (stats.mode & 0o777) !== FOLDER_MODE && stats.isDirectory()) {
      await fs.chmod(files.dir, FOLDER_MODE)
    }
  }
  const kind = unsafeKind(stats, { folder: true })
  if (kind) throw new UnsafeStatePathError(files.dir, kind)
  await Promise.all(
    [files.log, files.summary, files.lastPrompt, files.memoryState].map(async (file) => {
      const fileStats = await lstatOrUndefined(file)
      const fileKind = fileStats && unsafeKind(fileStats)
      if (fileKind) throw new UnsafeStatePathError(file, fileKind)
    }),
  )
  return { files, migratedFrom }
}

/**
 * Opens a state file without following a symlink and without blocking, and checks on the
 * open handle that it is a regular file of its own. Returns `{ handle, stats }`.
 */
async function openStateFile(file, flags, mode = FILE_MODE) {
  if (IS_WINDOWS) {
    const before = await lstatOrUndefined(file)
    const kind = before && unsafeKind(before)
    if (kind) throw new UnsafeStatePathError(file, kind)
  }
  let handle
  try {
    handle = await fs.open(file, flags | O_NOFOLLOW | O_NONBLOCK, mode)
  } catch (error) {
    // ELOOP: O_NOFOLLOW met a symlink (EMLINK on FreeBSD). ENXIO: a FIFO with no reader
    // opened for writing, or a socket. Name what the path is.
    if (['ELOOP', 'EMLINK', 'ENXIO', 'EOPNOTSUPP'].includes(error?.code)) {
      const stats = await lstatOrUndefined(file).catch(() => undefined)
      const kind = stats && unsafeKind(stats)
      if (kind) throw new UnsafeStatePathError(file, kind)
    }
    throw error
  }
  try {
    const stats = await handle.stat()
    const kind = unsafeKind(stats)
    if (kind) throw new UnsafeStatePathError(file, kind)
    return { handle, stats }
  } catch (error) {
    await handle.close().catch(() => {})
    throw error
  }
}

/** Whether the file `handle` holds ends with `\n` (an empty file does: nothing to finish). */
async function endsWithLineBreak(handle, size) {
  if (size === 0) return true
  const last = Buffer.alloc(1)
  const { bytesRead } = await handle.read(last, 0, 1, size - 1)
  return bytesRead === 1 && last[0] === 0x0a
}

/**
 * Appends `entry` as one JSON line to the log at `logPath`, durably.
 *
 * One `write` of one buffer on an O_APPEND handle: on Linux and macOS local file systems a
 * write to a regular file holds the file's lock for all its bytes, so lines of concurrent
 * writers (other processes included) never interleave, whatever their size (up to the
 * 2 GiB a single write moves). A short write (disk full, file size limit) is finished by
 * further writes, where another writer's line could fall in between; the next append's
 * line-break check keeps that from spreading past the torn line. Network file systems
 * (NFS) do not make O_APPEND atomic at all. On Windows libuv opens it append-only
 * (FILE_APPEND_DATA), written at the end by NTFS; Wine's emulation is not atomic.
 *
 * @returns {Promise<{ bytes: number, repairedTornLine: boolean, created: boolean }>}
 */
export async function appendLogEntry(logPath, entry, { durable = true } = {}) {
  const { handle, stats } = await openStateFile(logPath, O_RDWR | O_APPEND | O_CREAT)
  try {
    const created = stats.size === 0
    if (created && !IS_WINDOWS && (stats.mode & 0o777) !== FILE_MODE) await handle.chmod(FILE_MODE)
    const repairedTornLine = !(await endsWithLineBreak(handle, stats.size))
    const buffer = Buffer.from(`${repairedTornLine ? '\n' : ''}${JSON.stringify(entry)}\n`, 'utf8')
    let written = 0
    while (written < buffer.length) {
      const { bytesWritten } = await handle.write(buffer, written, buffer.length - written, null)
      if (bytesWritten <= 0) throw Object.assign(new Error(`short write to ${logPath}`), { code: 'EIO' })
      written += bytesWritten
    }
    if (durable) await handle.datasync()
    if (durable && created) await syncFolder(path.dirname(logPath))
    return { bytes: buffer.length, repairedTornLine, created }
  } finally {
    await handle.close()
  }
}

/** fsync of a folder, so a file just created in it is still there after a power cut. */
async function syncFolder(dir) {
  if (IS_WINDOWS) return
  const handle = await fs.open(dir, O_RDONLY | (fs.constants.O_DIRECTORY ?? 0) | O_NOFOLLOW)
  try {
    await handle.sync()
  } catch (error) {
    // Some file systems cannot fsync a folder (EINVAL); the file's own data is synced.
    if (error?.code !== 'EINVAL') throw error
  } finally {
    await handle.close()
  }
}

/**
 * Replaces a file whole (a private temp file, then rename; lib/replace-file.js, the
 * CLI's too): a reader sees the old or the new text. The rename replaces the name, never
 * writes through it: a symlink or a hard link at `file` is replaced, not followed
 * (`openSessionFolder` refuses them first anyway). Not synced: what it holds is rebuilt.
 */
export const writeFileAtomic = (file, text) => replaceFile(file, text, { mode: FILE_MODE, noFollow: true })

const MAX_SCANNED_FOLDERS = 10000

/**
 * The state paths that other local users can read or enter (any group or other mode bit):
 * `root` itself, each folder in it (up to 10,000) and the state files in those, and the
 * `extraDirs` with their files. Symlinks are not followed. Empty on Windows, where access
 * is the folder's ACL (see README).
 */
export async function findWideModes(root, extraDirs = []) {
  if (IS_WINDOWS) return []
  const wide = []
  const check = async (file, folder) => {
    const stats = await lstatOrUndefined(file).catch(() => undefined)
    if (!stats || stats.isSymbolicLink() || (folder ? !stats.isDirectory() : !stats.isFile())) return false
    if ((stats.mode & 0o077) !== 0) wide.push({ path: file, mode: (stats.mode & 0o777).toString(8).padStart(4, '0') })
    return true
  }
  const checkFolder = async (dir) => {
    if (!(await check(dir, true))) return
    await Promise.all(Object.values(FILE_NAMES).map((name) => check(path.join(dir, name), false)))
  }
  if (await check(root, true)) {
    let dir
    try {
      dir = await fs.opendir(root)
      let seen = 0
      for await (const entry of dir) {
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
