'use strict'
// The command table: each subcommand of `openclaw-context` is one file of this folder,
// loaded only when it runs. `synopsis` is its usage line, `help` its paragraph in --help,
// `run(argv, out, err)` returns the exit code (or a Promise of it) and throws a UsageError
// for bad usage.
const { FIRST_WITH_FUNCTION, UPSTREAM_WRAPPER, FIRST_WITHOUT_FUNCTION } = require('../../lib/openclaw-release')

const COMMANDS = {
  patch: {
    synopsis: 'patch [OPENCLAW_DIR] [--check | --revert | --dry-run]',
    help: `Make an installed OpenClaw's capCompactionSummaryPreservingSuffix delegate to
openclaw-context-native (the dist chunk is found by the function's text). Atomic
and idempotent. OPENCLAW_DIR is the openclaw package folder; by default the one
Node resolves from the current folder, else the one in the global npm root.
  --check    exit 0 only when patched and the addon loads from that dist
  --revert   restore the original chunk byte for byte
  --dry-run  print the change as a diff; write nothing
Releases that need nothing say why and exit 0: before ${FIRST_WITH_FUNCTION} (the function
does not exist yet), ${UPSTREAM_WRAPPER} (it wraps upstream's fix), ${FIRST_WITHOUT_FUNCTION}
on (fixed upstream).`,
    run: (argv, out, err) => require('./patch').runPatchCommand(argv, out, err),
  },
  summary: {
    synopsis: 'summary --state FILE --log FILE [--current-session ID] [--now TS] [--max-chars N]',
    help: `Print rebuildPersistentChatContinuitySummary's output (the contents of
continuity-summary.txt) for the memory script. A file that does not exist yet
counts as empty.
  --state FILE           the memory-state JSON
  --log FILE             the perpetual JSON Lines log
  --current-session ID   the backend session in use (failures from others are dropped)
  --now TS               the time for timer status (default: now)
  --max-chars N          the budget in UTF-16 code units (default 6000)`,
    run: (argv, out, err) => require('./summary').runSummary(argv, out, err),
  },
  doctor: {
    synopsis: 'doctor [OPENCLAW_DIR] [--state-dir DIR]',
    help: `Where this gateway stands, read-only: the OpenClaw release and what of this
package it supports, the compaction cap (buggy, patched, fixed upstream), the
plugin (installed, enabled, its settings), each chat folder (modes, log size and
entries, unreadable or torn lines, the last backend session), and for each problem
the command that fixes it. Exit 0 when nothing needs doing, 1 otherwise.
  --state-dir DIR        the plugin's chat folders (default: its stateDir setting)`,
    run: (argv, out, err) => require('./doctor').runDoctor(argv, out, err),
  },
  search: {
    synopsis: 'search (--log FILE | --state-dir DIR --session-key KEY) [--limit N] [--json] QUERY...',
    help: `Search a chat's whole log, best first: words matched by their stems, case and
accents ignored, Chinese, Japanese and Thai by character pairs. One hit a line,
"#LINE [TS] ROLE: EXCERPT" (control characters escaped), or with --json one JSON
hit a line. Changes nothing but the search's own index, a cache beside the log
(and, by --state-dir and --session-key, the chat's empty lock file).
  --log FILE             the perpetual JSON Lines log
  --state-dir DIR        with --session-key: that chat's folder under DIR
  --session-key KEY
  --limit N              hits at most, 1 to 100 (default 10)
  --json                 one JSON object a line: role, text, ts, session, status,
                         id, line, score`,
    run: (argv, out) => require('./search').runSearch(argv, out),
  },
  export: {
    synopsis:
      'export (--log FILE | --state-dir DIR --session-key KEY) [--format jsonl|md] [--since TS] [--until TS] [--out FILE]',
    help: `Print a chat's log: its exact lines (jsonl, the default: for moving or
archiving) or Markdown for a person (md: a heading per day, UTC times, roles,
failed turns marked, each message fenced as stored). Whole lines only: a torn
last line is left out and said on stderr. Read-only; a log that is a FIFO, a
symlink, a hard link or someone else's is refused.
  --since TS, --until TS  entries at or after / before TS: ISO-8601 or epoch ms
  --out FILE              write FILE (0600, atomically) instead of stdout`,
    run: (argv, out, err) => require('./export').runExport(argv, out, err),
  },
  backup: {
    synopsis: 'backup --state-dir DIR [--session-key KEY] --out PATH [--apply] [--json]',
    help: `Copy one chat (--session-key) or every chat folder of DIR into the folder
PATH, or a tar file when PATH ends in .tar (0700 folders, 0600 files), with
manifest.json (sizes, SHA-256, the logs' entry counts). Safe while the gateway
appends: each log is copied up to its last complete line. PATH must not exist.
Without --apply a dry run: says what it would copy, writes nothing. Exit 1 when
a chat folder or file was refused (named on stderr; the rest is copied).
  --json                  the result as JSON`,
    run: (argv, out, err) => require('./backup').runBackup(argv, out, err),
  },
  verify: {
    synopsis: 'verify PATH [--json]',
    help: `Check a backup (a folder or .tar) against its manifest: each file's size,
SHA-256 and entry count, missing chats and files, extra ones, torn lines; or a
state dir's chat folders: torn, unreadable or unsafe files (the store's rules).
Names each problem. Read-only. Exit 0 when clean, 1 otherwise.
  --json                  the result as JSON`,
    run: (argv, out, err) => require('./verify').runVerify(argv, out, err),
  },
  import: {
    synopsis:
      'import (--log FILE | --state-dir DIR --session-key KEY) (--from-export FILE | --from-openclaw [OPENCLAW_STATE_DIR]) [--apply] [--json]',
    help: `Backfill a chat's log: from an export of this package (--from-export: every
line must be a valid entry, else nothing is imported and the line is named;
imported byte for byte), or from what OpenClaw stored for the session key
(--from-openclaw: its JSON Lines transcript to 2026.6, its SQLite store from
2026.7, read from a snapshot with node:sqlite, never written; user and
assistant messages, masked, an injected prompt reduced to its live message).
An entry the log holds already (same id, or time, role and text) is skipped,
so a rerun imports nothing; new ones are merged in time order, under the
chat's lock. Without --apply a dry run.
  OPENCLAW_STATE_DIR      default: $OPENCLAW_STATE_DIR, else ~/.openclaw
  --json                  the result as JSON`,
    run: (argv, out, err) => require('./import').runImport(argv, out, err),
  },
  restore: {
    synopsis: 'restore PATH --state-dir DIR [--apply] [--force] [--json]',
    help: `Put a backup (a folder with manifest.json, or a .tar that backup wrote) back
into the state dir DIR. The backup is verified first: with any problem nothing
is restored. A chat folder that is missing is created (0700, files 0600); one
that exists is replaced only when its log has no line the backup lacks, else
refused (exit 1) unless --force (those lines are then lost); one whose log is
the backup's already is left as it is. Each chat under its lock: a gateway's
appends wait. Without --apply a dry run: says what it would do, writes nothing.
  --json                  the result as JSON`,
    run: (argv, out, err) => require('./restore').runRestore(argv, out, err),
  },
  forget: {
    synopsis:
      'forget (--log FILE | --state-dir DIR --session-key KEY) (--id ID | --before TS | --match TEXT) [--apply] [--json]',
    help: `Remove entries from a chat's log and from every file derived from it (the
continuity summary, the last prompt's copy, the search index: rebuilt at the
next turn; memory-state.json's strings holding the text lose it), so that no
byte of them stays in the chat folder. An entry goes when it matches any of:
  --id ID                 its id (repeat for more)
  --before TS             its time is before TS (ISO-8601 or epoch ms; exclusive)
  --match TEXT            it holds TEXT, literally (case and all)
The log is rewritten through a temp file and a rename, under the chat's lock:
a gateway's appends meanwhile wait for it and are kept. Without --apply a dry
run: lists what would be removed, changes nothing.
  --json                  the result as JSON`,
    run: (argv, out, err) => require('./forget').runForget(argv, out, err),
  },
}

module.exports = { COMMANDS }
