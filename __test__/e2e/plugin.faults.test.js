'use strict'
// The plugin in a real OpenClaw gateway (2026.7.2-beta.4 and 2026.9.6) against a hostile
// disk and a crashing machine: the modes it creates under the usual umask, the warning for
// history others can read, a gateway killed while the backend holds a turn, a torn last
// line, and a FIFO, a symlink and a hard link at the log path (each: one log line, the
// plain message reaches the backend once, and the gateway process finishes by itself).
const crypto = require('node:crypto')
const { execFileSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')

const native = require('../..')
const {
  PLUGIN_ID,
  RELEASES,
  backendTurns,
  crashGateway,
  createWorld,
  parsePrompt,
  readLog,
  readRecord,
  removeWorld,
  runGateway,
} = require('./plugin-harness')

const POSIX = process.platform !== 'win32'

/** The folder the plugin gives a session key under its default state folder. */
function folderOf(world, sessionKey) {
  const slug = sessionKey
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
  // SHA-256 over the key's UTF-16 code units, little-endian (the chat store's layout).
  const hash = crypto.createHash('sha256').update(Buffer.from(sessionKey, 'utf16le')).digest('hex').slice(0, 32)
  return path.join(world.stateDir, PLUGIN_ID, `${slug}-${hash}`)
}

const SECRET = 'sk-proj-Q2hhdFNlY3JldEtleUZvclRlc3RzMTIz'

const mode = (file) => (fs.lstatSync(file).mode & 0o777).toString(8)

;(POSIX ? describe.each(RELEASES) : describe.skip.each(RELEASES))('OpenClaw $name', (release) => {
  const MODES = 'agent:codex:acp:faults-modes'
  const TORN = 'agent:codex:acp:faults-torn'
  const FIFO = 'agent:codex:acp:faults-fifo'
  const SYMLINK = 'agent:codex:acp:faults-symlink'
  const HARDLINK = 'agent:codex:acp:faults-hardlink'
  const CRASH = 'agent:codex:acp:faults-crash'
  const KEYS = [MODES, TORN, FIFO, SYMLINK, HARDLINK, CRASH]

  let world
  let config
  const dirs = {}
  const turnsOf = (key) => backendTurns(world).filter((t) => t.sessionKey === key)

  beforeAll(() => {
    world = createWorld(`faults-${release.name}`, release)
    for (const key of [FIFO, SYMLINK, HARDLINK]) {
      dirs[key] = path.join(world.dir, `state-${key.split('-').pop()}`)
      fs.mkdirSync(dirs[key], { mode: 0o700 })
    }
    config = { sessionStateDirs: { [FIFO]: dirs[FIFO], [SYMLINK]: dirs[SYMLINK], [HARDLINK]: dirs[HARDLINK] } }
    runGateway(
      world,
      KEYS.map((sessionKey) => ({ op: 'create', sessionKey })),
      { pluginConfig: config },
    )
  })

  afterAll(() => removeWorld(world))

  describe('first turns under umask 022', () => {
    let run
    beforeAll(() => {
      run = runGateway(
        world,
        [
          { op: 'turn', sessionKey: MODES, text: `Where is my history kept? My key is ${SECRET}` },
          { op: 'turn', sessionKey: TORN, text: 'Before the tear' },
        ],
        { pluginConfig: config, umask: 0o022 },
      )
    })

    test('the state folder and the chat folder are 0700; the log, summary, last prompt, session row and lock 0600', () => {
      const chat = folderOf(world, MODES)
      expect(mode(path.join(world.stateDir, PLUGIN_ID))).toBe('700')
      expect(mode(chat)).toBe('700')
      expect(fs.readdirSync(chat).sort()).toEqual([
        'chat.lock',
        'continuity-summary.txt',
        'last-injected-preprompt.txt',
        'openclaw-session.json',
        'perpetual-log.jsonl',
      ])
      for (const name of fs.readdirSync(chat)) expect([name, mode(path.join(chat, name))]).toEqual([name, '600'])
      expect(run.pluginLines.filter((line) => line.includes('readable by other local users'))).toEqual([])
    })

    test('the backend got the secret as written; the log, summary and last prompt hold it masked', () => {
      const [turn] = turnsOf(MODES)
      expect(parsePrompt(turn.text).live).toBe(`Where is my history kept? My key is ${SECRET}`)
      const chat = folderOf(world, MODES)
      for (const name of fs.readdirSync(chat))
        expect([name, fs.readFileSync(path.join(chat, name), 'utf8').includes(SECRET)]).toEqual([name, false])
      expect(readLog(path.join(chat, 'perpetual-log.jsonl'))[0].text).toBe(
        'Where is my history kept? My key is [redacted:api-key]',
      )
      expect(run.pluginLines.filter((line) => line.includes('masked as [redacted:TYPE]')).length).toBeGreaterThan(0)
    })
  })

  describe('a torn line, a FIFO, a symlink and a hard link at the log path; history others can read', () => {
    let run
    const outside = () => path.join(world.dir, 'outside.txt')
    beforeAll(() => {
      // A writer that died mid-line: no final `\n`.
      fs.appendFileSync(
        path.join(folderOf(world, TORN), 'perpetual-log.jsonl'),
        '{"role":"assistant","text":"a reply cut off by a cra',
      )
      execFileSync('mkfifo', [path.join(dirs[FIFO], 'perpetual-log.jsonl')])
      fs.writeFileSync(outside(), "not the plugin's\n")
      fs.symlinkSync(outside(), path.join(dirs[SYMLINK], 'perpetual-log.jsonl'))
      fs.linkSync(outside(), path.join(dirs[HARDLINK], 'perpetual-log.jsonl'))
      // An earlier release's folder, readable by everyone.
      const wide = path.join(world.stateDir, PLUGIN_ID, 'agent-codex-acp-old-0123456789')
      fs.mkdirSync(wide)
      fs.chmodSync(wide, 0o755)
      fs.writeFileSync(path.join(wide, 'perpetual-log.jsonl'), '')
      fs.chmodSync(path.join(wide, 'perpetual-log.jsonl'), 0o644)
      run = runGateway(
        world,
        [
          { op: 'gatewayStart' },
          { op: 'turn', sessionKey: TORN, text: 'After the tear' },
          { op: 'turn', sessionKey: FIFO, text: 'through the FIFO chat' },
          { op: 'turn', sessionKey: SYMLINK, text: 'through the symlink chat' },
          { op: 'turn', sessionKey: HARDLINK, text: 'through the hard-link chat' },
          { op: 'waitForLine', text: 'readable by other local users', timeoutMs: 20000 },
        ],
        // Finishes by itself, or fails: a FIFO opened for a blocking write would hang it.
        { pluginConfig: config, timeout: 120000 },
      )
    })

    test('the turn after a torn line is logged whole and read back; the fragment stays, closed', () => {
      const file = path.join(folderOf(world, TORN), 'perpetual-log.jsonl')
      const entries = native.readPersistentChatLogEntries(file, 10)
      expect(entries.map((e) => [e.role, e.text])).toEqual([
        ['user', 'Before the tear'],
        ['assistant', 'reply to: Before the tear'],
        ['user', 'After the tear'],
        ['assistant', 'reply to: After the tear'],
      ])
      expect(fs.readFileSync(file, 'utf8')).toContain('cut off by a cra\n{"ts"')
    })

    test.each([
      ['FIFO', FIFO, 'FIFO', 'through the FIFO chat'],
      ['symlink', SYMLINK, 'symlink', 'through the symlink chat'],
      ['hard link', HARDLINK, 'hard-linked file', 'through the hard-link chat'],
    ])('a %s at the log path: one log line, the plain message reaches the backend once', (_name, key, kind, text) => {
      expect(turnsOf(key).map((t) => t.text)).toEqual([text])
      const lines = run.pluginLines.filter((line) => line.includes(key))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain(
        `state refused, sent the plain message, the turn not logged (ENOTREGULAR: not a regular file (${kind}), open '${path.join(dirs[key], 'perpetual-log.jsonl')}'`,
      )
      expect(fs.readdirSync(dirs[key])).toEqual(['perpetual-log.jsonl'])
      expect(readRecord(world).filter((e) => e.type === 'acpx-reply-dispatch' && e.sessionKey === key)).toEqual([])
      expect(fs.readFileSync(outside(), 'utf8')).toBe("not the plugin's\n")
    })

    test('history others can read: one warning line naming it, and its modes left alone', () => {
      const wide = path.join(world.stateDir, PLUGIN_ID, 'agent-codex-acp-old-0123456789')
      // Each line shows twice where OpenClaw prints plugin lines on its stdout too (2026.4.5 does
      // not): the same text, once in each.
      const lines = run.pluginLines
        .filter((line) => line.includes('readable by other local users'))
        .map((line) => line.slice(line.indexOf(PLUGIN_ID)))
      expect(lines.length).toBeGreaterThanOrEqual(1)
      expect(new Set(lines).size).toBe(1)
      expect(run.stdout.split('readable by other local users').length).toBeLessThanOrEqual(2)
      expect(lines[0]).toContain(`${wide} (0755), ${path.join(wide, 'perpetual-log.jsonl')} (0644)`)
      expect(mode(wide)).toBe('755')
    })
  })

  describe('a gateway killed while the backend holds the turn', () => {
    let after
    beforeAll(async () => {
      runGateway(world, [{ op: 'turn', sessionKey: CRASH, text: 'The database is on port 5433' }], {
        pluginConfig: config,
      })
      await crashGateway(world, [{ op: 'turn', sessionKey: CRASH, text: 'Deploy it to staging [hold-turn]' }], {
        pluginConfig: config,
        until: (record) => record.some((e) => e.type === 'holding' && e.sessionKey === CRASH),
      })
      after = runGateway(world, [{ op: 'turn', sessionKey: CRASH, text: 'Did the deploy happen?' }], {
        pluginConfig: config,
        failResume: true,
      })
    })

    test('the message in flight was in the log before the crash, with its id and no reply', () => {
      const log = readLog(path.join(folderOf(world, CRASH), 'perpetual-log.jsonl'))
      const held = log.find((e) => e.text === 'Deploy it to staging [hold-turn]')
      expect(held).toEqual(expect.objectContaining({ role: 'user', id: expect.stringMatching(/:user$/) }))
      expect(log.find((e) => e.id === held.id.replace(/:user$/, ':assistant'))).toBeUndefined()
    })

    test("the next process's reload shows it: awaiting its reply in the summary, in the excerpt", () => {
      const [turn] = turnsOf(CRASH).slice(-1)
      const prompt = parsePrompt(turn.text)
      expect(prompt.reload).toBe(true)
      expect(prompt.summary).toContain('- Latest assistant status: awaiting reply to the latest request')
      expect(prompt.excerpt.map((line) => [line.role, line.text])).toEqual([
        ['user', 'The database is on port 5433'],
        ['assistant', 'reply to: The database is on port 5433'],
        ['user', 'Deploy it to staging [hold-turn]'],
      ])
      expect(prompt.live).toBe('Did the deploy happen?')
      expect(after.pluginLines.filter((line) => line.includes(CRASH) && !line.includes('reload turn'))).toEqual([])
    })
  })
})
