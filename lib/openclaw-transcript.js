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
//   sessions before each reset). Read with node:sqlite from a consistent private copy (see
//   snapshot: nothing is created in OpenClaw's folder), removed after, and on a signal.
// The events' JSON is parsed by the addon (ChatStore.importLog): this file only finds and reads.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { onInterrupt } = require('./interrupt')

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

/** The most one event's JSON may hold once decompressed: twice the log's 8 MiB line cap. */
const MAX_EVENT_BYTES = 16 << 20

/** The private folder of a snapshot: `occn-import-<pid>-XXXXXX` in the temp folder, 0700. */
const SNAPSHOT_PREFIX = 'occn-import-'

/** Removes the snapshot folders of runs that died before removing theirs (a power cut, a kill -9). */
function removeStaleSnapshots() {
  const tmp = os.tmpdir()
  let names = []
  try {
    names = fs.readdirSync(tmp)
  } catch {
    return
  }
  for (const name of names) {
    const pid = Number(/^occn-import-(\d+)-/.exec(name)?.[1])
    if (!pid || pid === process.pid || alive(pid)) continue
    const dir = path.join(tmp, name)
    const stat = fs.lstatSync(dir, { throwIfNoEntry: false })
    // Only a folder of this user's: another's is not ours to remove.
    if (stat?.isDirectory() && (typeof process.getuid !== 'function' || stat.uid === process.getuid()))
      fs.rmSync(dir, { recursive: true, force: true })
  }
}

function alive(pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return error.code === 'EPERM'
  }
}

/**
 * A consistent private copy of the database at `file`; its path and a cleanup (also run if a
 * signal ends the command). Nothing is created in OpenClaw's folder: while a gateway has the
 * database open its shared-memory file (`-shm`) exists and a read-only connection reads the
 * write-ahead log through it, so `VACUUM INTO` takes a snapshot from a read transaction; without
 * one, opening the database there would create `-shm` and `-wal` files (as root, root's, which
 * the gateway may then fail to open), so the database and its WAL are copied first and the copy
 * opened. The snapshot holds the whole unmasked transcript: private (0700), and removed.
 */
function snapshot(DatabaseSync, file) {
  removeStaleSnapshots()
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${SNAPSHOT_PREFIX}${process.pid}-`))
  fs.chmodSync(dir, 0o700)
  const cleanup = () => fs.rmSync(dir, { recursive: true, force: true })
  const forget = onInterrupt(cleanup)
  const copy = path.join(dir, 'snapshot.sqlite')
  let taken = false
  if (fs.existsSync(`${file}-shm`)) {
    try {
      const source = new DatabaseSync(file, { readOnly: true })
      try {
        source.exec(`VACUUM INTO '${copy.replaceAll("'", "''")}'`)
        taken = true
      } finally {
        source.close()
      }
    } catch {
      fs.rmSync(copy, { force: true })
    }
  }
  if (!taken) {
    for (const suffix of ['', '-wal']) {
      if (fs.existsSync(file + suffix)) fs.copyFileSync(file + suffix, copy + suffix)
    }
  }
  return {
    copy,
    cleanup: () => {
      forget()
      cleanup()
    },
  }
}

/** What `name` is in the schema of `db`: 'table', 'view', …; undefined when it is missing. */
function kindOf(db, name) {
  return db.prepare('SELECT type FROM sqlite_master WHERE name = ?').get(name)?.type
}

/**
 * The columns of `table`; none when it is missing. Anything but a table by that name (a view,
 * whose query could be endless) is refused: the store is not OpenClaw's as it writes it.
 */
function tableColumns(db, table) {
  const kind = kindOf(db, table)
  if (kind === undefined) return new Set()
  if (kind !== 'table') throw new Error(`OpenClaw's store holds a ${kind} named ${table}, not a table: not read`)
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
    if (!columns.has('session_id')) return { events: [], sessions: [...ids], undecodable: 0, tooLarge: 0 }
    const zstd = columns.has('event_zstd')
    const select = db.prepare(
      `SELECT seq, event_json, ${zstd ? 'event_zstd' : 'NULL AS event_zstd'}, created_at FROM transcript_events WHERE session_id = ? ORDER BY seq`,
    )
    const events = []
    let undecodable = 0
    let tooLarge = 0
    for (const sessionId of ids) {
      for (const row of select.iterate(sessionId)) {
        let json = row.event_json
        if (json == null && row.event_zstd != null) {
          if (typeof zlib.zstdDecompressSync !== 'function') {
            undecodable += 1
            continue
          }
          try {
            // Bounded: a few kilobytes of zstd can claim gigabytes.
            json = zlib.zstdDecompressSync(row.event_zstd, { maxOutputLength: MAX_EVENT_BYTES }).toString('utf8')
          } catch {
            tooLarge += 1
            continue
          }
        }
        if (typeof json !== 'string') continue
        if (json.length > MAX_EVENT_BYTES) {
          tooLarge += 1
          continue
        }
        events.push({ sessionId, json, storedAt: Number(row.created_at), seq: Number(row.seq) })
      }
    }
    return { events, sessions: [...ids], undecodable, tooLarge }
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
    const { events, sessions, undecodable, tooLarge } = sqliteEvents(DatabaseSync, database, sessionKey, sessionIds)
    return { files: [], events, sessions, store: 'sqlite', undecodable, tooLarge }
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
  return {
    files,
    events: [],
    sessions: sessionIds,
    store: files.length ? 'jsonl' : 'none',
    undecodable: 0,
    tooLarge: 0,
  }
}

module.exports = { openclawTranscript, agentOf }
