'use strict'
// Replacing a dist chunk atomically: a temporary file in the same folder, fsync, rename
// over the original. Nothing that imports the dist ever sees a half-written chunk, and a
// hard link elsewhere to the old file (a `cp -al` copy of an install) keeps the old bytes.
const crypto = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')
const { PatchError } = require('./errors')

const TEMP_TAG = 'openclaw-context-native'
// Hidden and not `.js`/`.mjs`: a leftover is never imported nor scanned as a chunk.
const tempPrefix = (file) => `.${path.basename(file)}.${TEMP_TAG}-`

function processIsAlive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return err.code === 'EPERM'
  }
}

// `.<chunk name>.openclaw-context-native-<pid>-<8 hex>.tmp`, as writeAtomic names them.
const TEMP_NAME = new RegExp(`^\\.(.+)\\.${TEMP_TAG}-(\\d+)-[0-9a-f]{8}\\.tmp$`)

/**
 * A run killed between writing its temporary file and renaming it leaves that file
 * behind. The leftovers in `dir`: names of our pattern only, regular files only (never a
 * link or a folder), of processes that are gone (a live one may be a concurrent run
 * mid-write). With `remove`, they are removed; returns the paths.
 */
function staleTempFiles(dir, { remove = false } = {}) {
  let names
  try {
    names = fs.readdirSync(dir)
  } catch {
    return []
  }
  const stale = []
  for (const name of names) {
    const match = TEMP_NAME.exec(name)
    if (!match) continue
    const pid = Number(match[2])
    if (!Number.isSafeInteger(pid) || pid <= 0 || processIsAlive(pid)) continue
    const file = path.join(dir, name)
    try {
      if (!fs.lstatSync(file).isFile()) continue
      if (remove) fs.unlinkSync(file)
      stale.push(file)
    } catch {
      /* gone already, or not ours to remove */
    }
  }
  return stale
}

const READ_ONLY_CODES = new Set(['EACCES', 'EPERM', 'EROFS'])

// Windows refuses to rename over a file that any process has open, even one whose every
// handle shares delete: Node's fs.rename is MoveFileExW without POSIX semantics, and it
// answers EPERM (EACCES, EBUSY). The holders are brief (a concurrent run reading the
// chunk, the gateway importing it, a virus scanner), so on Windows the rename is retried
// for a while before the failure is reported, as npm's graceful-fs does.
const RENAME_BUSY_CODES = new Set(['EPERM', 'EACCES', 'EBUSY'])
const RENAME_RETRY_MS = 3000
const sleeper = new Int32Array(new SharedArrayBuffer(4))

/**
 * `rename(from, to)`, retried on Windows while the target is in use (see above), with
 * waits of 5 ms doubling to 100 ms, for `retryMs`. Elsewhere, and for other errors, once.
 */
function renameReplacing(
  from,
  to,
  { platform = process.platform, rename = fs.renameSync, retryMs = RENAME_RETRY_MS } = {},
) {
  const deadline = Date.now() + retryMs
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    try {
      rename(from, to)
      return
    } catch (err) {
      if (platform !== 'win32' || !RENAME_BUSY_CODES.has(err.code) || Date.now() + wait > deadline) throw err
    }
    Atomics.wait(sleeper, 0, 0, wait)
  }
}

/** Why a write failed, in the user's terms. */
function writeFailure(err, platform = process.platform) {
  // Windows refuses to replace a file another process holds open (EPERM, EBUSY), also
  // after renameReplacing's retries.
  if (platform === 'win32' && (err.code === 'EPERM' || err.code === 'EBUSY')) {
    return 'the chunk is in use or read-only; stop the gateway, or run as the user that owns the OpenClaw install'
  }
  return READ_ONLY_CODES.has(err.code)
    ? 'the dist is read-only for this user; run as the user that owns the OpenClaw install'
    : err.message
}

/**
 * Replaces `file` with `text` (a latin1 string: one char per byte). Keeps the mode (and
 * the owner, when run as root). Throws a PatchError, with `file` unchanged, on failure.
 */
function writeAtomic(file, text) {
  const dir = path.dirname(file)
  const stat = fs.lstatSync(file)
  // The scan read only regular files; one swapped for a link since is not followed.
  if (!stat.isFile()) throw new PatchError(`cannot write ${file}: it is no longer a regular file; nothing was changed`)
  staleTempFiles(dir, { remove: true })
  const tmp = path.join(dir, `${tempPrefix(file)}${process.pid}-${crypto.randomBytes(4).toString('hex')}.tmp`)
  let fd
  try {
    fd = fs.openSync(tmp, 'wx', stat.mode & 0o7777)
    fs.writeFileSync(fd, Buffer.from(text, 'latin1'))
    fs.fchmodSync(fd, stat.mode & 0o7777)
    if (typeof process.getuid === 'function' && process.getuid() === 0) {
      try {
        fs.fchownSync(fd, stat.uid, stat.gid)
      } catch {
        /* keep root's */
      }
    }
    fs.fsyncSync(fd)
    fs.closeSync(fd)
    fd = undefined
    renameReplacing(tmp, file)
  } catch (err) {
    if (fd !== undefined)
      try {
        fs.closeSync(fd)
      } catch {
        /* already failing */
      }
    try {
      fs.unlinkSync(tmp)
    } catch {
      /* never created */
    }
    const code = err.code ? ` (${err.code})` : ''
    throw new PatchError(`cannot write ${file}${code}: ${writeFailure(err)}; nothing was changed`)
  }
  // The rename is durable once the folder is synced (not supported everywhere, e.g. Windows).
  try {
    const dirFd = fs.openSync(dir, 'r')
    try {
      fs.fsyncSync(dirFd)
    } finally {
      fs.closeSync(dirFd)
    }
  } catch {
    /* best effort */
  }
}

module.exports = { writeAtomic, writeFailure, renameReplacing, staleTempFiles, tempPrefix }
