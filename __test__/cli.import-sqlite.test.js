'use strict'
// openclaw-context import --from-openclaw from OpenClaw's SQLite store (2026.7 on), as a user runs
// it, on the Nodes that have node:sqlite (22.13 and later: the platform runs and test:e2e's): the
// store is read, never written, and nothing is created in OpenClaw's folder, with a gateway
// holding the database open and without one; a `transcript_events` that is a view (an endless
// query) is refused at once; an event that decompresses to more than 16 MiB is left out, named.
const { spawn } = require('node:child_process')
const crypto = require('node:crypto')
const fs = require('node:fs')
const path = require('node:path')
const { tempDirs, runCli: run } = require('./fixtures/cli.js')

const KEY = 'agent:codex:acp:sqlite'
const tempDir = tempDirs('occn-cli-import-sqlite-')

let sqlite
try {
  sqlite = require('node:sqlite')
} catch {}
const zstd = typeof require('node:zlib').zstdCompressSync === 'function'
const withSqlite = sqlite ? test : test.skip.bind(test)
const withZstd = sqlite && zstd ? test : test.skip.bind(test)
const SKIPPED = sqlite ? '' : ' (skipped: this Node has no node:sqlite)'

/** OpenClaw's state folder with a WAL-mode store of `events` for KEY; the database's path. */
function openclawStore(events, { view = false, compressed = false } = {}) {
  const state = tempDir()
  const folder = path.join(state, 'agents', 'codex', 'agent')
  fs.mkdirSync(folder, { recursive: true })
  const file = path.join(folder, 'openclaw-agent.sqlite')
  const db = new sqlite.DatabaseSync(file)
  db.exec('PRAGMA journal_mode=WAL')
  db.exec('CREATE TABLE session_nodes (session_key TEXT, current_session_id TEXT)')
  db.prepare('INSERT INTO session_nodes VALUES (?, ?)').run(KEY, 's1')
  if (view) {
    db.exec(`CREATE VIEW transcript_events AS WITH RECURSIVE n(seq) AS (SELECT 1 UNION ALL SELECT seq + 1 FROM n)
      SELECT 's1' AS session_id, seq, '{}' AS event_json, 0 AS created_at FROM n`)
  } else {
    db.exec(
      'CREATE TABLE transcript_events (session_id TEXT, seq INTEGER, event_json TEXT, event_zstd BLOB, created_at INTEGER)',
    )
    const insert = db.prepare('INSERT INTO transcript_events VALUES (?, ?, ?, ?, ?)')
    events.forEach((event, i) => {
      const json = typeof event === 'string' ? event : JSON.stringify(event)
      if (compressed) insert.run('s1', i + 1, null, require('node:zlib').zstdCompressSync(Buffer.from(json)), 0)
      else insert.run('s1', i + 1, json, null, 0)
    })
  }
  db.close()
  return { state, folder, file }
}

const message = (id, role, text) => ({
  type: 'message',
  id,
  timestamp: '2026-08-01T10:00:00.000Z',
  message: { role, content: text },
})

/** Each file of `folder` and its SHA-256. */
function contents(folder, { except = [] } = {}) {
  return Object.fromEntries(
    fs
      .readdirSync(folder)
      .sort()
      .map((name) => [
        name,
        except.includes(name)
          ? 'present'
          : crypto
              .createHash('sha256')
              .update(fs.readFileSync(path.join(folder, name)))
              .digest('hex'),
      ]),
  )
}

withSqlite(
  `a stopped gateway's store: read, and OpenClaw's folder left byte for byte, no file created${SKIPPED}`,
  () => {
    const { state, folder } = openclawStore([message('u1', 'user', 'hello there'), message('a1', 'assistant', 'hi')])
    const before = contents(folder)
    // A stopped gateway: the WAL checkpointed and closed, no shared-memory file.
    expect(Object.keys(before)).toEqual(['openclaw-agent.sqlite'])
    const target = tempDir()
    const done = run(['import', '--state-dir', target, '--session-key', KEY, '--from-openclaw', state, '--apply'])
    expect([done.status, done.err]).toEqual([0, ''])
    expect(done.out).toMatch(/^imported 2 of 2 entries/)
    expect(contents(folder)).toEqual(before)
  },
)

withSqlite(`a running gateway's store: no file created, the database and its WAL unchanged${SKIPPED}`, async () => {
  const { state, folder, file } = openclawStore([message('u1', 'user', 'hello there')])
  // A gateway: a process holding the database open in WAL mode, with a write not checkpointed.
  const gateway = spawn(
    process.execPath,
    [
      '-e',
      `const db = new (require('node:sqlite').DatabaseSync)(${JSON.stringify(file)});
      db.exec('PRAGMA wal_autocheckpoint=0');
      db.prepare("INSERT INTO transcript_events VALUES ('s1', 2, ?, NULL, 0)").run(${JSON.stringify(JSON.stringify(message('a1', 'assistant', 'in the WAL only')))});
      process.stdout.write('ready\\n');
      setInterval(() => {}, 1000);`,
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  )
  try {
    await new Promise((resolve) => gateway.stdout.once('data', resolve))
    const before = contents(folder, { except: ['openclaw-agent.sqlite-shm'] })
    expect(Object.keys(before)).toEqual([
      'openclaw-agent.sqlite',
      'openclaw-agent.sqlite-shm',
      'openclaw-agent.sqlite-wal',
    ])
    const target = tempDir()
    const done = run(['import', '--state-dir', target, '--session-key', KEY, '--from-openclaw', state, '--apply'])
    expect([done.status, done.err]).toEqual([0, ''])
    // The write the gateway has not checkpointed is read too.
    expect(done.out).toMatch(/^imported 2 of 2 entries/)
    expect(contents(folder, { except: ['openclaw-agent.sqlite-shm'] })).toEqual(before)
  } finally {
    gateway.kill()
  }
})

withSqlite(
  `a transcript_events that is a view (an endless query) is refused at once, nothing imported${SKIPPED}`,
  () => {
    const { state } = openclawStore([], { view: true })
    const target = tempDir()
    const refused = run(['import', '--state-dir', target, '--session-key', KEY, '--from-openclaw', state, '--apply'], {
      timeout: 30000,
    })
    expect(refused.status).toBe(1)
    expect(refused.err).toMatch(/a view named transcript_events, not a table/)
    expect(fs.readdirSync(target)).toEqual([])
  },
)

withZstd(`an event that decompresses past 16 MiB is left out and named; the others imported${SKIPPED}`, () => {
  const bomb = JSON.stringify(message('big', 'user', 'x'.repeat(20 << 20)))
  const { state } = openclawStore([message('u1', 'user', 'small one'), bomb], { compressed: true })
  const target = tempDir()
  const done = run(['import', '--state-dir', target, '--session-key', KEY, '--from-openclaw', state, '--apply'])
  expect(done.status).toBe(0)
  expect(done.out).toMatch(/^imported 1 of 1 entries/)
  expect(done.err).toMatch(/1 event\(s\) left out: larger than 16 MiB once decompressed/)
})
