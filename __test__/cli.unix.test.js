'use strict'
// The command line as a Unix tool, run as a user runs it (child processes, real pipes): a
// reader that closes the pipe early ends the command quietly; a search without hits says so on
// stderr only; usage errors for what cannot work (a missing OpenClaw state dir, an empty time
// window, an archive form that is not written); backup and export --out write by default,
// create only, replace only with --force, and write nothing with --dry-run; --quiet.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const { ChatStore } = require('../index.js')
const { CLI, runCli, tempDirs } = require('./fixtures/cli.js')
const { posixTest } = require('./fixtures/platform.js')

const KEY = 'agent:codex:acp:unix'
const tempDir = tempDirs('occn-cli-unix-')
const lines = (text) => text.replace(/\n$/, '').split('\n')

/** A chat of `count` entries in a new state dir: `{ state, chat, log }`. */
async function chatWith(count, text = (i) => `entry ${i} about the staging database`) {
  const state = path.join(tempDir(), 'state')
  const store = await ChatStore.open({ stateDir: state, sessionKey: KEY })
  const entries = Array.from({ length: count }, (_, i) =>
    JSON.stringify({ ts: new Date(Date.UTC(2026, 4, 15) + i * 1000).toISOString(), role: 'user', text: text(i) }),
  )
  fs.writeFileSync(store.logPath, entries.length ? `${entries.join('\n')}\n` : '')
  return { state, chat: ['--state-dir', state, '--session-key', KEY], log: store.logPath }
}

/**
 * Runs the command with its stdout the write end of a pipe whose reader has already exited
 * (bash waits for the reader before it starts the command): every write fails with EPIPE.
 */
function withClosedReader(args) {
  const script = 'exec 3> >(exit 0); wait $!; exec "$@" >&3 3>&-'
  const result = spawnSync('bash', ['-c', script, 'bash', process.execPath, CLI, ...args], { encoding: 'utf8' })
  return { status: result.status, err: result.stderr }
}

describe('a closed stdout pipe ends the command quietly: exit 0, nothing on stderr', () => {
  posixTest('no bash pipelines with pipefail there')(
    'export … | head -1, of a log larger than any pipe buffer',
    async () => {
      // 4 MB: more than a pipe holds, so the command is still writing when head exits.
      const { chat } = await chatWith(20000, (i) => `entry ${i} ${'x'.repeat(160)}`)
      const errFile = path.join(tempDir(), 'stderr')
      const command = [process.execPath, CLI, 'export', ...chat].map((arg) => `'${arg}'`).join(' ')
      const result = spawnSync('bash', ['-c', `set -o pipefail; ${command} 2>"$1" | head -n 1`, 'bash', errFile], {
        encoding: 'utf8',
      })
      expect(result.stdout).toMatch(/^\{"ts":"2026-05-15T00:00:00.000Z","role":"user","text":"entry 0 x+"\}\n$/)
      expect([result.status, fs.readFileSync(errFile, 'utf8')]).toEqual([0, ''])
    },
  )

  posixTest('no bash process substitution there')('search … to a reader that has gone', async () => {
    const { chat } = await chatWith(50)
    expect(withClosedReader(['search', ...chat, 'staging'])).toEqual({ status: 0, err: '' })
  })

  posixTest('no bash process substitution there')('export … and --help to a reader that has gone', async () => {
    const { chat } = await chatWith(50)
    expect(withClosedReader(['export', ...chat])).toEqual({ status: 0, err: '' })
    expect(withClosedReader(['--help'])).toEqual({ status: 0, err: '' })
  })
})

describe('a search without hits', () => {
  test('stdout stays empty, stderr says so; --quiet and --json say nothing', async () => {
    const { chat, state } = await chatWith(5)
    const result = runCli(['search', ...chat, 'zebra'])
    expect([result.status, result.out]).toEqual([0, ''])
    expect(result.err).toBe(`openclaw-context: no hits for "zebra" in the chat of ${KEY} in ${state}\n`)
    for (const flag of ['--quiet', '-q', '--json']) {
      expect(runCli(['search', ...chat, flag, 'zebra'])).toMatchObject({ status: 0, out: '', err: '' })
    }
  })
})

describe('usage errors (exit 2, one line and the help to read) for what cannot work', () => {
  const usage = (args, options) => {
    const result = runCli(args, options)
    expect(result.status).toBe(2)
    const [what, see, ...rest] = lines(result.err)
    expect([see, rest]).toEqual([`see 'openclaw-context ${args[0]} --help'`, []])
    return what
  }

  test('import --from-openclaw DIR that does not exist, named', async () => {
    const { chat } = await chatWith(1)
    const missing = path.join(tempDir(), 'no-openclaw-here')
    expect(usage(['import', ...chat, '--from-openclaw', missing])).toBe(
      `openclaw-context: OpenClaw state dir ${missing} (given) does not exist`,
    )
  })

  test('import --from-openclaw with no DIR: the default it looked at, named', async () => {
    const { chat } = await chatWith(1)
    const home = tempDir()
    const env = { ...process.env, HOME: home, USERPROFILE: home }
    delete env.OPENCLAW_STATE_DIR
    expect(usage(['import', ...chat, '--from-openclaw'], { env })).toBe(
      `openclaw-context: OpenClaw state dir ${path.join(home, '.openclaw')} (the default) does not exist; name the state dir: --from-openclaw DIR`,
    )
    const named = path.join(home, 'elsewhere')
    expect(usage(['import', ...chat, '--from-openclaw'], { env: { ...env, OPENCLAW_STATE_DIR: named } })).toBe(
      `openclaw-context: OpenClaw state dir ${named} ($OPENCLAW_STATE_DIR) does not exist; name the state dir: --from-openclaw DIR`,
    )
  })

  test.each([
    ['2026-05-15', '2026-05-15'],
    ['2026-05-16', '2026-05-15T23:59:59Z'],
    ['1778900000000', '2026-05-01'],
  ])('export --since %s --until %s: --until not after --since', async (since, until) => {
    const { chat } = await chatWith(3)
    expect(usage(['export', ...chat, '--since', since, '--until', until])).toMatch(
      /^openclaw-context: --until \(.*\) must be after --since \(.*\)/,
    )
  })

  test.each(['x.tar.gz', 'x.tgz', 'x.zip', 'X.TAR.XZ'])(
    'backup --out %s: the forms it writes are named',
    async (name) => {
      const { state } = await chatWith(1)
      const dir = tempDir()
      expect(usage(['backup', '--state-dir', state, '--out', path.join(dir, name)])).toMatch(
        /^openclaw-context: backup writes a folder or a \.tar file, not \.[a-z.]+: use --out .*x\.tar \(then compress it\) or a folder name$/i,
      )
      expect(fs.readdirSync(dir)).toEqual([])
    },
  )

  test('export --out x.jsonl.gz: export writes plain text', async () => {
    const { chat } = await chatWith(1)
    const dir = tempDir()
    expect(usage(['export', ...chat, '--out', path.join(dir, 'x.jsonl.gz')])).toMatch(
      /^openclaw-context: export writes plain text \(jsonl or md\), not \.gz/,
    )
    expect(fs.readdirSync(dir)).toEqual([])
  })
})

describe('backup and export --out create by default; --force replaces; --dry-run writes nothing', () => {
  test('backup writes without --apply; --apply is accepted and changes nothing; --dry-run writes nothing', async () => {
    const { state } = await chatWith(3)
    const dir = tempDir()
    const dry = runCli(['backup', '--state-dir', state, '--out', path.join(dir, 'dry.tar'), '--dry-run'])
    expect(dry.status).toBe(0)
    expect(dry.out).toMatch(/^would back up 1 chat\(s\)/)
    expect(fs.readdirSync(dir)).toEqual([])
    const plain = runCli(['backup', '--state-dir', state, '--out', path.join(dir, 'plain.tar')])
    const applied = runCli(['backup', '--state-dir', state, '--out', path.join(dir, 'applied.tar'), '--apply'])
    for (const result of [plain, applied]) expect(result.out).toMatch(/^backed up 1 chat\(s\), 1 file\(s\)/)
    expect(fs.readdirSync(dir).sort()).toEqual(['applied.tar', 'plain.tar'])
  })

  test('backup --force replaces an earlier .tar and an earlier backup folder, and nothing else', async () => {
    const { state, log } = await chatWith(3)
    const dir = tempDir()
    const tar = path.join(dir, 'b.tar')
    const folder = path.join(dir, 'b')
    for (const out of [tar, folder]) expect(runCli(['backup', '--state-dir', state, '--out', out]).status).toBe(0)
    fs.appendFileSync(log, `${JSON.stringify({ ts: '2026-05-16T00:00:00Z', role: 'user', text: 'newer' })}\n`)
    for (const out of [tar, folder]) {
      expect(runCli(['backup', '--state-dir', state, '--out', out]).status).toBe(1)
      const forced = runCli(['backup', '--state-dir', state, '--out', out, '--force', '--json'])
      expect(forced.status).toBe(0)
      expect(JSON.parse(forced.out)).toMatchObject({ out, written: true })
      expect(runCli(['verify', out]).out).toMatch(/: clean\n$/)
      expect(runCli(['export', '--log', log]).out).toContain('newer')
    }
    expect(fs.readFileSync(tar).includes('newer')).toBe(true)
    expect(fs.readdirSync(dir).sort()).toEqual(['b', 'b.tar'])
    const notBackup = path.join(dir, 'photos')
    fs.mkdirSync(notBackup)
    fs.writeFileSync(path.join(notBackup, 'keep.jpg'), 'keep')
    const refused = runCli(['backup', '--state-dir', state, '--out', notBackup, '--force'])
    expect(refused.status).toBe(1)
    expect(refused.err).toMatch(
      /a folder without manifest\.json \(not a backup\): --force replaces only an earlier backup/,
    )
    expect(fs.readdirSync(notBackup)).toEqual(['keep.jpg'])
  })

  test('export --dry-run says what it would write and writes nothing', async () => {
    const { chat } = await chatWith(3)
    const out = path.join(tempDir(), 'x.jsonl')
    const dry = runCli(['export', ...chat, '--out', out, '--dry-run'])
    expect(dry.status).toBe(0)
    expect(lines(dry.out)[0]).toMatch(
      new RegExp(`^would export 3 lines of .* to ${out.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')} \\(`),
    )
    expect(fs.existsSync(out)).toBe(false)
  })
})

describe('--quiet: errors and the result a script needs, no notes', () => {
  test('backup, export --out and verify print nothing when all went well', async () => {
    const { state, chat } = await chatWith(3)
    const dir = tempDir()
    for (const args of [
      ['backup', '--state-dir', state, '--out', path.join(dir, 'b.tar'), '--quiet'],
      ['export', ...chat, '--out', path.join(dir, 'x.jsonl'), '-q'],
      ['verify', path.join(dir, 'b.tar'), '--quiet'],
    ]) {
      expect([args[0], runCli(args)]).toMatchObject([args[0], { status: 0, out: '', err: '' }])
    }
  })

  test('export to stdout keeps the data and drops the notes (a torn last line left out)', async () => {
    const { chat, log } = await chatWith(2)
    fs.appendFileSync(log, '{"ts":"2026-05-17T00:00:00Z","ro')
    const loud = runCli(['export', ...chat])
    expect(loud.err).toMatch(/left out the torn last line/)
    const quiet = runCli(['export', ...chat, '--quiet'])
    expect(quiet).toMatchObject({ status: 0, out: loud.out, err: '' })
  })

  test('forget and import: the one line that says what was done', async () => {
    const { chat } = await chatWith(3)
    const forget = runCli(['forget', ...chat, '--match', 'entry 1', '--quiet'])
    expect(lines(forget.out)).toEqual([expect.stringMatching(/^would remove 1 of 3 line\(s\)/)])
    const exported = path.join(tempDir(), 'x.jsonl')
    runCli(['export', ...chat, '--out', exported])
    const target = await chatWith(0)
    const imported = runCli(['import', ...target.chat, '--from-export', exported, '-q'])
    expect(lines(imported.out)).toEqual([expect.stringMatching(/^would import 3 of 3 entries/)])
  })
})

describe('a long command on a terminal shows how far it is, in bytes', () => {
  const hasScript = spawnSync('script', ['--version']).status === 0
  const onTerminal = hasScript ? posixTest : test.skip.bind(test)
  onTerminal(
    `a chat's first search builds its index with a progress line of bytes read${hasScript ? '' : ' [skipped without script(1), which gives it a terminal]'}`,
    async () => {
      const { chat } = await chatWith(
        60000,
        (i) => `entry ${i} ${'about the staging database migration plan '.repeat(8)}`,
      )
      // script(1) runs the command on a pseudo-terminal; the line is drawn at once and often.
      const command = [process.execPath, CLI, 'search', ...chat, 'migration']
        .map((arg) => `'${arg.replaceAll("'", "'\\''")}'`)
        .join(' ')
      const result = spawnSync('script', ['-qfec', command, '/dev/null'], {
        encoding: 'utf8',
        env: { ...process.env, OCCN_PROGRESS_FIRST_MS: '0', OCCN_PROGRESS_EVERY_MS: '5' },
      })
      expect(result.status).toBe(0)
      expect(result.stdout).toMatch(/\r\x1b\[2Ksearching \(indexing the log\)… [\d.]+ MB of [\d.]+ MB \(\d+ %\), \d+ s/)
      // Erased before the hits.
      expect(result.stdout).toMatch(/\r\x1b\[2K#\d+ /)
    },
  )
  test('a pipe gets no progress line', async () => {
    const { chat } = await chatWith(2000)
    const result = runCli(['search', ...chat, 'staging'], { env: { ...process.env, OCCN_PROGRESS_FIRST_MS: '0' } })
    expect(result.status).toBe(0)
    expect(result.err).toBe('')
  })
})
