'use strict'
// `backup --force`: a backup over an existing one. The addon never replaces anything (an
// existing `out` is EEXIST), so the new backup is made under a fresh hidden name beside PATH
// and then put in its place: a .tar file by one rename over the old file (a reader sees the old
// or the new), a backup folder by moving the old one aside, renaming the new one in and
// removing the old. Only what a backup could have made is replaced: a regular file for a .tar,
// a folder holding manifest.json for a folder; anything else is refused even with --force.
const crypto = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')

const isTar = (out) => out.toLowerCase().endsWith('.tar')

/** Why the thing at `out` is not replaced, or undefined when --force may replace it. */
function notReplaceable(out, stats) {
  if (isTar(out)) return stats.isFile() ? undefined : 'not a regular file'
  if (!stats.isDirectory()) return 'not a folder'
  return fs.existsSync(path.join(out, 'manifest.json')) ? undefined : 'a folder without manifest.json (not a backup)'
}

/** A fresh hidden name beside `out`, of the same form (a .tar stays a .tar for the addon). */
function besideName(out, tag) {
  const name = `.${path.basename(out)}.${tag}-${process.pid}-${crypto.randomBytes(4).toString('hex')}`
  return path.join(path.dirname(out), isTar(out) ? `${name}.tar` : name)
}

/** The new backup at `made` put in the place of the old one at `out`. */
function swapIn(made, out) {
  if (isTar(out)) {
    fs.renameSync(made, out)
    return
  }
  const old = besideName(out, 'old')
  fs.renameSync(out, old)
  fs.renameSync(made, out)
  fs.rmSync(old, { recursive: true, force: true })
}

/**
 * ChatStore.backup over the existing backup at `params.out` (`stats` its lstat): the result as
 * the addon gives it, with `out` the path asked for.
 */
async function backupReplacing(ChatStore, params, stats) {
  const why = notReplaceable(params.out, stats)
  if (why) {
    throw Object.assign(new Error(`${params.out} exists and is ${why}: --force replaces only an earlier backup`), {
      code: 'EEXIST',
      path: params.out,
    })
  }
  const made = besideName(params.out, 'new')
  let result
  try {
    result = await ChatStore.backup({ ...params, out: made })
    if (result.written) swapIn(made, params.out)
  } catch (e) {
    fs.rmSync(made, { recursive: true, force: true })
    throw e
  }
  return { ...result, out: params.out }
}

module.exports = { backupReplacing }
