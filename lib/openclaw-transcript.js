'use strict'
// What OpenClaw stored for one session key, for `openclaw-context import --from-openclaw`: its
// transcript's events, found where each release keeps them, never written to.
//
// - To 2026.6: `agents/<agent>/sessions/sessions.json` names the key's session (`sessionId`,
//   `sessionFile`); its transcript is that JSON Lines file (read by the addon, which checks it
//   as it opens it).
// - From 2026.7: `agents/<agent>/agent/openclaw-agent.sqlite`, table `transcript_events`
//   (`session_id`, `seq`, `event_json` or, from 2026.9, `event_zstd`); the key's sessions are
//   the session row's and, where the table exists, every `session_windows` row of the key (its
//   sessions before each reset). Read with node:sqlite from a consistent copy: `VACUUM INTO` a
//   private temp file (a snapshot, taken read-only), else a copy of the files; the copy is
//   removed after.
// The events' JSON is parsed by the addon (ChatStore.importLog): this file only finds and reads.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

/** The agent a session key belongs to: `agent:<id>:…`, else the default agent. */
function agentOf(sessionKey) {
  return /^agent:([^:]+):/.exec(sessionKey)?.[1]?.toLowerCase() ?? 'main'
}

/** The JSON session store's row for `sessionKey`, or undefined. */
function jsonSessionRow(sessionsDir, sessionKey) {
  const file = path.join(sessionsDir, 'sessions.json')
  let stat
  try {
    stat = fs.lstatSync(file)
  } catch {
    return undefined
  }
  if (!stat.isFile() || stat.size > 64 * 1024 * 1024) return undefined
  const store = JSON.parse(fs.readFileSync(file, 'utf8'))
  const row = store?.[sessionKey]
  return row && typeof row === 'object' ? row : undefined
}

/** node:sqlite's DatabaseSync, or an Error saying why it is missing. */
function loadSqlite() {
  // Node 22 and 23 warn that node:sqlite is experimental: not a line for an operator.
  const emitWarning = process.emitWarning
  process.emitWarning = (warning, ...rest) =>
    /SQLite/.test(String(warning?.message ?? warning)) ? undefined : emitWarning.call(process, warning, ...rest)
  try {
    return require('node:sqlite').DatabaseSync
  } catch {
    return new Error(
      `reading OpenClaw's SQLite store needs node:sqlite, which Node ${process.version} lacks: run this command with Node 22.13 or later (for example: npx -y -p node@22 -- node "$(command -v openclaw-context)" import …)`,
    )
  } finally {
    process.emitWarning = emitWarning
  }
}

/** A consistent private copy of the database at `file`; its path and a cleanup. */
function snapshot(DatabaseSync, file) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-import-'))
  fs.chmodSync(dir, 0o700)
  const copy = path.join(dir, 'snapshot.sqlite')
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true })
  try {
    const source = new DatabaseSync(file, { readOnly: true })
    try {
      source.exec(`VACUUM INTO '${copy.replaceAll("'", "''")}'`)
    } finally {
      source.close()
    }
  } catch {
    // No shared-memory file to read the WAL through (a gateway that is not running): the files.
    fs.rmSync(copy, { force: true })
    for (const suffix of ['', '-wal']) {
      if (fs.existsSync(file + suffix)) fs.copyFileSync(file + suffix, copy + suffix)
    }
  }
  return { copy, cleanup }
}

function tableColumns(db, table) {
  return new Set(
    db
      .prepare(`SELECT name FROM pragma_table_info(?)`)
      .all(table)
      .map((row) => row.name),
  )
}

/** The transcript events of `sessionIds` (and of every session_windows row of the key). */
function sqliteEvents(DatabaseSync, file, sessionKey, sessionIds) {
  const { copy, cleanup } = snapshot(DatabaseSync, file)
  const zlib = require('node:zlib')
  let db
  try {
    db = new DatabaseSync(copy)
    const ids = new Set(sessionIds)
    const windows = tableColumns(db, 'session_windows')
    if (windows.has('session_key') && windows.has('session_id')) {
      for (const row of db.prepare('SELECT session_id FROM session_windows WHERE session_key = ?').all(sessionKey))
        ids.add(row.session_id)
    }
    const nodes = tableColumns(db, 'session_nodes')
    if (nodes.has('session_key') && nodes.has('current_session_id')) {
      for (const row of db
        .prepare('SELECT current_session_id FROM session_nodes WHERE session_key = ?')
        .all(sessionKey))
        ids.add(row.current_session_id)
    }
    const columns = tableColumns(db, 'transcript_events')
    if (!columns.has('session_id')) return { events: [], sessions: [...ids], undecodable: 0 }
    const zstd = columns.has('event_zstd')
    const select = db.prepare(
      `SELECT seq, event_json, ${zstd ? 'event_zstd' : 'NULL AS event_zstd'}, created_at FROM transcript_events WHERE session_id = ? ORDER BY seq`,
    )
    const events = []
    let undecodable = 0
    for (const sessionId of ids) {
      for (const row of select.all(sessionId)) {
        let json = row.event_json
        if (json == null && row.event_zstd != null) {
          if (typeof zlib.zstdDecompressSync !== 'function') {
            undecodable += 1
            continue
          }
          json = zlib.zstdDecompressSync(row.event_zstd).toString('utf8')
        }
        if (typeof json !== 'string') continue
        events.push({ sessionId, json, storedAt: Number(row.created_at), seq: Number(row.seq) })
      }
    }
    return { events, sessions: [...ids], undecodable }
  } finally {
    db?.close()
    cleanup()
  }
}

/**
 * What OpenClaw stored for `sessionKey` under its state dir: `{ files, events, sessions, store,
 * undecodable }` for ChatStore.importLog's `fromOpenclaw` (store: 'jsonl', 'sqlite', or 'none').
 * Throws when the SQLite store exists but cannot be read (node:sqlite missing, a corrupt file).
 */
function openclawTranscript(stateDir, sessionKey) {
  const agentDir = path.join(stateDir, 'agents', agentOf(sessionKey))
  const sessionsDir = path.join(agentDir, 'sessions')
  const row = jsonSessionRow(sessionsDir, sessionKey)
  const sessionIds = typeof row?.sessionId === 'string' ? [row.sessionId] : []
  const database = path.join(agentDir, 'agent', 'openclaw-agent.sqlite')
  if (fs.existsSync(database)) {
    const DatabaseSync = loadSqlite()
    if (DatabaseSync instanceof Error) throw DatabaseSync
    const { events, sessions, undecodable } = sqliteEvents(DatabaseSync, database, sessionKey, sessionIds)
    return { files: [], events, sessions, store: 'sqlite', undecodable }
  }
  const files = []
  if (row && typeof row.sessionId === 'string') {
    // Only a file of the store's own folder: a row is data, not a path to trust.
    const named = typeof row.sessionFile === 'string' ? row.sessionFile : ''
    const file =
      path.isAbsolute(named) && path.dirname(named) === sessionsDir && named.endsWith('.jsonl')
        ? named
        : path.join(sessionsDir, `${path.basename(row.sessionId)}.jsonl`)
    if (fs.existsSync(file)) files.push({ sessionId: row.sessionId, path: file })
  }
  return { files, events: [], sessions: sessionIds, store: files.length ? 'jsonl' : 'none', undecodable: 0 }
}

module.exports = { openclawTranscript, agentOf }
