'use strict'
// One measurement in a fresh child process (lib/child.js), so that its load time and peak RSS
// are its own. Returns the child's JSON line, or { error } when it printed none.
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const CHILD = path.join(__dirname, 'child.js')

function runChild(args) {
  const r = spawnSync(process.execPath, [CHILD, ...args], { encoding: 'utf8', maxBuffer: 1 << 20 })
  const line = (r.stdout || '').trim().split('\n').pop()
  try {
    return JSON.parse(line)
  } catch {
    return {
      error: `child exited ${r.status ?? r.signal}: ${(r.stderr || '').trim().split('\n').slice(-3).join(' | ')}`,
    }
  }
}

module.exports = { runChild }
