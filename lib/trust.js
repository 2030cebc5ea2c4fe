'use strict'
// Whether a folder the command found by itself (not one the user named) can be trusted to
// hold code: every folder from it up to the filesystem root must belong to the user running
// the command or to root, and be writable by no one else, unless it is sticky (as /tmp is:
// there others may add entries but not rename or remove ours). Otherwise another local user
// could have planted the folder, or could swap it, and `patch` would load and rewrite their
// code. POSIX only: on Windows Node's stat gives no owner and no ACL, so nothing is checked
// there (the folder is still printed).
const fs = require('node:fs')
const path = require('node:path')
const { oneLine } = require('./errors')
const { quoteArg } = require('./shell-quote')

const GROUP_OR_OTHER_WRITE = 0o022
const STICKY = 0o1000

const ownerName = (uid) => (uid === 0 ? 'root' : `uid ${uid}`)

/**
 * Why `dir` (an absolute real path) must not be trusted, or null when it may be. Options for
 * tests: `stat` (an fs.statSync-like function), `uid` (the running user's), `platform`.
 */
function untrustedReason(dir, { stat = fs.statSync, uid = process.getuid?.(), platform = process.platform } = {}) {
  if (platform === 'win32' || uid === undefined) return null
  for (let current = dir, child = null; ; child = current, current = path.dirname(current)) {
    let st
    try {
      st = stat(current)
    } catch (err) {
      return `cannot stat ${quoteArg(current)} (${err.code || oneLine(err)})`
    }
    if (st.uid !== uid && st.uid !== 0)
      return `${quoteArg(current)} belongs to ${ownerName(st.uid)}, not to you (uid ${uid}) or root`
    // A sticky folder others may write is safe above an entry of ours (checked one step down),
    // never as the folder found itself.
    const othersMayWrite = (st.mode & GROUP_OR_OTHER_WRITE) !== 0
    if (othersMayWrite && !(child !== null && st.mode & STICKY)) {
      return `${quoteArg(current)} is writable by ${st.mode & 0o002 ? 'every user' : 'its group'} (mode ${(st.mode & 0o7777).toString(8).padStart(4, '0')})`
    }
    if (path.dirname(current) === current) return null
  }
}

module.exports = { untrustedReason }
