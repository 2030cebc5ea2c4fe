'use strict'
// Which dispatches reach the plugin's reply_dispatch handler. From 2026.8.2 a handler can ask for
// some dispatch kinds only (`eligibleDispatchKinds`), and OpenClaw then runs no such handler for
// the others: the plugin asks for `acp`. Before 2026.8.2 the option is not kept, every dispatch
// reaches the handler, and the handler passes a non-ACP one through itself.
const {
  RELEASES,
  PLUGIN_ID,
  backendTurns,
  createWorld,
  readRecord,
  parsePrompt,
  removeWorld,
  runGateway,
} = require('./plugin-harness')

const CHAT = 'agent:codex:acp:kinds-chat'
const PLAIN = 'agent:main:webchat-kinds-plain'
const filtersKinds = (release) => release.filtersDispatchKinds

describe.each(RELEASES)('OpenClaw $name', (release) => {
  let world
  let alone
  let run

  beforeAll(() => {
    world = createWorld(`kinds-${release.name}`, release)
    // The plugin alone (no fake acpx): the hook runner's own check before any reply_dispatch handler runs.
    alone = runGateway(
      world,
      [
        { op: 'replyDispatchHooks', pluginId: PLUGIN_ID },
        { op: 'hasHooks', hookName: 'reply_dispatch', ctx: { dispatchKind: 'agent' } },
        { op: 'hasHooks', hookName: 'reply_dispatch', ctx: { dispatchKind: 'acp' } },
      ],
      { pluginDirs: [world.pluginDir] },
    )
    runGateway(world, [
      { op: 'create', sessionKey: CHAT },
      { op: 'create', sessionKey: PLAIN, acp: false },
    ])
    run = runGateway(world, [
      { op: 'turn', sessionKey: PLAIN, text: 'hello, plain session' },
      { op: 'turn', sessionKey: CHAT, text: 'hello, ACP session' },
    ])
  })

  afterAll(() => removeWorld(world))

  test(`its reply_dispatch handler is registered at priority 100${filtersKinds(release) ? ', for ACP dispatches only' : ' (this release keeps no dispatch kinds)'}`, () => {
    expect(alone.steps[0].hooks).toEqual([
      { priority: 100, eligibleDispatchKinds: filtersKinds(release) ? ['acp'] : null },
    ])
  })

  test(
    filtersKinds(release)
      ? 'OpenClaw runs it for an ACP dispatch, and for no other kind'
      : 'OpenClaw runs it for every dispatch kind',
    () => {
      expect({ agent: alone.steps[1].has, acp: alone.steps[2].has }).toEqual({
        agent: !filtersKinds(release),
        acp: true,
      })
    },
  )

  test('a non-ACP turn goes on untouched to OpenClaw; the ACP turn gets the prompt', () => {
    expect(run.steps.map((s) => s.error)).toEqual([undefined, undefined])
    const acpx = readRecord(world).filter((e) => e.type === 'acpx-reply-dispatch' && e.sessionKey === PLAIN)
    expect(acpx).toEqual([expect.objectContaining({ bodyForAgent: 'hello, plain session', handled: false })])
    const turns = backendTurns(world)
    expect(turns.map((t) => t.sessionKey)).toEqual([CHAT])
    expect(parsePrompt(turns[0].text).nonce).toMatch(/^[0-9a-f]{16}$/)
    expect(parsePrompt(turns[0].text).live).toBe('hello, ACP session')
    expect(run.pluginLines.filter((line) => line.includes(PLAIN))).toEqual([])
  })
})
