'use strict'
// Continuity through every way a backend forgets, on each release of the plugin matrix, in real
// gateway processes with the fake ACP backend (fixtures/fake-acpx) sending each signal of a
// compaction: which signals reach the plugin (checked against plugin/backend-signals.mjs's
// per-release table), the refresh they cause (once, durable across a restart), the reload
// notice (on every unexpected fresh backend session, never on a first turn or after /new), the
// placeholder line, a backend that copies its injected history (no credential in it), and the
// backend's tool summaries in the log.
const path = require('node:path')

const {
  RELEASES,
  ROOT,
  backendTurns,
  createWorld,
  parsePrompt,
  pluginExports,
  readLog,
  removeWorld,
  runGateway,
} = require('./plugin-harness')

const { ChatStore, SecretMasker } = require(path.join(ROOT, 'index.js'))

/** The gateway config that shows the backend's tool calls and usage to the dispatcher. */
const SHOWN = {
  acp: { stream: { tagVisibility: { tool_call: true, tool_call_update: true, usage_update: true } } },
  agents: { defaults: { verboseDefault: 'on' } },
}
const REFRESH_WORDS = 'REFRESH CONTEXT (the backend compacted its context; restated from this chat'
const PLACEHOLDER = 'Masked spans such as [redacted:TYPE] are placeholders'

/** Lines of a prompt that carry its nonce and start with `words`. */
function structureLines(text, words) {
  const { nonce } = parsePrompt(text)
  return text.split('\n').filter((line) => line.includes(nonce) && line.replace(/^--- /, '').startsWith(words))
}

/** What kind a prompt is: reload, refresh or continuous, read from its structural lines. */
function kindOf(text) {
  const prompt = parsePrompt(text)
  if (prompt.reload) return 'reload'
  return structureLines(text, REFRESH_WORDS).length > 0 ? 'refresh' : 'continuous'
}

/** The reply text the person saw (the first text payload of the turn). */
const shownReply = (step) => step.delivered.find((d) => d.kind !== 'tool' && d.text)?.text ?? ''

describe.each(RELEASES)('OpenClaw $name', (release) => {
  let world
  const stateDir = () => path.join(world.dir, 'state')
  const config = () => ({ stateDir: stateDir() })
  const logOf = (sessionKey) => readLog(path.join(stateDir(), ChatStore.folderName(sessionKey), 'perpetual-log.jsonl'))
  const turnsOf = (sessionKey, from = 0) =>
    backendTurns(world)
      .filter((t) => t.sessionKey === sessionKey)
      .slice(from)

  beforeAll(() => {
    world = createWorld(`continuity-${release.name}`, release)
    const keys = ['shown', 'plain', 'restart', 'notice', 'masks'].map((name) => `agent:codex:acp:${name}`)
    runGateway(
      world,
      keys.map((sessionKey) => ({ op: 'create', sessionKey })),
      { pluginConfig: config() },
    )
  })
  afterAll(() => removeWorld(world))

  test('each signal of a compaction reaches the plugin as the release table says, and refreshes once', () => {
    const SHOWN_KEY = 'agent:codex:acp:shown'
    const PLAIN_KEY = 'agent:codex:acp:plain'
    const story = [
      ['hello', 'reload'],
      ['[compact:tool] compacting now', 'continuous'],
      ['after the tool call', 'refresh:tool_call'],
      ['and then', 'continuous'],
      ['[compact:text] old codex compacts', 'continuous'],
      ['after the text', 'refresh:agent_text'],
      ['[usage:150000] a big context', 'continuous'],
      ['[usage:20000] a small one', 'continuous'],
      ['after the drop', 'refresh:usage_drop'],
      ['[compact:update] a compaction_update', 'continuous'],
      ['after the update', 'refresh:compaction_update'],
      ['last', 'continuous'],
    ]
    const steps = (sessionKey) => [{ op: 'gatewayStart' }, ...story.map(([text]) => ({ op: 'turn', sessionKey, text }))]
    const shown = runGateway(world, steps(SHOWN_KEY), { pluginConfig: config(), configPatch: SHOWN })
    const plain = runGateway(world, steps(PLAIN_KEY), { pluginConfig: config() })

    const observe = (sessionKey) => {
      const kinds = turnsOf(sessionKey).map((turn) => kindOf(turn.text))
      expect(kinds).toHaveLength(story.length)
      return Object.fromEntries(
        story
          .map(([, expected], index) => [expected, kinds[index]])
          .filter(([expected]) => expected.startsWith('refresh:'))
          .map(([expected, kind]) => [expected.slice('refresh:'.length), kind === 'refresh']),
      )
    }
    const reachedShown = observe(SHOWN_KEY)
    const reachedPlain = observe(PLAIN_KEY)
    // Every other turn is what the story says: nothing refreshes without a signal, nothing twice.
    for (const sessionKey of [SHOWN_KEY, PLAIN_KEY]) {
      const kinds = turnsOf(sessionKey).map((turn) => kindOf(turn.text))
      story.forEach(([, expected], index) => {
        if (!expected.startsWith('refresh:')) expect([index, kinds[index]]).toEqual([index, expected])
      })
    }

    // The table the code holds for this release: the seam of each signal, or null.
    const { SIGNAL_SEAMS } = pluginExports('backend-signals.mjs', ['SIGNAL_SEAMS'])
    const seams = SIGNAL_SEAMS[release.name]
    const observed = Object.fromEntries(
      Object.keys(seams).map((signal) => {
        if (reachedPlain[signal]) return [signal, 'reply']
        if (reachedShown[signal]) return [signal, signal === 'usage_drop' ? 'statusPayload' : 'toolPayload']
        return [signal, null]
      }),
    )
    expect(observed).toEqual(seams)

    // A refresh prompt: its separator and the placeholder line once each, the summary, at most
    // 10 entries (refreshEntries' default), the live turn.
    const refresh = turnsOf(SHOWN_KEY)[2].text
    expect(structureLines(refresh, REFRESH_WORDS)).toHaveLength(1)
    expect(structureLines(refresh, PLACEHOLDER)).toHaveLength(1)
    const parsed = parsePrompt(refresh)
    expect(parsed.summary).toBeDefined()
    expect(parsed.excerpt.length).toBeGreaterThan(0)
    expect(parsed.excerpt.length).toBeLessThanOrEqual(10)
    expect(parsed.live).toBe('after the tool call')
    // The tool summaries shown to the dispatcher are in the log as tool entries, never in a prompt.
    const tools = logOf(SHOWN_KEY).filter((entry) => entry.role === 'tool')
    expect(tools.some((entry) => entry.text.includes('Compact conversation'))).toBe(true)
    for (const turn of turnsOf(SHOWN_KEY))
      expect(parsePrompt(turn.text).excerpt.map((e) => e.role)).not.toContain('tool')
    expect(logOf(PLAIN_KEY).filter((entry) => entry.role === 'tool')).toEqual([])
    // The start-up line once where no current backend's signal reaches the plugin, never where one does.
    const startLine = (out) => out.pluginLines.filter((line) => line.includes('passes plugins no compaction signal'))
    expect(new Set(startLine(plain)).size).toBe(1)
    expect(startLine(shown)).toEqual([])
    // One line per marked compaction.
    expect(shown.pluginLines.filter((line) => line.includes('compacted (')).length).toBeGreaterThanOrEqual(2)
    expect(plain.pluginLines.filter((line) => line.includes('compacted (agent_text)'))).toHaveLength(1)
    // Every reload or refresh prompt carries the placeholder line exactly once, a continuous one never.
    for (const turn of [...turnsOf(SHOWN_KEY), ...turnsOf(PLAIN_KEY)]) {
      const restores = kindOf(turn.text) !== 'continuous'
      expect([kindOf(turn.text), structureLines(turn.text, PLACEHOLDER).length]).toEqual([
        kindOf(turn.text),
        restores ? 1 : 0,
      ])
    }
  })

  test('a compaction seen before a gateway restart refreshes the first turn after it, once', () => {
    const KEY = 'agent:codex:acp:restart'
    runGateway(world, [{ op: 'turn', sessionKey: KEY, text: '[compact:text] before the restart' }], {
      pluginConfig: config(),
    })
    runGateway(world, [{ op: 'turn', sessionKey: KEY, text: 'after the restart' }], { pluginConfig: config() })
    runGateway(world, [{ op: 'turn', sessionKey: KEY, text: 'one more' }], { pluginConfig: config() })
    const kinds = turnsOf(KEY).map((turn) => kindOf(turn.text))
    expect(kinds).toEqual(['reload', 'refresh', 'continuous'])
  })

  test('a fresh backend session shows the notice on each unexpected one, never on a first turn or after /new', () => {
    const KEY = 'agent:codex:acp:notice'
    const turn = (text) => ({ op: 'turn', sessionKey: KEY, text })
    const first = runGateway(world, [turn('first'), turn('second')], { pluginConfig: config() })
    const lost = [1, 2, 3].map((n) =>
      runGateway(world, [turn(`after losing the session ${n}`)], { pluginConfig: config(), failResume: true }),
    )
    const reset = runGateway(world, [{ op: 'reset', sessionKey: KEY }, turn('after /new')], { pluginConfig: config() })
    const notices = (out) => out.steps.filter((s) => s.delivered).map((s) => shownReply(s).startsWith('ℹ️'))
    expect(notices(first)).toEqual([false, false])
    expect(lost.map((out) => notices(out)[0])).toEqual([true, true, true])
    expect(notices(reset)).toEqual([false])
    expect(shownReply(lost[0].steps[0])).toMatch(
      /^ℹ️ The backend started a new session; its context was restored from this chat's log \(\d+ entries and the continuity summary\)\.\n\n/,
    )
    // Never logged, never injected.
    const log = logOf(KEY)
    expect(log.some((entry) => entry.text.includes('The backend started a new session'))).toBe(false)
    for (const t of turnsOf(KEY)) expect(t.text.includes('The backend started a new session')).toBe(false)
  })

  test('a backend that copies its injected history gets placeholders, never a credential', () => {
    const KEY = 'agent:codex:acp:masks'
    const turn = (text) => ({ op: 'turn', sessionKey: KEY, text })
    const secrets = [
      'my token is ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      'aws AKIAABCDEFGHIJKLMNOP and sk-abcdefghijklmnopqrstuv',
      'api_key="s3cr3t-v4lue-123456"',
    ]
    runGateway(world, secrets.map(turn), { pluginConfig: config() })
    runGateway(world, [turn('[echo-prompt] what do you know?')], { pluginConfig: config(), failResume: true })
    const reload = turnsOf(KEY).at(-1)
    expect(kindOf(reload.text)).toBe('reload')
    expect(structureLines(reload.text, PLACEHOLDER)).toHaveLength(1)
    const injected = reload.text.slice(0, reload.text.lastIndexOf('--- LIVE TURN ')).split('\n')
    const masker = new SecretMasker()
    expect(injected.filter((line) => masker.mask(line) !== line)).toEqual([])
    expect(injected.join('\n')).toContain('[redacted:')
  })
})
