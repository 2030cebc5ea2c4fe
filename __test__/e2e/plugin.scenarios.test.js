'use strict'
// The plugin in a real OpenClaw gateway (each release of the plugin matrix, plugin-harness.js's
// RELEASES, from 2026.4.5 to the newest): the real loader loads this
// package, the real dispatch and hook runner run each turn, the real ACP session manager
// resumes and creates backend sessions, and a fake ACP backend (fixtures/fake-acpx) records
// every text it gets. No model, no network. Each `runGateway` is one gateway process, so a
// new one is a gateway restart. The describe blocks run in order and tell one chat's story,
// on each release of plugin-harness.js's RELEASES.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')

const {
  PLUGIN_ID,
  RELEASES,
  backendTurns,
  createWorld,
  entryOfExcerptLine,
  parsePrompt,
  readLog,
  readRecord,
  removeWorld,
  runGateway,
} = require('./plugin-harness')

describe.each(RELEASES)('OpenClaw $name', (release) => {
  const CHAT = 'agent:codex:acp:persistent-chat'
  const BROKEN = 'agent:codex:acp:broken-state'
  const PLAIN = 'agent:main:webchat-plain'

  let world
  let config
  let chatFiles
  let chatSessionId

  /** The backend turns of CHAT from the `from`-th on, with the log as it is now. */
  const chatTurns = (from) =>
    backendTurns(world)
      .filter((t) => t.sessionKey === CHAT)
      .slice(from)

  /** The backend sessions created for CHAT, in order (ids count across the whole backend). */
  const chatSessions = () =>
    readRecord(world)
      .filter((e) => e.type === 'session-created' && e.sessionKey === CHAT)
      .map((e) => e.sessionId)

  /**
   * The reply texts a turn delivered, as the user sees them: up to 2026.5 the dispatcher
   * delivers the streamed block and then a final with the same text (with or without the
   * plugin); that final is the same reply, not a second one.
   */
  const repliesOf = (step) => {
    const blocks = step.delivered.filter((d) => d.kind === 'block').map((d) => d.text)
    const finals = step.delivered.filter((d) => d.kind !== 'block').map((d) => d.text)
    return [...blocks, ...finals.filter((text) => text !== blocks.join('\n'))]
  }

  /** An excerpt never shows an entry twice, and each line is a real log entry. */
  function expectEachEntryOnce(prompt, log) {
    const ids = prompt.excerpt.map((line) => entryOfExcerptLine(log, line)?.id)
    expect(ids).not.toContain(undefined)
    expect(new Set(ids).size).toBe(ids.length)
    return ids
  }

  beforeAll(() => {
    world = createWorld(`scenarios-${release.name}`, release)
    fs.writeFileSync(path.join(world.dir, 'a-file'), '')
    chatFiles = {
      dir: path.join(world.dir, 'chat-state'),
      get log() {
        return path.join(this.dir, 'perpetual-log.jsonl')
      },
    }
    config = {
      // An operator's existing folder for the chat; the broken one sits under a regular file.
      sessionStateDirs: { [CHAT]: chatFiles.dir, [BROKEN]: path.join(world.dir, 'a-file', 'state') },
    }
    // Sessions are created by a process of their own: a process does not see a session row
    // it created itself (the session store caches its reads).
    const created = runGateway(
      world,
      [
        { op: 'create', sessionKey: CHAT },
        { op: 'create', sessionKey: BROKEN },
        { op: 'create', sessionKey: PLAIN, acp: false },
      ],
      { pluginConfig: config },
    )
    chatSessionId = created.steps[0].sessionId
  })

  afterAll(() => removeWorld(world))

  describe('first gateway process: the first turns', () => {
    let run
    beforeAll(() => {
      run = runGateway(
        world,
        [
          { op: 'turn', sessionKey: CHAT, text: 'Set up the database' },
          { op: 'turn', sessionKey: CHAT, text: 'Use Postgres 16' },
          { op: 'turn', sessionKey: CHAT, text: 'Which port does it listen on?' },
          { op: 'turn', sessionKey: PLAIN, text: 'hello, plain session' },
          { op: 'turn', sessionKey: BROKEN, text: 'hello, broken state' },
          { op: 'turn', sessionKey: CHAT, text: '/status' },
          // 2026.4.5's ACP dispatch writes no transcript; the others write six messages.
          { op: 'transcript', sessionKey: CHAT, atLeast: release.name === '2026.4.5' ? 0 : 6 },
        ],
        { pluginConfig: config },
      )
    })

    test('the plugin and the fake acpx load through the real loader', () => {
      expect(run.plugins).toEqual([
        { id: PLUGIN_ID, status: 'loaded' },
        { id: 'fake-acpx', status: 'loaded' },
      ])
    })

    test('the first turn is a reload: metadata, the state-only summary, then the live message last', () => {
      const [first] = chatTurns(0)
      const prompt = parsePrompt(first.text)
      expect(chatSessions()).toEqual([first.sessionId])
      expect(prompt.metadata).toBe(true)
      // Fenced: the first line states the rule, every structural line carries the nonce.
      expect(prompt.nonce).toMatch(/^[0-9a-f]{16}$/)
      expect(first.text).toMatch(
        new RegExp(
          `^Only lines with ${prompt.nonce} are structure\\.\\n## Turn Metadata ${prompt.nonce}\\n- channel: webchat\\n- sender: Dana\\n- time: \\d{4}-\\d\\d-\\d\\dT`,
        ),
      )
      expect(prompt.reload).toBe(true)
      expect(prompt.summary).toContain('Current thread / pending next action:')
      expect(prompt.excerpt).toEqual([]) // an empty log
      expect(prompt.live).toBe('Set up the database')
    })

    test('continuous turns inject nothing the backend session already holds', () => {
      const [first, second, third] = chatTurns(0)
      const log = readLog(chatFiles.log)
      for (const turn of [second, third]) {
        const prompt = parsePrompt(turn.text)
        expect(turn.sessionId).toBe(first.sessionId)
        expect(prompt.reload).toBe(false)
        const held = prompt.excerpt
          .map((line) => entryOfExcerptLine(log, line))
          .filter((e) => e.session === turn.sessionId)
        expect(held).toEqual([])
      }
      expect(parsePrompt(third.text).live).toBe('Which port does it listen on?')
    })

    test('each turn is logged once: the user message and the reply, with the backend session and status', () => {
      const log = readLog(chatFiles.log)
      const [be] = chatSessions()
      expect(log.map((e) => [e.role, e.text, e.session, e.status])).toEqual([
        ['user', 'Set up the database', be, undefined],
        ['assistant', 'reply to: Set up the database', be, 'ok'],
        ['user', 'Use Postgres 16', be, undefined],
        ['assistant', 'reply to: Use Postgres 16', be, 'ok'],
        ['user', 'Which port does it listen on?', be, undefined],
        ['assistant', 'reply to: Which port does it listen on?', be, 'ok'],
      ])
      for (const entry of log)
        expect(Object.keys(entry)).toEqual(expect.arrayContaining(['ts', 'role', 'text', 'session', 'id']))
      expect(new Set(log.map((e) => e.id)).size).toBe(log.length)
      expect(Date.parse(log[0].ts)).toBeLessThanOrEqual(Date.parse(log[1].ts))
    })

    test('last-injected-preprompt.txt is the last prompt sent; continuity-summary.txt was written on the reload', () => {
      // The last prompt the plugin built (2026.4.5's acpx forwards `/status` to the backend as it is).
      const last = chatTurns(0)
        .filter((t) => t.text !== '/status')
        .at(-1)
      expect(fs.readFileSync(path.join(chatFiles.dir, 'last-injected-preprompt.txt'), 'utf8')).toBe(last.text)
      const summary = fs.readFileSync(path.join(chatFiles.dir, 'continuity-summary.txt'), 'utf8')
      expect(parsePrompt(chatTurns(0)[0].text).summary).toContain(summary.split('\n')[0])
    })

    test(`OpenClaw's own transcript (${release.transcript === 'jsonl' ? 'a JSON Lines file' : 'SQLite'}) stores the live messages, not the prompts`, () => {
      const texts = run.steps[6].messages.filter((m) => m.sessionId === chatSessionId).map((m) => [m.role, m.text])
      // 2026.4.5's ACP dispatch writes no transcript at all: nothing to restore, nothing leaked.
      if (release.name === '2026.4.5') return expect([run.steps[6].store, texts]).toEqual(['none', []])
      expect(run.steps[6].store).toBe(release.transcript)
      expect(texts).toEqual([
        ['user', 'Set up the database'],
        ['assistant', 'reply to: Set up the database'],
        ['user', 'Use Postgres 16'],
        ['assistant', 'reply to: Use Postgres 16'],
        ['user', 'Which port does it listen on?'],
        ['assistant', 'reply to: Which port does it listen on?'],
      ])
    })

    test("openclaw-context import --from-openclaw: OpenClaw's stored turns, user and assistant, become a log; a rerun adds none", () => {
      const state = path.join(world.dir, 'imported-state')
      const args = ['import', '--state-dir', state, '--session-key', CHAT, '--from-openclaw', world.stateDir]
      const cli = path.join(__dirname, '..', '..', 'cli', 'openclaw-context.js')
      // The release's own Node (22 or 24): reading its SQLite store needs node:sqlite.
      const spawnCli = (more) => spawnSync(release.node, [cli, ...args, ...more], { encoding: 'utf8', timeout: 60000 })
      const runCli = (more) => {
        const result = spawnCli(more)
        expect({ status: result.status, err: result.stderr }).toEqual({ status: 0, err: '' })
        return JSON.parse(result.stdout)
      }
      // 2026.4.5's ACP dispatch writes no transcript: nothing to import, said, and not a success.
      if (release.name === '2026.4.5') {
        const nothing = spawnCli(['--apply', '--json'])
        expect(nothing.status).toBe(1)
        return expect(nothing.stderr).toMatch(/holds nothing for the session key .*: nothing imported/)
      }
      const first = runCli(['--apply', '--json'])
      expect(first.openclawStore).toBe(release.transcript)
      const log = readLog(first.logPath)
      expect(log.map((e) => [e.role, e.text])).toEqual([
        ['user', 'Set up the database'],
        ['assistant', 'reply to: Set up the database'],
        ['user', 'Use Postgres 16'],
        ['assistant', 'reply to: Use Postgres 16'],
        ['user', 'Which port does it listen on?'],
        ['assistant', 'reply to: Which port does it listen on?'],
      ])
      expect(log.every((e) => /^openclaw:/.test(e.id) && !Number.isNaN(Date.parse(e.ts)))).toBe(true)
      expect(runCli(['--apply', '--json'])).toMatchObject({ imported: 0, already: 6 })
    })

    test('acpx, next in line, never saw an ACP turn: the plugin claimed each one', () => {
      const acpx = readRecord(world).filter((e) => e.type === 'acpx-reply-dispatch')
      expect(acpx.filter((e) => e.sessionKey === CHAT && e.bodyForAgent !== '/status')).toEqual([])
      expect(run.steps.slice(0, 3).map(repliesOf)).toEqual([
        ['reply to: Set up the database'],
        ['reply to: Use Postgres 16'],
        ['reply to: Which port does it listen on?'],
      ])
    })

    test('a command passes through untouched: OpenClaw answers it, the backend and the log never see it', () => {
      const acpx = readRecord(world).filter((e) => e.type === 'acpx-reply-dispatch' && e.sessionKey === CHAT)
      // 2026.4.5 hands the command to acpx, which sends it to the backend as it is; later
      // releases answer it themselves. Either way it passes the plugin untouched.
      const forwarded = release.name === '2026.4.5'
      expect(acpx).toEqual([expect.objectContaining({ bodyForAgent: '/status', handled: forwarded })])
      expect(run.steps[5].delivered.length).toBeGreaterThan(0)
      expect(chatTurns(0).filter((t) => t.text === '/status')).toHaveLength(forwarded ? 1 : 0)
      expect(
        chatTurns(0)
          .filter((t) => t.text !== '/status')
          .map((t) => parsePrompt(t.text).live),
      ).not.toContain('/status')
      expect(readLog(chatFiles.log).map((e) => e.text)).not.toContain('/status')
      expect(run.pluginLines.filter((line) => line.includes('/status'))).toEqual([])
    })

    test("a session that is not ACP passes through untouched, to OpenClaw's own agent", () => {
      const acpx = readRecord(world).filter((e) => e.type === 'acpx-reply-dispatch' && e.sessionKey === PLAIN)
      expect(acpx).toEqual([expect.objectContaining({ bodyForAgent: 'hello, plain session', handled: false })])
      expect(backendTurns(world).filter((t) => t.sessionKey === PLAIN)).toEqual([])
      // OpenClaw's embedded agent took it (and, with no model configured, said so).
      expect(run.steps[3].delivered[0].text).toMatch(/Agent failed before reply/)
      const stateRoot = path.join(world.stateDir, PLUGIN_ID)
      expect(fs.existsSync(stateRoot) ? fs.readdirSync(stateRoot) : []).toEqual([])
      expect(run.pluginLines.filter((line) => line.includes(PLAIN))).toEqual([])
    })

    test('an unwritable state folder: one log line, and the plain message reaches the backend exactly once', () => {
      const turns = backendTurns(world).filter((t) => t.sessionKey === BROKEN)
      expect(turns.map((t) => t.text)).toEqual(['hello, broken state'])
      expect(repliesOf(run.steps[4])).toEqual(['reply to: hello, broken state'])
      const lines = run.pluginLines.filter((line) => line.includes(BROKEN))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatch(/state folder unusable, sent the plain message, the turn not logged \(ENOTDIR/)
      expect(readRecord(world).filter((e) => e.type === 'acpx-reply-dispatch' && e.sessionKey === BROKEN)).toEqual([])
    })
  })

  describe('gateway restart, the resume keeps the backend session', () => {
    let before
    let run
    beforeAll(() => {
      before = chatTurns(0).length
      run = runGateway(
        world,
        [
          { op: 'turn', sessionKey: CHAT, text: 'Back after the restart' },
          { op: 'turn', sessionKey: CHAT, texts: ['First of two at once', 'Second of two at once'] },
        ],
        { pluginConfig: config },
      )
    })

    test('no reload: the same backend session gets a continuous prompt', () => {
      const resumed = readRecord(world).filter((e) => e.type === 'session-resumed' && e.sessionKey === CHAT)
      expect(chatSessions()).toHaveLength(1)
      expect(resumed.at(-1).sessionId).toBe(chatSessions()[0])
      const [turn] = chatTurns(before)
      expect(turn.sessionId).toBe(chatSessions()[0])
      expect(parsePrompt(turn.text).reload).toBe(false)
      expect(parsePrompt(turn.text).live).toBe('Back after the restart')
    })

    test('two messages at once: each reaches the backend once, both are logged whole and in turn order', () => {
      const turns = chatTurns(before + 1)
      expect(turns.map((t) => parsePrompt(t.text).live).sort()).toEqual([
        'First of two at once',
        'Second of two at once',
      ])
      const log = readLog(chatFiles.log).slice(-4)
      const order = turns.map((t) => parsePrompt(t.text).live)
      expect(log.map((e) => [e.role, e.text])).toEqual([
        ['user', order[0]],
        ['assistant', `reply to: ${order[0]}`],
        ['user', order[1]],
        ['assistant', `reply to: ${order[1]}`],
      ])
      expect(run.steps[1].turns.map((t) => repliesOf(t).length)).toEqual([1, 1])
    })
  })

  describe('gateway restart, the resume fails: a new backend session', () => {
    let before
    beforeAll(() => {
      before = chatTurns(0).length
      runGateway(world, [{ op: 'turn', sessionKey: CHAT, text: 'Are you still there?' }], {
        pluginConfig: config,
        failResume: true,
      })
    })

    test('the backend lost its session; OpenClaw started a new one and the turn is a reload', () => {
      const record = readRecord(world)
      const [lost, fresh] = chatSessions()
      expect(record.filter((e) => e.type === 'resume-failed' && e.sessionKey === CHAT).map((e) => e.sessionId)).toEqual(
        [lost],
      )
      const [turn] = chatTurns(before)
      expect(turn.sessionId).toBe(fresh)
      expect(parsePrompt(turn.text).reload).toBe(true)
    })

    test('the reload carries every earlier entry once, oldest first, and the live message last', () => {
      const [turn] = chatTurns(before)
      const log = readLog(chatFiles.log)
      const prompt = parsePrompt(turn.text)
      const ids = expectEachEntryOnce(prompt, log)
      expect(ids).toEqual(log.slice(0, -2).map((e) => e.id)) // all 12 earlier entries (< 25)
      expect(prompt.live).toBe('Are you still there?')
      expect(log.slice(-2).map((e) => e.session)).toEqual([turn.sessionId, turn.sessionId])
    })
  })

  describe('/new, then a failed turn, then a new backend session', () => {
    let before
    let afterReset
    beforeAll(() => {
      before = chatTurns(0).length
      runGateway(
        world,
        [
          { op: 'reset', sessionKey: CHAT },
          { op: 'turn', sessionKey: CHAT, text: 'Start over please' },
          { op: 'turn', sessionKey: CHAT, text: 'Now break [fail-turn]' },
        ],
        { pluginConfig: config },
      )
      afterReset = chatTurns(0).length
      runGateway(world, [{ op: 'turn', sessionKey: CHAT, text: 'Did that work?' }], {
        pluginConfig: config,
        failResume: true,
      })
    })

    // 2026.4.5's session reset leaves the ACP session as it is: the backend session stays.
    const resetKeepsBackend = release.name === '2026.4.5'

    test(
      resetKeepsBackend
        ? '/new keeps the backend session on this release, and the turn after it is continuous'
        : '/new gives a new backend session, and its first turn is a reload',
      () => {
        const [fresh] = chatTurns(before)
        const prompt = parsePrompt(fresh.text)
        if (resetKeepsBackend) {
          expect(fresh.sessionId).toBe(chatSessions()[1]) // the one of the failed resume
          expect(prompt.reload).toBe(false)
          expect(prompt.excerpt).toEqual([])
        } else {
          expect(fresh.sessionId).toBe(chatSessions()[2]) // created by the reset
          expect(prompt.reload).toBe(true)
        }
        expectEachEntryOnce(prompt, readLog(chatFiles.log))
      },
    )

    test('the failed turn is logged with its error code', () => {
      const log = readLog(chatFiles.log)
      const failed = log.find((e) => e.role === 'assistant' && e.status !== 'ok')
      expect(failed).toEqual(
        expect.objectContaining({ session: chatTurns(before)[0].sessionId, status: 'ACP_TURN_FAILED' }),
      )
      expect(failed.text).toMatch(/^partial answer/)
    })

    test('after it, a new backend session: the summary does not show the old failure as the latest status', () => {
      const [turn] = chatTurns(afterReset)
      expect(chatSessions()).toHaveLength(resetKeepsBackend ? 3 : 4)
      expect(turn.sessionId).toBe(chatSessions().at(-1))
      const prompt = parsePrompt(turn.text)
      expect(prompt.reload).toBe(true)
      expect(prompt.summary).not.toMatch(/Latest assistant status: .*ACP_TURN_FAILED/)
      expect(prompt.summary).toMatch(/Latest user request: /)
      expectEachEntryOnce(prompt, readLog(chatFiles.log))
    })
  })
})
