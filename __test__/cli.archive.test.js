'use strict'
// openclaw-context export, backup and verify, run as a user runs them (a child process of the
// command line against the built addon): exact lines and Markdown, time filters and their usage
// errors, the store's refusals (FIFO, symlink, hard link) without hanging, private atomic
// outputs, a backup taken while another process appends, and verify naming each problem.
const { spawn, spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const { ChatStore } = require('../index.js')
const { CLI, ROOT, tempDirs, runCli } = require('./fixtures/cli.js')
const {
  onWasi,
  onWindows,
  posixTest: posixTestFor,
  unreadableTest,
  withoutReadOverride,
} = require('./fixtures/platform.js')

const KEY = 'agent:codex:acp:archive'
const posixTest = posixTestFor('no FIFOs, symlinks or POSIX modes there')
// Modes are checked where files have them (not on Windows, not through WASI).
const withModes = !onWindows && !onWasi

const tempDir = tempDirs('occn-cli-archive-')

/** The command line, as a user runs it (fixtures/cli.js), with this file's 30 s bound. */
const run = (args, options = {}) => runCli(args, { timeout: 30000, ...options })

const LINES = [
  '{"ts":"2026-05-14T23:59:59.000Z","role":"user","text":"hello"}\n',
  'not an entry\n',
  '{"ts":"2026-05-15T10:00:00.000Z","role":"assistant","text":"```\\n# not a heading\\n- nor a list","status":"ACP_TURN_FAILED"}\n',
  '{"ts":1778900000000,"role":"user","text":"late"}\n',
]
const TORN = '{"ts":"2026-05-17T00:00:00.000Z","role":"us'
/** What an export writes of LINES: the lines that are entries. */
const ENTRY_LINES = LINES.filter((line) => line !== 'not an entry\n')

/** A state dir with one chat whose log is `text`; the chat's folder. */
async function chat(state, text = LINES.join('') + TORN, key = KEY) {
  const store = await ChatStore.open({ stateDir: state, sessionKey: key })
  fs.writeFileSync(store.logPath, text)
  await store.replaceSummary('the summary')
  return store.folder
}

test('--help lists export, backup and verify, each with a help of its own', () => {
  const { status, out } = run(['--help'])
  expect(status).toBe(0)
  for (const command of ['export', 'backup', 'verify']) {
    expect(out).toMatch(new RegExp(`^  ${command} +\\S`, 'm'))
    expect(run([command, '--help']).out).toMatch(new RegExp(`^Usage: openclaw-context ${command} `))
  }
})

describe('export', () => {
  test('jsonl: the exact whole lines, a torn last line left out and said on stderr', async () => {
    const state = tempDir()
    const folder = await chat(state)
    const byKey = run(['export', '--state-dir', state, '--session-key', KEY])
    expect(byKey.status).toBe(0)
    expect(byKey.stdout.equals(Buffer.from(ENTRY_LINES.join('')))).toBe(true)
    expect(byKey.err).toMatch(/left out the torn last line of .*perpetual-log\.jsonl \(43 bytes without a line break\)/)
    expect(byKey.err).toMatch(/left out 1 line\(s\) of .*perpetual-log\.jsonl: not a valid entry/)
    const byLog = run(['export', '--log', path.join(folder, 'perpetual-log.jsonl')])
    expect(byLog.stdout.equals(byKey.stdout)).toBe(true)
  })

  test('--since is inclusive, --until exclusive, ISO-8601 or epoch milliseconds', async () => {
    const state = tempDir()
    await chat(state)
    const chatArgs = ['export', '--state-dir', state, '--session-key', KEY]
    const window = run([...chatArgs, '--since', '2026-05-15T10:00:00Z', '--until', '1778900000000'])
    expect(window.status).toBe(0)
    expect(window.out).toBe(LINES[2])
    expect(window.err).toContain('left out 1 line(s)')
    expect(run([...chatArgs, '--since', '1778900000000']).out).toBe(LINES[3])
    expect(run([...chatArgs, '--until', '2026-05-15']).out).toBe(LINES[0])
  })

  test.each([
    [['--since', 'yesterday'], /--since must be an ISO-8601 date or date-time, or epoch milliseconds, got "yesterday"/],
    [['--until', '2026-13-01'], /--until must be/],
    [['--format', 'xml'], /--format must be jsonl or md/],
  ])('%j is a usage error (exit 2)', async (extra, message) => {
    const state = tempDir()
    await chat(state)
    const { status, err } = run(['export', '--state-dir', state, '--session-key', KEY, ...extra])
    expect(status).toBe(2)
    expect(err).toMatch(message)
    expect(err.split('\n').slice(1)).toEqual(["see 'openclaw-context export --help'", ''])
  })

  test('a chat named twice or not at all is a usage error', () => {
    expect(run(['export']).status).toBe(2)
    expect(run(['export', '--log', 'a', '--state-dir', 'b', '--session-key', 'k']).status).toBe(2)
    expect(run(['export', '--state-dir', 'b']).err).toContain('export needs --session-key KEY with --state-dir')
  })

  test('md: a heading per day, times, roles, the failed turn marked, the text fenced', async () => {
    const state = tempDir()
    await chat(state)
    const { status, out } = run(['export', '--state-dir', state, '--session-key', KEY, '--format', 'md'])
    expect(status).toBe(0)
    expect(out).toContain('## 2026-05-14\n\n**23:59:59** user\n\n```text\nhello\n```\n')
    expect(out).toContain(
      '## 2026-05-15\n\n**10:00:00** assistant — **failed** (status ` ACP_TURN_FAILED `)\n\n````text\n```\n# not a heading\n- nor a list\n````\n',
    )
    expect(out).toContain('## 2026-05-16\n')
    // Outside the fences, no line of the messages' text is Markdown structure.
    const outside = out.replace(/^(`{3,})text\n[\s\S]*?\n\1\n/gm, '')
    expect(outside).not.toContain('# not a heading')
    expect(outside).not.toContain('- nor a list')
  })

  posixTest(
    '--out FILE: written 0600 atomically; an existing one only with --force; a symlink or FIFO refused',
    async () => {
      const dir = tempDir()
      const state = path.join(dir, 'state')
      await chat(state)
      const out = path.join(dir, 'export.jsonl')
      fs.writeFileSync(out, 'old', { mode: 0o644 })
      const kept = run(['export', '--state-dir', state, '--session-key', KEY, '--out', out])
      expect([kept.status, kept.err]).toEqual([
        1,
        `openclaw-context: ${out} exists; export writes a new file (--force replaces it, atomically) (EEXIST)\n`,
      ])
      expect(fs.readFileSync(out, 'utf8')).toBe('old')
      const done = run(['export', '--state-dir', state, '--session-key', KEY, '--out', out, '--force'])
      expect(done.status).toBe(0)
      expect(done.out).toMatch(/^exported 3 lines of .* to .*export\.jsonl \(\d+ bytes\)\n$/)
      expect(fs.readFileSync(out, 'utf8')).toBe(ENTRY_LINES.join(''))
      expect(fs.statSync(out).mode & 0o777).toBe(0o600)

      const target = path.join(dir, 'target')
      fs.writeFileSync(target, 'keep')
      const link = path.join(dir, 'link.jsonl')
      fs.symlinkSync(target, link)
      const refused = run(['export', '--state-dir', state, '--session-key', KEY, '--out', link, '--force'])
      expect(refused.status).toBe(1)
      expect(refused.err).toBe(`openclaw-context: not a regular file (symlink): ${link} (ENOTREGULAR)\n`)
      expect(fs.readFileSync(target, 'utf8')).toBe('keep')
      const fifo = path.join(dir, 'fifo.jsonl')
      spawnSync('mkfifo', [fifo])
      const fifoRefused = run(['export', '--state-dir', state, '--session-key', KEY, '--out', fifo, '--force'], {
        timeout: 10000,
      })
      expect(fifoRefused.status).toBe(1)
      expect(fifoRefused.err).toContain('(FIFO)')
      expect(fs.readdirSync(dir).sort()).toEqual(['export.jsonl', 'fifo.jsonl', 'link.jsonl', 'state', 'target'])
      // Never over the log, nor anywhere in the chat's folder.
      const folder = (await ChatStore.open({ stateDir: state, sessionKey: KEY })).folder
      const log = path.join(folder, 'perpetual-log.jsonl')
      const over = run(['export', '--log', log, '--format', 'md', '--out', log, '--force'])
      expect(over.status).toBe(1)
      expect(over.err).toContain("in the chat's folder")
      expect(fs.readFileSync(log, 'utf8')).toBe(LINES.join('') + TORN)
    },
  )

  posixTest(
    'a log that is a FIFO, a symlink or a hard link is refused on one line naming it, without hanging',
    async () => {
      const state = tempDir()
      const folder = await chat(state, LINES[0])
      const log = path.join(folder, 'perpetual-log.jsonl')
      const fifo = path.join(folder, 'fifo.jsonl')
      spawnSync('mkfifo', [fifo])
      const link = path.join(folder, 'link.jsonl')
      fs.symlinkSync(log, link)
      const hard = path.join(folder, 'hard.jsonl')
      fs.linkSync(log, hard)
      for (const [file, kind] of [
        [fifo, 'FIFO'],
        [link, 'symlink'],
        [hard, 'hard-linked file'],
      ]) {
        const { status, err } = run(['export', '--log', file], { timeout: 10000 })
        expect([file, status]).toEqual([file, 1])
        expect(err).toBe(`openclaw-context: not a regular file (${kind}): ${file} (ENOTREGULAR)\n`)
      }
    },
  )
})

describe('backup and verify', () => {
  test('--dry-run says what it would copy and writes nothing; by default it writes; verify is clean', async () => {
    const dir = tempDir()
    const state = path.join(dir, 'state')
    const folder = await chat(state)
    await chat(state, LINES[0], 'agent:other')
    const out = path.join(dir, 'backup')
    const dry = run(['backup', '--state-dir', state, '--out', out, '--dry-run'])
    expect(dry.status).toBe(0)
    expect(dry.out).toMatch(/^would back up 2 chat\(s\), 4 file\(s\), /)
    expect(dry.out).toContain(`${path.basename(folder)}: perpetual-log.jsonl`)
    expect(dry.out).toContain('3 entries, a torn last line of 43 bytes left out')
    expect(dry.out).toContain('dry run: nothing was written')
    expect(fs.existsSync(out)).toBe(false)

    const done = run(['backup', '--state-dir', state, '--out', out, '--json'])
    expect(done.status).toBe(0)
    const result = JSON.parse(done.out)
    expect(result).toMatchObject({ written: true, form: 'folder', refused: [] })
    const manifest = JSON.parse(fs.readFileSync(path.join(out, 'manifest.json'), 'utf8'))
    expect(manifest.chats.map((c) => c.folder).sort()).toEqual(result.chats.map((c) => c.folder).sort())
    const copy = path.join(out, path.basename(folder), 'perpetual-log.jsonl')
    expect(fs.readFileSync(copy, 'utf8')).toBe(LINES.join(''))
    if (withModes) {
      expect(fs.statSync(out).mode & 0o777).toBe(0o700)
      expect(fs.statSync(copy).mode & 0o777).toBe(0o600)
    }
    const verified = run(['verify', out])
    expect([verified.status, verified.out]).toEqual([0, `${out}: a backup folder, 2 chat(s), 4 file(s): clean\n`])
    // A second run never replaces the first (--apply, the old way to write, changes nothing).
    const again = run(['backup', '--state-dir', state, '--out', out, '--apply'])
    expect(again.status).toBe(1)
    expect(again.err).toBe(
      `openclaw-context: ${out} exists; backup only creates a new folder or .tar (--force replaces an earlier backup) (EEXIST)\n`,
    )
  })

  test('verify names a flipped byte, a truncated file and a missing chat (exit 1)', async () => {
    const dir = tempDir()
    const state = path.join(dir, 'state')
    const a = path.basename(await chat(state, LINES[0] + LINES[3], 'agent:a'))
    const b = path.basename(await chat(state, LINES[0], 'agent:b'))
    const out = path.join(dir, 'backup')
    expect(run(['backup', '--state-dir', state, '--out', out]).status).toBe(0)
    const summary = path.join(out, a, 'continuity-summary.txt')
    fs.writeFileSync(summary, 'the summarY')
    const log = path.join(out, a, 'perpetual-log.jsonl')
    fs.truncateSync(log, fs.statSync(log).size - 3)
    fs.rmSync(path.join(out, b), { recursive: true })
    const { status, out: text } = run(['verify', out])
    expect(status).toBe(1)
    expect(text).toContain(`  checksum: ${summary}: SHA-256 `)
    expect(text).toContain(`  size: ${log}: truncated: `)
    expect(text).toContain(`  missing-chat: ${path.join(out, b)}: `)
    const json = JSON.parse(run(['verify', out, '--json']).out)
    expect(json.problems.map((p) => p.kind).sort()).toEqual(['checksum', 'entries', 'missing-chat', 'size', 'torn'])
  })

  test('a .tar backup, and a flipped byte in it named by its entry', async () => {
    const dir = tempDir()
    const state = path.join(dir, 'state')
    const folder = path.basename(await chat(state, LINES[0]))
    const tar = path.join(dir, 'backup.tar')
    expect(run(['backup', '--state-dir', state, '--session-key', KEY, '--out', tar]).status).toBe(0)
    if (withModes) expect(fs.statSync(tar).mode & 0o777).toBe(0o600)
    expect(run(['verify', tar]).out).toBe(`${tar}: a backup tar file, 1 chat(s), 2 file(s): clean\n`)
    const bytes = fs.readFileSync(tar)
    const at = bytes.indexOf('hello')
    bytes[at] ^= 1
    fs.writeFileSync(tar, bytes)
    const { status, out } = run(['verify', tar])
    expect(status).toBe(1)
    expect(out).toContain(`  checksum: ${tar}:${folder}/perpetual-log.jsonl: SHA-256 `)
  })

  test('a backup taken while another process appends 1,000 entries verifies clean', async () => {
    const dir = tempDir()
    const state = path.join(dir, 'state')
    await chat(state, '')
    const appender = spawn(
      process.execPath,
      [
        '-e',
        `const { ChatStore } = require(${JSON.stringify(ROOT)})
        ChatStore.open({ stateDir: ${JSON.stringify(state)}, sessionKey: ${JSON.stringify(KEY)} }).then(async (store) => {
          for (let i = 0; i < 1000; i++) {
            await store.appendEntry({ role: 'user', text: 'entry ' + i, ts: Date.now() }, { sync: i % 10 === 0 })
            if (i === 99) process.stdout.write('100\\n')
          }
        })`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    )
    const finished = new Promise((resolve) => appender.on('close', resolve))
    await new Promise((resolve) => appender.stdout.once('data', resolve))
    const tar = path.join(dir, 'during.tar')
    const done = run(['backup', '--state-dir', state, '--out', tar, '--json'])
    expect(await finished).toBe(0)
    expect(done.status).toBe(0)
    const [log] = JSON.parse(done.out).chats[0].files
    expect(log.entries).toBeGreaterThanOrEqual(100)
    expect(log.lines).toBe(log.entries)
    expect(run(['verify', tar]).status).toBe(0)
  })

  posixTest(
    'verify of a state dir names torn, invalid and refused files; backup leaves refused chats out',
    async () => {
      const dir = tempDir()
      const state = path.join(dir, 'state')
      const torn = await chat(state)
      const fifoChat = await chat(state, '', 'agent:fifo')
      fs.rmSync(path.join(fifoChat, 'perpetual-log.jsonl'))
      spawnSync('mkfifo', [path.join(fifoChat, 'perpetual-log.jsonl')])
      const { status, out } = run(['verify', state], { timeout: 10000 })
      expect(status).toBe(1)
      expect(out).toContain(`  torn: ${path.join(torn, 'perpetual-log.jsonl')}: the last line is torn (43 bytes`)
      expect(out).toContain(`  invalid-lines: ${path.join(torn, 'perpetual-log.jsonl')}: 1 of 4 lines`)
      expect(out).toContain(`  type: ${path.join(fifoChat, 'perpetual-log.jsonl')}: not a regular file (FIFO)`)
      const backup = run(['backup', '--state-dir', state, '--out', path.join(dir, 'b')], { timeout: 10000 })
      expect(backup.status).toBe(1)
      expect(backup.out).toMatch(/^backed up 1 chat\(s\)/)
      expect(backup.err).toContain(`refused ${path.join(fifoChat, 'perpetual-log.jsonl')}: not a regular file (FIFO)`)
      expect(run(['verify', path.join(dir, 'b')]).status).toBe(0)
    },
  )
})

describe('verify says only what it checked', () => {
  test('the folder that holds the backups, an empty folder: an error, never clean', async () => {
    const dir = tempDir()
    const state = path.join(dir, 'state')
    await chat(state)
    const backups = path.join(dir, 'backups')
    fs.mkdirSync(backups)
    expect(run(['backup', '--state-dir', state, '--out', path.join(backups, 'monday')]).status).toBe(0)
    expect(run(['backup', '--state-dir', state, '--out', path.join(backups, 'tuesday.tar')]).status).toBe(0)
    const held = run(['verify', backups])
    expect(held.status).toBe(1)
    expect(held.err).toMatch(
      /neither a backup nor a state dir with a chat folder; it holds 2 backup\(s\): verify each on its own/,
    )
    expect(held.out).toBe('')
    const empty = path.join(dir, 'empty')
    fs.mkdirSync(empty, { mode: 0o700 })
    const nothing = run(['verify', empty])
    expect(nothing.status).toBe(1)
    expect(nothing.err).toMatch(/neither a backup nor a state dir with a chat folder/)
  })

  unreadableTest('a folder of mode 000')(
    'a chat folder this user cannot read (mode 000): a problem, exit 1',
    async () => {
      const dir = tempDir()
      const state = path.join(dir, 'state')
      const folder = await chat(state)
      await chat(state, LINES[0], 'agent:other')
      fs.chmodSync(folder, 0o000)
      const result = spawnSync(...withoutReadOverride(process.execPath, [CLI, 'verify', state, '--json']), {
        encoding: 'utf8',
      })
      fs.chmodSync(folder, 0o700)
      expect(result.status).toBe(1)
      const report = JSON.parse(result.stdout)
      const named = report.problems.filter((problem) => problem.path === folder)
      expect(named.map((problem) => problem.kind)).toEqual(expect.arrayContaining(['unreadable']))
      expect(report.chats).toBe(2)
    },
  )
})
