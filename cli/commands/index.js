'use strict'
// The command table: each subcommand of `openclaw-context` is one file of this folder, loaded
// only when it runs. The table is the one description of every command: its help
// (cli/help.js), its flags as util.parseArgs takes them (optionsOf), and the shell completion
// (cli/completion.js) are all read from it, so they cannot disagree.
//   summary   one line, for the overview
//   synopsis  the usage line, without the program's name
//   about     what it does, a short paragraph
//   flags     [{ name, value?, choices?, multiple?, short?, help }]: `value` names a flag's
//             argument (a flag without one is a switch); `choices` its values, for completion
//   operands  what positional arguments complete to: 'files', 'commands' or a list of words
//   exits     the exit codes, one line
//   run(argv, out, err) returns the exit code (or a Promise of it) and throws a UsageError
//             for bad usage
const { FIRST_WITH_FUNCTION, UPSTREAM_WRAPPER, FIRST_WITHOUT_FUNCTION } = require('../../lib/openclaw-release')

const CHAT_FLAGS = [
  { name: 'log', value: 'FILE', help: 'the chat named by its perpetual JSON Lines log' },
  { name: 'state-dir', value: 'DIR', help: "with --session-key: that key's chat folder under DIR" },
  { name: 'session-key', value: 'KEY', help: 'the session key (with --state-dir)' },
]
const CHAT = '(--log FILE | --state-dir DIR --session-key KEY)'
const JSON_FLAG = { name: 'json', help: 'the result as JSON (an error too: {"error", "code", "path"})' }
const QUIET = { name: 'quiet', short: 'q', help: 'no progress line and no notes: only errors and the result' }
const APPLY = { name: 'apply', help: 'do it (without it, a dry run: says what it would do, changes nothing)' }
const CONFIG = {
  name: 'config',
  value: 'FILE',
  help: "the gateway config whose masking patterns apply (default: OpenClaw's openclaw.json)",
}

const COMMANDS = {
  patch: {
    summary: "make an installed OpenClaw's compaction cap keep the summary's headings",
    synopsis: 'patch [OPENCLAW_DIR] [--check | --revert | --dry-run]',
    about: `Make an installed OpenClaw's capCompactionSummaryPreservingSuffix delegate to
openclaw-context-native (the dist chunk is found by the function's text). Atomic
and idempotent. OPENCLAW_DIR is the openclaw package folder; by default the one
Node resolves from the current folder, else the one in the global npm root.
Releases that need nothing say why and exit 0: before ${FIRST_WITH_FUNCTION} (the function
does not exist yet), ${UPSTREAM_WRAPPER} (it wraps upstream's fix), ${FIRST_WITHOUT_FUNCTION}
on (fixed upstream).`,
    flags: [
      { name: 'check', help: 'exit 0 only when patched and the addon loads from that dist' },
      { name: 'revert', help: 'restore the original chunk byte for byte' },
      { name: 'dry-run', help: 'print the change as a diff; write nothing' },
    ],
    operands: 'files',
    exits: '0 patched (or nothing to do), 1 a check failed or the chunk could not be patched, 2 bad usage',
    run: (argv, out, err) => require('./patch').runPatchCommand(argv, out, err),
  },
  doctor: {
    summary: 'where this gateway stands, read-only, with the command that fixes each problem',
    synopsis: 'doctor [OPENCLAW_DIR] [--state-dir DIR] [--json] [--quiet]',
    about: `Where this gateway stands, read-only: the OpenClaw release and what of this
package it supports, the compaction cap (buggy, patched, fixed upstream), the
plugin (installed, enabled, its settings), each chat folder (modes, log size and
entries, unreadable or torn lines, the last backend session), and for each problem
the command that fixes it (on stderr, as "problem: …" and "  fix: …").`,
    flags: [
      { name: 'state-dir', value: 'DIR', help: "the plugin's chat folders (default: its stateDir setting)" },
      { name: 'json', help: 'the whole report as one JSON object: { ok, facts, problems }' },
      { name: 'quiet', short: 'q', help: 'the problems alone (nothing when there is none)' },
    ],
    operands: 'files',
    exits: '0 nothing needs doing, 1 a problem was found, 2 bad usage',
    run: (argv, out, err) => require('./doctor').runDoctor(argv, out, err),
  },
  search: {
    summary: "search a chat's whole log, best first",
    synopsis: `search ${CHAT} [--limit N] [--json] [--quiet] QUERY...`,
    about: `Search a chat's whole log, best first: words matched by their stems, case and
accents ignored, Chinese, Japanese and Thai by character pairs. One hit a line,
"#LINE [TS] ROLE: EXCERPT" (control characters escaped). No hit: nothing on
stdout, a note on stderr. Changes nothing but the search's own index, a cache
beside the log (and, by --state-dir and --session-key, the chat's empty lock
file); a session key with no chat is an error, and no folder is created.`,
    flags: [
      ...CHAT_FLAGS,
      { name: 'limit', value: 'N', help: 'hits at most, 1 to 100 (default 10)' },
      { name: 'json', help: 'one JSON hit a line: role, text, ts, session, status, id, line, score' },
      { ...QUIET, help: 'the hits alone (no note when there is none)' },
    ],
    exits: '0 searched (with or without hits), 1 the log could not be read, 2 bad usage',
    run: (argv, out, err) => require('./search').runSearch(argv, out, err),
  },
  export: {
    summary: "print a chat's log (its lines, or Markdown), or write it to a new file",
    synopsis: `export ${CHAT} [--format jsonl|md] [--since TS] [--until TS] [--out FILE [--force] [--dry-run]] [--quiet]`,
    about: `Print a chat's log: its lines (jsonl, the default: for moving or archiving)
or Markdown for a person (md: a heading per day, UTC times, roles, failed turns
marked, each message fenced as stored). Whole lines that are entries only, each
masked (the gateway's patterns too); what is left out or masked is said on stderr. Read-only; a log that is a FIFO, a
symlink, a hard link or someone else's is refused. --out writes a new file (0600,
atomically); an existing FILE is refused unless --force.`,
    flags: [
      ...CHAT_FLAGS,
      { name: 'format', value: 'jsonl|md', choices: ['jsonl', 'md'], help: "the log's lines (default) or Markdown" },
      { name: 'since', value: 'TS', help: 'entries at or after TS: ISO-8601 or epoch ms' },
      { name: 'until', value: 'TS', help: 'entries before TS (must be after --since)' },
      { name: 'out', value: 'FILE', help: 'write FILE instead of stdout (plain text: no .gz, .zip)' },
      { name: 'force', help: 'with --out: replace an existing FILE' },
      { name: 'dry-run', help: 'say what would be exported, and where; write nothing' },
      CONFIG,
      QUIET,
    ],
    exits: '0 exported, 1 the log or FILE was refused or could not be read or written, 2 bad usage',
    run: (argv, out, err) => require('./export').runExport(argv, out, err),
  },
  backup: {
    summary: 'copy one chat or every chat folder into a new folder or .tar, with a manifest',
    synopsis: 'backup --state-dir DIR [--session-key KEY] --out PATH [--force] [--dry-run] [--json] [--quiet]',
    about: `Copy one chat (--session-key) or every chat folder of DIR into the new folder
PATH, or a new tar file when PATH ends in .tar (0700 folders, 0600 files), with
manifest.json (sizes, SHA-256, the logs' entry counts). Safe while the gateway
appends: each log is copied up to its last complete line. It writes by default
and only ever creates PATH: an existing PATH is refused unless --force (which
replaces only a .tar file or a backup folder). Compressed forms (.tar.gz, .tgz,
.zip) are not written: pipe the .tar through a compressor.`,
    flags: [
      { name: 'state-dir', value: 'DIR', help: 'the state dir whose chat folders are copied' },
      { name: 'session-key', value: 'KEY', help: "only that key's chat" },
      { name: 'out', value: 'PATH', help: 'a new folder, or a new file ending in .tar' },
      { name: 'force', help: 'replace an existing .tar file or backup folder at PATH' },
      { name: 'dry-run', help: 'read and hash everything, say what it would copy; write nothing' },
      { name: 'apply', help: 'accepted for older scripts; changes nothing (backup writes by default)' },
      JSON_FLAG,
      QUIET,
    ],
    exits: '0 backed up, 1 a chat folder or file was refused (named; the rest is copied) or PATH exists, 2 bad usage',
    run: (argv, out, err) => require('./backup').runBackup(argv, out, err),
  },
  verify: {
    summary: 'check a backup against its manifest, or a state dir against the store rules',
    synopsis: 'verify PATH [--json] [--quiet]',
    about: `Check a backup (a folder or .tar) against its manifest: each file's size,
SHA-256 and entry count, missing chats and files, extra ones, torn lines; or a
state dir's chat folders: torn, unreadable or unsafe files (the store's rules).
Names each problem. Read-only.`,
    flags: [JSON_FLAG, { ...QUIET, help: 'the problems alone (nothing when clean)' }],
    operands: 'files',
    exits: '0 clean, 1 a problem was found, 2 bad usage',
    run: (argv, out, err) => require('./verify').runVerify(argv, out, err),
  },
  restore: {
    summary: 'put a backup back into a state dir (a dry run without --apply)',
    synopsis: 'restore PATH --state-dir DIR [--apply] [--force] [--json] [--quiet]',
    about: `Put a backup (a folder with manifest.json, or a .tar that backup wrote) back
into the state dir DIR. The backup is verified first: with any problem nothing
is restored. A chat folder that is missing is created (0700, files 0600); one
that exists is replaced only when its log has no line the backup lacks, else
refused (exit 1) unless --force (those lines are then lost); one whose log is
the backup's already is left as it is. Each chat under its lock: a gateway's
appends wait.`,
    flags: [
      { name: 'state-dir', value: 'DIR', help: 'the state dir to restore into' },
      APPLY,
      {
        name: 'force',
        help: 'replace a chat whose log has lines the backup lacks (they are lost), and restore what forget removed',
      },
      CONFIG,
      JSON_FLAG,
      QUIET,
    ],
    operands: 'files',
    exits: '0 restored (or would be), 1 the backup does not verify or a chat was refused, 2 bad usage',
    run: (argv, out, err) => require('./restore').runRestore(argv, out, err),
  },
  forget: {
    summary: "remove entries from a chat's log and every file derived from it",
    synopsis: `forget ${CHAT} (--id ID | --before TS | --match TEXT [--ignore-case]) [--apply] [--json] [--quiet]`,
    about: `Remove entries from a chat's log and from every file derived from it (the
continuity summary, the last prompt's copy, the search index: rebuilt at the
next turn; memory-state.json's strings holding the text lose it), so that no
byte of them stays in the chat folder. An entry goes when it matches any rule.
The log is rewritten through a temp file and a rename, under the chat's lock:
a gateway's appends meanwhile wait for it and are kept (and so are those of a
writer that takes no lock). What is removed is listed in forgotten-entries (ids
and keyed hashes, no text): restore and import leave those entries out.`,
    flags: [
      ...CHAT_FLAGS,
      { name: 'id', value: 'ID', multiple: true, help: 'an entry by its id (repeat for more)' },
      { name: 'before', value: 'TS', help: 'entries before TS (ISO-8601 or epoch ms; exclusive)' },
      { name: 'match', value: 'TEXT', help: 'entries holding TEXT, literally (case and all)' },
      { name: 'ignore-case', help: 'with --match: case and accents folded, as search folds them' },
      APPLY,
      CONFIG,
      JSON_FLAG,
      { ...QUIET, help: 'the one line saying what was (or would be) removed' },
    ],
    exits: '0 removed (or would remove), 1 the log could not be read or rewritten, 2 bad usage',
    run: (argv, out, err) => require('./forget').runForget(argv, out, err),
  },
  import: {
    summary: "backfill a chat's log from an export or from OpenClaw's own store",
    synopsis: `import ${CHAT} (--from-export FILE | --from-openclaw [OPENCLAW_STATE_DIR]) [--apply] [--json] [--quiet]`,
    about: `Backfill a chat's log: from an export of this package (--from-export: every
line must be a valid entry, else nothing is imported and the line is named),
or from what OpenClaw stored for the session key
(--from-openclaw: its JSON Lines transcript to 2026.6, its SQLite store from
2026.7, read from a snapshot with node:sqlite, never written). Every entry is
masked (the gateway's patterns too) and cut to the log's line cap. An entry the
log holds already, or that forget removed, is skipped, so a rerun imports
nothing; new ones are merged in time order, under the chat's lock. OPENCLAW_STATE_DIR defaults to
$OPENCLAW_STATE_DIR, else ~/.openclaw, and must exist.`,
    flags: [
      ...CHAT_FLAGS,
      { name: 'from-export', value: 'FILE', help: 'an export of this package (JSON Lines)' },
      { name: 'from-openclaw', help: "OpenClaw's store for the session key (needs --state-dir)" },
      APPLY,
      { name: 'force', help: 'import the entries forget removed from the chat too' },
      CONFIG,
      JSON_FLAG,
      { ...QUIET, help: 'the one line saying what was (or would be) imported' },
    ],
    operands: 'files',
    exits: '0 imported (or would import), 1 the source or the log could not be read or written, 2 bad usage',
    run: (argv, out, err) => require('./import').runImport(argv, out, err),
  },
  summary: {
    summary: "print a chat's continuity summary, for the memory script",
    synopsis: 'summary --state FILE --log FILE [--current-session ID] [--now TS] [--max-chars N]',
    about: `Print rebuildPersistentChatContinuitySummary's output (the contents of
continuity-summary.txt) for the memory script. A file that does not exist yet
counts as empty.`,
    flags: [
      { name: 'state', value: 'FILE', help: 'the memory-state JSON' },
      { name: 'log', value: 'FILE', help: 'the perpetual JSON Lines log' },
      { name: 'current-session', value: 'ID', help: 'the backend session in use (failures from others are dropped)' },
      { name: 'now', value: 'TS', help: 'the time for timer status (default: now)' },
      { name: 'max-chars', value: 'N', help: 'the budget in UTF-16 code units (default 6000)' },
    ],
    exits: '0 printed, 1 a file could not be read, 2 bad usage',
    run: (argv, out, err) => require('./summary').runSummary(argv, out, err),
  },
  completion: {
    summary: 'print a shell completion script (bash or zsh)',
    synopsis: 'completion bash|zsh',
    about: `Print a completion script for bash or zsh: the commands, and each command's
flags (and the values of those that take a fixed few), from the same table as
this help. Load it from your shell's start-up file:
  bash:  eval "$(openclaw-context completion bash)"     (in ~/.bashrc)
  zsh:   eval "$(openclaw-context completion zsh)"      (in ~/.zshrc, after compinit)`,
    flags: [],
    operands: ['bash', 'zsh'],
    exits: '0 printed, 2 bad usage',
    run: (argv, out) => require('../completion').runCompletion(argv, out),
  },
}

/** The util.parseArgs options of a command, from its flags. */
function optionsOf(name) {
  const options = {}
  for (const flag of COMMANDS[name].flags) {
    options[flag.name] = { type: flag.value ? 'string' : 'boolean' }
    if (flag.multiple) options[flag.name].multiple = true
    if (flag.short) options[flag.name].short = flag.short
  }
  return options
}

module.exports = { COMMANDS, optionsOf }
