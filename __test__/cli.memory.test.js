'use strict'
// A large chat through the command line in bounded memory, measured as the operating system
// counts it (the child's peak resident set): `export` to a pipe streams (the log is never held,
// nor is the export), `import` of a large export holds 64 bytes an entry, not its lines. The
// peaks are compared with the same command on a one-entry chat, so the Node and addon baseline
// of the machine cancels out.
const { spawn } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const { ChatStore } = require('../index.js')
const { CLI, tempDirs } = require('./fixtures/cli.js')
const { posixTest: posixTestFor } = require('./fixtures/platform.js')

const posixTest = posixTestFor('the export goes through the stream a chunk at a time there (writeTo is POSIX)')
const tempDir = tempDirs('occn-cli-memory-')
const KEY = 'agent:codex:acp:memory'
const MiB = 1 << 20

/** A chat whose log holds about `bytes` of entries; its log's path. */
async function chat(state, bytes) {
  const store = await ChatStore.open({ stateDir: state, sessionKey: KEY })
  const fd = fs.openSync(store.logPath, 'w')
  const text = 'lorem ipsum dolor sit amet consectetur adipiscing elit '.repeat(6)
  let written = 0
  let lines = []
  for (let i = 0; written < bytes; i++) {
    const line = `${JSON.stringify({ ts: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 86400)).toISOString(), role: i % 2 ? 'assistant' : 'user', text: `entry ${i} ${text}`, id: `m${i}` })}\n`
    lines.push(line)
    written += line.length
    if (lines.length === 10000) {
      fs.writeSync(fd, lines.join(''))
      lines = []
    }
  }
  fs.writeSync(fd, lines.join(''))
  fs.closeSync(fd)
  return store.logPath
}

/** The command line run in a child that reports its peak resident set (bytes); stdout read and dropped. */
function peakOf(args) {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const { main } = require(${JSON.stringify(CLI)});
      Promise.resolve(main(${JSON.stringify(args)})).then((code) => {
        process.stderr.write(JSON.stringify({ code, peak: process.resourceUsage().maxRSS * 1024 }))
      })`,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let stdout = 0
  let stderr = ''
  child.stdout.on('data', (data) => {
    stdout += data.length
  })
  child.stderr.on('data', (data) => {
    stderr += data
  })
  return new Promise((resolve) =>
    child.on('close', () => resolve({ stdout, ...JSON.parse(stderr.slice(stderr.lastIndexOf('{'))) })),
  )
}

posixTest(
  'export of a 160 MB log to a pipe: within 64 MiB of a one-entry export',
  async () => {
    const dir = tempDir()
    const big = path.join(dir, 'big')
    const small = path.join(dir, 'small')
    await chat(big, 160 * 1e6)
    await chat(small, 1)
    const args = (state) => ['export', '--state-dir', state, '--session-key', KEY]
    const baseline = await peakOf(args(small))
    const large = await peakOf(args(big))
    expect([baseline.code, large.code]).toEqual([0, 0])
    expect(large.stdout).toBeGreaterThan(160 * 1e6)
    expect(large.peak - baseline.peak).toBeLessThan(64 * MiB)
  },
  120000,
)

posixTest(
  'import of a 160 MB export into a new chat: within 128 MiB of a one-entry import',
  async () => {
    const dir = tempDir()
    const bigLog = await chat(path.join(dir, 'big'), 160 * 1e6)
    const smallLog = await chat(path.join(dir, 'small'), 1)
    const args = (from, into) => ['import', '--state-dir', into, '--session-key', KEY, '--from-export', from, '--apply']
    const baseline = await peakOf(args(smallLog, path.join(dir, 'into-small')))
    const large = await peakOf(args(bigLog, path.join(dir, 'into-big')))
    expect([baseline.code, large.code]).toEqual([0, 0])
    // About 64 bytes an entry (400,000 entries here), never the lines themselves.
    expect(large.peak - baseline.peak).toBeLessThan(128 * MiB)
  },
  120000,
)
