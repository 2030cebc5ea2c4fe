'use strict'
// Replacing a file whole: a new temporary file in the same folder, then a rename over the
// name. A reader sees the old bytes or the new ones, never a mix, and a link at the name is
// replaced, not written through. One implementation with two faces: the steps are written
// once as a generator that yields each file-system call, and `replaceFileSync` (the CLI's)
// runs them with fs's synchronous calls, `replaceFile` (the gateway's plugin, which must
// not block its event loop) with the asynchronous ones.
const crypto = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')
const { promisify } = require('node:util')

const TEMP_TAG = 'openclaw-context-native'
// Hidden and not `.js`/`.mjs`: a leftover is never imported nor scanned as a chunk.
const tempPrefix = (file) => `.${path.basename(file)}.${TEMP_TAG}-`
// `.<name>.openclaw-context-native-<pid>-<8 hex>.tmp`, as replaceSteps names them.
const TEMP_NAME = new RegExp(`^\\.(.+)\\.${TEMP_TAG}-(\\d+)-[0-9a-f]{8}\\.tmp$`)

// Windows refuses to rename over a file that any process has open, even one whose every
// handle shares delete: Node's fs.rename is MoveFileExW without POSIX semantics, and it
// answers EPERM (EACCES, EBUSY). The holders are brief (a concurrent run reading the
// file, the gateway importing it, a virus scanner), so on Windows the rename is retried
// for a while before the failure is reported, as npm's graceful-fs does.
const RENAME_BUSY_CODES = new Set(['EPERM', 'EACCES', 'EBUSY'])
const RENAME_RETRY_MS = 3000

/**
 * The rename, retried on Windows while the target is in use (see above), with waits of
 * 5 ms doubling to 100 ms, for `retryMs`. Elsewhere, and for other errors, once.
 */
function* renameSteps(from, to, { platform = process.platform, retryMs = RENAME_RETRY_MS } = {}) {
  const deadline = Date.now() + retryMs
  for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
    try {
      yield ['rename', from, to]
      return
    } catch (err) {
      if (platform !== 'win32' || !RENAME_BUSY_CODES.has(err.code) || Date.now() + wait > deadline) throw err
    }
    yield ['sleep', wait]
  }
}

/**
 * The steps of replacing `file` with `data` (a Buffer). Options: `mode` of the new file
 * (set on its handle, whatever the umask); `owner` (`{ uid, gid }`, kept when run as root);
 * `durable`: the file and then the folder are synced, so the new bytes survive a power cut;
 * `noFollow`: the temporary file is opened with O_NOFOLLOW where there is one.
 */
function* replaceSteps(
  file,
  data,
  { mode = 0o600, owner, durable = false, noFollow = false, platform = process.platform } = {},
) {
  const dir = path.dirname(file)
  const tmp = path.join(dir, `${tempPrefix(file)}${process.pid}-${crypto.randomBytes(4).toString('hex')}.tmp`)
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW = 0 } = fs.constants
  let fd
  try {
    // O_EXCL: a new file of our own, never one planted at the name (a link, a FIFO).
    fd = yield ['open', tmp, O_WRONLY | O_CREAT | O_EXCL | (noFollow ? O_NOFOLLOW : 0), mode]
    yield ['writeAll', fd, data]
    yield ['fchmod', fd, mode]
    if (owner && typeof process.getuid === 'function' && process.getuid() === 0) {
      try {
        yield ['fchown', fd, owner.uid, owner.gid]
      } catch {
        /* keep root's */
      }
    }
    if (durable) yield ['fsync', fd]
    yield ['close', fd]
    fd = undefined
    yield* renameSteps(tmp, file, { platform })
  } catch (err) {
    if (fd !== undefined) {
      try {
        yield ['close', fd]
      } catch {
        /* already failing */
      }
    }
    try {
      yield ['unlink', tmp]
    } catch {
      /* never created */
    }
    throw err
  }
  // The rename is durable once the folder is synced (not supported everywhere, e.g. Windows).
  if (durable) {
    try {
      const dirFd = yield ['open', dir, fs.constants.O_RDONLY, 0]
      try {
        yield ['fsync', dirFd]
      } finally {
        yield ['close', dirFd]
      }
    } catch {
      /* best effort */
    }
  }
}

const sleeper = new Int32Array(new SharedArrayBuffer(4))
const SYNC = {
  open: fs.openSync,
  writeAll: (fd, data) => {
    for (let written = 0; written < data.length; ) written += fs.writeSync(fd, data, written, data.length - written)
  },
  fchmod: fs.fchmodSync,
  fchown: fs.fchownSync,
  fsync: fs.fsyncSync,
  close: fs.closeSync,
  rename: fs.renameSync,
  unlink: fs.unlinkSync,
  sleep: (ms) => Atomics.wait(sleeper, 0, 0, ms),
}
const write = promisify(fs.write)
const ASYNC = {
  open: promisify(fs.open),
  writeAll: async (fd, data) => {
    for (let written = 0; written < data.length; ) {
      written += (await write(fd, data, written, data.length - written, null)).bytesWritten
    }
  },
  fchmod: promisify(fs.fchmod),
  fchown: promisify(fs.fchown),
  fsync: promisify(fs.fsync),
  close: promisify(fs.close),
  rename: fs.promises.rename,
  unlink: fs.promises.unlink,
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}

/** Runs `steps` with `calls`; a call's error is thrown into the steps, at the yield. */
function runSync(steps, calls = SYNC) {
  let next = steps.next()
  while (!next.done) {
    const [name, ...args] = next.value
    let result
    try {
      result = calls[name](...args)
    } catch (err) {
      next = steps.throw(err)
      continue
    }
    next = steps.next(result)
  }
  return next.value
}

async function runAsync(steps, calls = ASYNC) {
  let next = steps.next()
  while (!next.done) {
    const [name, ...args] = next.value
    let result
    try {
      result = await calls[name](...args)
    } catch (err) {
      next = steps.throw(err)
      continue
    }
    next = steps.next(result)
  }
  return next.value
}

/** Replaces `file` with `data` (Buffer or UTF-8 string), synchronously. Options: replaceSteps'. */
const replaceFileSync = (file, data, options) => runSync(replaceSteps(file, Buffer.from(data), options))

/** Replaces `file` with `data` (Buffer or UTF-8 string) on the thread pool. Options: replaceSteps'. */
const replaceFile = (file, data, options) => runAsync(replaceSteps(file, Buffer.from(data), options))

/**
 * `rename(from, to)` with the Windows retry of replaceSteps, synchronously (`rename`
 * replaceable, for the specs).
 */
function renameReplacing(from, to, { platform = process.platform, rename = fs.renameSync, retryMs } = {}) {
  runSync(renameSteps(from, to, { platform, retryMs }), { ...SYNC, rename })
}

module.exports = { replaceFile, replaceFileSync, renameReplacing, tempPrefix, TEMP_NAME }
