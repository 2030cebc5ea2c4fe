'use strict'
// A simulated persistent chat through the real OpenClaw and the plugin, on each release of
// the plugin matrix (plugin-harness.js's RELEASES): 200 turns on 2026.7.2-beta.4, the
// reference, and the same story in 40 turns on the others (the spec time of the matrix), over
// eight gateway processes: restarts whose resume works, restarts whose resume
// fails, /new, failed turns, and another writer appending to the log between turns. What
// it checks: no log entry ever reaches one backend session twice (injected twice, or
// injected although that session produced it), no turn is missing from the log or in it
// twice. What it measures (printed): the same chat under the old 2-entry rule (the prompt
// built without `currentSession`) against the plugin's, and prompt sizes per kind of turn.
const fs = require('node:fs')
const path = require('node:path')

const native = require('../..')
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

/** A prompt whose live message ends with the failure marker (fenced: before the closing line). */
const failTurn = (text) => /\[fail-turn\](?:\n--- END [0-9a-f]+ ---)?$/.test(text)

const CHAT = 'agent:codex:acp:long-chat'

/** The eight gateway processes: what happens when each starts, and how many turns follow. */
const SEGMENTS = [
  { turns: 30 },
  { turns: 25, start: 'restart' },
  { turns: 25, start: 'failed resume' },
  { turns: 25, start: '/new' },
  { turns: 25, start: 'restart', otherWriter: 'webchat-mirror' },
  { turns: 20, start: 'failed resume', failing: [5, 12] },
  { turns: 25, start: '/new', otherWriter: 'telegram' },
  { turns: 25, start: 'restart' },
]
/** The same story with a fifth of the turns, for the releases other than the reference. */
const SHORT_SEGMENTS = SEGMENTS.map((segment) => ({
  ...segment,
  turns: segment.turns / 5,
  ...(segment.failing ? { failing: [1, 3] } : {}),
}))
const REFERENCE = '2026.7.2-beta.4'

describe.each(RELEASES)('OpenClaw $name', (release) => {
  const segments = release.name === REFERENCE ? SEGMENTS : SHORT_SEGMENTS
  const TURNS = segments.reduce((sum, segment) => sum + segment.turns, 0)

  let world
  let logPath
  let turns
  let log

  /**
   * Replays what each backend session was shown, turn by turn. A session holds an entry once
   * it produced it (the turn's own user message and reply) or was shown it; showing it again
   * is a repeat. `injectedFor(turn, index)` gives the entry ids shown to the turn's session.
   */
  function countRepeats(injectedFor) {
    const held = new Map()
    let repeats = 0
    const repeated = []
    turns.forEach((turn, index) => {
      const seen = held.get(turn.sessionId) ?? new Set()
      held.set(turn.sessionId, seen)
      for (const id of injectedFor(turn, index)) {
        if (seen.has(id)) {
          repeats += 1
          repeated.push({ turn: index, session: turn.sessionId, id })
        }
        seen.add(id)
      }
      for (const entry of turn.ownEntries) seen.add(entry.id)
    })
    return { repeats, repeated }
  }

  beforeAll(() => {
    world = createWorld(`simulation-${release.name}`, release)
    runGateway(world, [{ op: 'create', sessionKey: CHAT }])
    let n = 0
    for (const [s, segment] of segments.entries()) {
      if (segment.otherWriter) {
        // Another writer's entries, which no backend session of this chat has seen.
        const folder = fs.readdirSync(path.join(world.stateDir, PLUGIN_ID))[0]
        const otherLog = path.join(world.stateDir, PLUGIN_ID, folder, 'perpetual-log.jsonl')
        const ts = new Date().toISOString()
        fs.appendFileSync(
          otherLog,
          [
            {
              ts,
              role: 'user',
              text: `note from ${segment.otherWriter}`,
              session: segment.otherWriter === 'telegram' ? 'tg-77' : undefined,
              id: `ext-${s}-1`,
            },
            {
              ts,
              role: 'assistant',
              text: `ack on ${segment.otherWriter}`,
              session: segment.otherWriter === 'telegram' ? 'tg-77' : undefined,
              id: `ext-${s}-2`,
              status: 'ok',
            },
          ]
            .map((entry) => `${JSON.stringify(entry)}\n`)
            .join(''),
        )
      }
      const steps = segment.start === '/new' ? [{ op: 'reset', sessionKey: CHAT }] : []
      for (let i = 0; i < segment.turns; i += 1) {
        n += 1
        const fail = segment.failing?.includes(i) ? ' [fail-turn]' : ''
        steps.push({ op: 'turn', sessionKey: CHAT, text: `Turn ${n}: message ${n} of the long chat${fail}` })
      }
      runGateway(world, steps, { failResume: segment.start === 'failed resume' })
    }

    const folder = fs.readdirSync(path.join(world.stateDir, PLUGIN_ID))
    expect(folder).toHaveLength(1)
    logPath = path.join(world.stateDir, PLUGIN_ID, folder[0], 'perpetual-log.jsonl')
    log = readLog(logPath)

    // Each backend turn with the log as it stood before it, and the two entries it added.
    const users = log
      .map((entry, at) => ({ entry, at }))
      .filter(({ entry }) => entry.role === 'user' && /^Turn \d+:/.test(entry.text))
    turns = backendTurns(world).map((turn, index) => {
      const { entry, at } = users[index]
      return { ...turn, prompt: parsePrompt(turn.text), before: log.slice(0, at), ownEntries: [entry, log[at + 1]] }
    })
  })

  afterAll(() => removeWorld(world))

  test('the default state folder: one folder under <state dir>/openclaw-context-native, named after the session key and 128 bits of its SHA-256', () => {
    expect(path.basename(path.dirname(logPath))).toMatch(/^agent-codex-acp-long-chat-[0-9a-f]{32}$/)
  })

  test(`${TURNS} turns: each reached the backend once and is in the log once, in order, with its reply`, () => {
    expect(turns).toHaveLength(TURNS)
    turns.forEach((turn, i) => {
      expect(turn.prompt.live).toBe(
        `Turn ${i + 1}: message ${i + 1} of the long chat${failTurn(turn.text) ? ' [fail-turn]' : ''}`,
      )
    })
    const mine = log.filter((entry) => !String(entry.id).startsWith('ext-'))
    expect(mine).toHaveLength(2 * TURNS)
    mine.forEach((entry, i) => {
      expect(entry.role).toBe(i % 2 === 0 ? 'user' : 'assistant')
      if (i % 2 === 0) return
      if (failTurn(mine[i - 1].text)) expect(entry.text).toMatch(/^partial answer\n\nACP error \(ACP_TURN_FAILED\)/)
      else expect(entry.text).toBe(`reply to: ${mine[i - 1].text}`)
    })
    expect(new Set(log.map((entry) => entry.id)).size).toBe(log.length)
    expect(log.filter((entry) => entry.status === 'ACP_TURN_FAILED')).toHaveLength(2)
  })

  test('reloads happen exactly where the backend session is new, and each carries the last 25 entries once', () => {
    const created = readRecord(world)
      .filter((e) => e.type === 'session-created')
      .map((e) => e.sessionId)
    // The first, two failed resumes, two /new (2026.4.5's reset keeps the ACP session).
    expect(created).toHaveLength(release.name === '2026.4.5' ? 3 : 5)
    const reloads = turns.map((turn, i) => [i, turn]).filter(([, turn]) => turn.prompt.reload)
    const firstTurnOf = created.map((id) => turns.findIndex((turn) => turn.sessionId === id))
    expect(reloads.map(([i]) => i)).toEqual(firstTurnOf)
    for (const [, turn] of reloads) {
      const ids = turn.prompt.excerpt.map((line) => entryOfExcerptLine(turn.before, line)?.id)
      expect(ids).toEqual(turn.before.slice(-25).map((entry) => entry.id))
      // The recall block (reloadRecall's default, from the manifest): older entries of the log,
      // none of the excerpt's.
      expect(turn.prompt.recalled.length).toBeLessThanOrEqual(
        require('../../openclaw.plugin.json').configSchema.properties.reloadRecall.default,
      )
      for (const recalled of turn.prompt.recalled) {
        const entry = entryOfExcerptLine(turn.before, recalled)
        expect(entry).toBeDefined()
        expect(ids).not.toContain(entry.id)
      }
    }
    // Every live message shares words with the older turns: a reload with more than the excerpt
    // before it recalls some of them.
    if (reloads.some(([, turn]) => turn.before.length > 30)) {
      expect(reloads.some(([, turn]) => turn.prompt.recalled.length > 0)).toBe(true)
    }
  })

  test("no entry is ever shown twice to one backend session, nor one it produced; the other writer's reach it once", () => {
    const shown = (turn) => turn.prompt.excerpt.map((line) => entryOfExcerptLine(turn.before, line).id)
    const { repeats, repeated } = countRepeats(shown)
    expect(repeated).toEqual([])
    expect(repeats).toBe(0)
    const external = turns.flatMap((turn) =>
      shown(turn)
        .filter((id) => id.startsWith('ext-'))
        .map((id) => `${turn.sessionId}:${id}`),
    )
    expect(external.sort()).toEqual([...new Set(external)].sort())
    // The mirror's two entries reached the resumed session on its next (continuous) turn (and,
    // in the short chat, the later reloads too: they are still among the last 25 entries).
    const resumed = turns[segments.slice(0, 4).reduce((sum, segment) => sum + segment.turns, 0)].sessionId
    expect(external.filter((key) => key.startsWith(`${resumed}:ext-4-`))).toHaveLength(2)
  })

  test('measured: the old 2-entry rule against the plugin, on the same chat', () => {
    const build = (turn, withSession) =>
      native.buildPersistentChatInjectedPromptReport({
        userMessage: turn.prompt.live,
        reload: turn.prompt.reload,
        ...(withSession ? { currentSession: turn.sessionId } : {}),
        logEntries: turn.before,
        ...(turn.prompt.reload
          ? { continuitySummary: turn.prompt.summary?.replace(/^## Rolling Continuity Summary[^\n]*\n/, '') ?? '' }
          : {}),
      })
    const oldRule = turns.map((turn) => build(turn, false))
    const newRule = turns.map((turn) => build(turn, true))
    // The plugin's prompts inject exactly what the new rule chooses.
    turns.forEach((turn, i) => {
      expect(turn.prompt.excerpt.map((line) => entryOfExcerptLine(turn.before, line).id)).toEqual(
        newRule[i].injectedEntryIds,
      )
    })
    const oldRepeats = countRepeats((_turn, i) => oldRule[i].injectedEntryIds).repeats
    const newRepeats = countRepeats((_turn, i) => newRule[i].injectedEntryIds).repeats
    expect(newRepeats).toBe(0)
    expect(oldRepeats).toBeGreaterThan(0)

    const mean = (values) => (values.length ? Math.round(values.reduce((a, b) => a + b, 0) / values.length) : 0)
    const continuous = turns.filter((turn) => !turn.prompt.reload)
    const reload = turns.filter((turn) => turn.prompt.reload)
    const continuousIndexes = turns.map((turn, i) => (turn.prompt.reload ? -1 : i)).filter((i) => i >= 0)
    const summary = {
      turns: turns.length,
      backendSessions: new Set(turns.map((turn) => turn.sessionId)).size,
      reloadTurns: reload.length,
      continuousTurns: continuous.length,
      repeatsOldRule: oldRepeats,
      repeatsPlugin: newRepeats,
      // What the backend got from the plugin (turn metadata included).
      meanPromptCharsContinuous: mean(continuous.map((turn) => turn.text.length)),
      meanPromptCharsReload: mean(reload.map((turn) => turn.text.length)),
      // The same turns rebuilt without metadata, under each rule.
      meanRebuiltCharsContinuousOldRule: mean(continuousIndexes.map((i) => oldRule[i].chars)),
      meanRebuiltCharsContinuousPlugin: mean(continuousIndexes.map((i) => newRule[i].chars)),
      continuousTurnsWithEntriesOldRule: continuousIndexes.filter((i) => oldRule[i].entriesInjected > 0).length,
      continuousTurnsWithEntriesPlugin: continuousIndexes.filter((i) => newRule[i].entriesInjected > 0).length,
      gatewayProcesses: world.processes,
    }
    console.log(`${release.name}: ${TURNS}-turn simulation: ${JSON.stringify(summary, null, 2)}`)
  })
})
