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
hit a line. Changes nothing but the search's own index, a cache beside the log.
  --log FILE             the perpetual JSON Lines log
  --state-dir DIR        with --session-key: that chat's folder under DIR
  --session-key KEY
  --limit N              hits at most, 1 to 100 (default 10)
  --json                 one JSON object a line: role, text, ts, session, status,
                         id, line, score`,
    run: (argv, out) => require('./search').runSearch(argv, out),
  },
}

module.exports = { COMMANDS }
