'use strict'
// Recall on a reload (issue 30, 5b) in a real OpenClaw gateway, on the newest release of the
// plugin matrix (one release: the recall is the addon's, the plugin only wires it, and the
// other specs run the plugin's reloads on every release): a chat whose log holds a decision 300
// turns back, a live message asking about it, and the reload prompt the backend got carries that
// entry in the recall block, masked as the excerpt is; a second chat, in the same process, gets
// nothing of the first's log.
const fs = require('node:fs')
const path = require('node:path')

const { RELEASES, backendTurns, createWorld, parsePrompt, removeWorld, runGateway } = require('./plugin-harness')

const release = RELEASES.at(-1)
const CHAT = 'agent:codex:acp:recall'
const OTHER = 'agent:codex:acp:recall-other'
const DECISION = 'Decided: the staging database moves to Postgres 16, vault code ACME-7f3a9c2e1b'

/** A chat folder as an operator's existing one: 0700, its log 0600. */
function chatFolder(dir, lines) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
  fs.chmodSync(dir, 0o700)
  const log = path.join(dir, 'perpetual-log.jsonl')
  fs.writeFileSync(log, lines.map((entry) => `${JSON.stringify(entry)}\n`).join(''), { mode: 0o600 })
  fs.chmodSync(log, 0o600)
}

const routine = (i) => ({
  ts: new Date(Date.UTC(2026, 2, 1) + i * 60000).toISOString(),
  role: i % 2 ? 'assistant' : 'user',
  text: `routine note ${i} about the build and the weekly sync`,
  session: 'be-old',
  id: `old-${i}`,
})

describe(`OpenClaw ${release.name}`, () => {
  let world
  let turns
  beforeAll(() => {
    world = createWorld(`recall-${release.name}`, release)
    const dirs = { [CHAT]: path.join(world.dir, 'chat'), [OTHER]: path.join(world.dir, 'other') }
    const log = Array.from({ length: 320 }, (_, i) => routine(i))
    log[11] = { ...log[11], text: 'Which engine for the staging database?' }
    log[12] = { ...log[12], role: 'assistant', text: DECISION }
    chatFolder(dirs[CHAT], log)
    chatFolder(
      dirs[OTHER],
      Array.from({ length: 60 }, (_, i) => routine(i)),
    )
    const pluginConfig = { sessionStateDirs: dirs, redactPatterns: ['ACME-[0-9a-f]{10}'] }
    // A session row is seen by a later process (the session store caches its reads).
    runGateway(
      world,
      [
        { op: 'create', sessionKey: CHAT },
        { op: 'create', sessionKey: OTHER },
      ],
      { pluginConfig },
    )
    runGateway(
      world,
      [
        { op: 'turn', sessionKey: CHAT, text: 'What did we decide about the staging database?' },
        { op: 'turn', sessionKey: OTHER, text: 'What did we decide about the staging database?' },
      ],
      { pluginConfig },
    )
    turns = backendTurns(world)
  })
  afterAll(() => removeWorld(world))

  test('the reload prompt carries the entry 300 turns back that the live message asks about, masked', () => {
    const turn = turns.find((t) => t.sessionKey === CHAT)
    const prompt = parsePrompt(turn.text)
    expect(prompt.reload).toBe(true)
    expect(prompt.live).toBe('What did we decide about the staging database?')
    const recalled = prompt.recalled.find((entry) => entry.line === 13)
    expect(recalled).toEqual({
      line: 13,
      ts: '2026-03-01T00:12:00.000Z',
      role: 'assistant',
      status: undefined,
      text: 'Decided: the staging database moves to Postgres 16, vault code [redacted:custom]',
    })
    expect(prompt.recalled.length).toBeLessThanOrEqual(
      require('../../openclaw.plugin.json').configSchema.properties.reloadRecall.default,
    )
    expect(turn.text).not.toContain('ACME-7f3a9c2e1b')
    // The excerpt is the last 25 entries, as without recall.
    expect(prompt.excerpt).toHaveLength(25)
    // The index is kept beside the log, private.
    const index = path.join(world.dir, 'chat', 'perpetual-log.jsonl.search-index')
    expect(fs.statSync(index).mode & 0o777).toBe(0o600)
  })

  test("another chat's reload at the same time gets nothing of the first chat's log", () => {
    const turn = turns.find((t) => t.sessionKey === OTHER)
    const prompt = parsePrompt(turn.text)
    expect(prompt.reload).toBe(true)
    expect(turn.text).not.toContain('Postgres')
    expect(turn.text).not.toContain('Which engine')
  })
})
