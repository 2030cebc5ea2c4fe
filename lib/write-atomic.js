'use strict'
// Replacing a dist chunk atomically (replace-file.js): a temporary file in the same folder,
// fsync, rename over the original. Nothing that imports the dist ever sees a half-written chunk, and a
// hard link elsewhere to the old file (a `cp -al` copy of an install) keeps the old bytes.
const fs = require('node:fs')
const path = require('node:path')
const { PatchError } = require('./errors')
const { TEMP_NAME, replaceFileSync } = require('./replace-file')
const { quoteArg } = require('./shell-quote')

function processIsAlive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    return err.code === 'EPERM'
  }
}

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

/** Why a write failed, in the user's terms. */
function writeFailure(err, platform = process.platform) {
  // Windows refuses to replace a file another process holds open (EPERM, EBUSY), also
  // after replace-file.js's rename retries.
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
  const stat = fs.lstatSync(file)
  // The scan read only regular files; one swapped for a link since is not followed.
  if (!stat.isFile())
    throw new PatchError(`cannot write ${quoteArg(file)}: it is no longer a regular file; nothing was changed`)
  staleTempFiles(path.dirname(file), { remove: true })
  try {
    replaceFileSync(file, Buffer.from(text, 'latin1'), {
      mode: stat.mode & 0o7777,
      owner: { uid: stat.uid, gid: stat.gid },
      durable: true,
    })
  } catch (err) {
    const code = err.code ? ` (${err.code})` : ''
    throw new PatchError(`cannot write ${quoteArg(file)}${code}: ${writeFailure(err)}; nothing was changed`)
  }
}

module.exports = { writeAtomic, writeFailure, staleTempFiles }
