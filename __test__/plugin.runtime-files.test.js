'use strict'
// A gateway set up as the persistent-chat runtime was (PERSISTENT_CHAT_CONTINUITY_PATH naming
// continuity-summary.txt, the log and the last prompt beside it) keeps using those files with no
// new setting, for one chat only (the first to claim them, or those listed in sessionKeys): every
// other chat gets its own folder, so none sees another's history. The plugin's own folder
// settings win over the variable (plugin/config.mjs, state-files.mjs, in child processes).
const fs = require('node:fs')
const path = require('node:path')

const { runPlugin, tempDir } = require('./fixtures/plugin-unit')

jest.setTimeout(60000)

let dir
beforeEach(() => {
  dir = tempDir('plugin-runtime')
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

/** The files each key gets, opened in this order, for `pluginConfig`. */
function filesFor(pluginConfig, env, keys = ['agent:codex:acp:a', 'agent:codex:acp:b', 'agent:codex:acp:a']) {
  return runPlugin(
    `
    const { resolveConfig } = await u.importPlugin("config.mjs");
    const { openSessionFolder } = await u.importPlugin("state-files.mjs");
    const config = resolveConfig(${JSON.stringify(pluginConfig)}, ${JSON.stringify(path.join(dir, 'openclaw-state'))});
    const opened = [];
    for (const key of ${JSON.stringify(keys)}) opened.push((await openSessionFolder(config, key)).files);
    return { opened, runtime: config.runtimeFiles ?? null };`,
    { env },
  )
}

test("the runtime's files stay the first chat's; another chat gets its own folder; nothing moves", () => {
  const runtime = path.join(dir, 'persistent-chat')
  fs.mkdirSync(runtime)
  const log = `${JSON.stringify({ ts: '2026-05-15T09:00:00Z', role: 'user', text: 'kept', id: 'u1' })}\n`
  fs.writeFileSync(path.join(runtime, 'perpetual-log.jsonl'), log)
  const summaryFile = path.join(runtime, 'continuity-summary.txt')
  const got = filesFor({}, { PERSISTENT_CHAT_CONTINUITY_PATH: summaryFile })
  const expected = {
    dir: runtime,
    log: path.join(runtime, 'perpetual-log.jsonl'),
    summary: summaryFile,
    lastPrompt: path.join(runtime, 'last-injected-preprompt.txt'),
    memoryState: path.join(runtime, 'memory-state.json'),
  }
  const [a, b, aAgain] = got.opened
  expect(a).toEqual(expected)
  expect(aAgain).toEqual(expected)
  expect(path.dirname(b.dir)).toBe(path.join(dir, 'openclaw-state', 'openclaw-context-native'))
  expect(got.runtime).toEqual({ dir: runtime, summary: summaryFile, why: 'PERSISTENT_CHAT_CONTINUITY_PATH' })
  expect(fs.readFileSync(path.join(runtime, 'perpetual-log.jsonl'), 'utf8')).toBe(log)
  // After a restart, the claim holds: b never gets a's history, whoever comes first.
  const restarted = filesFor({}, { PERSISTENT_CHAT_CONTINUITY_PATH: summaryFile }, [
    'agent:codex:acp:b',
    'agent:codex:acp:a',
  ])
  expect(restarted.opened[0].dir).toBe(b.dir)
  expect(restarted.opened[1]).toEqual(expected)
})

test("with sessionKeys, the runtime files are the listed chats' and only theirs", () => {
  const summaryFile = path.join(dir, 'persistent-chat', 'continuity-summary.txt')
  const got = filesFor(
    { sessionKeys: ['agent:codex:acp:b', 'agent:codex:acp:c*'], agents: ['codex'] },
    { PERSISTENT_CHAT_CONTINUITY_PATH: summaryFile },
    ['agent:codex:acp:a', 'agent:codex:acp:b', 'agent:codex:acp:c1'],
  )
  const [a, b, c1] = got.opened
  expect(b.dir).toBe(path.dirname(summaryFile))
  expect(c1.dir).toBe(path.dirname(summaryFile))
  expect(path.dirname(a.dir)).toBe(path.join(dir, 'openclaw-state', 'openclaw-context-native'))
  expect(fs.existsSync(path.join(path.dirname(summaryFile), 'session-key-owner'))).toBe(false)
})

test('a summary file of another name is used under its own name', () => {
  const summaryFile = path.join(dir, 'chat', 'summary-for-dana.txt')
  const got = filesFor({}, { PERSISTENT_CHAT_CONTINUITY_PATH: summaryFile })
  expect(got.opened[0].summary).toBe(summaryFile)
  expect(got.opened[0].log).toBe(path.join(dir, 'chat', 'perpetual-log.jsonl'))
})

test.each([
  ['stateDir', (d) => ({ stateDir: path.join(d, 'own') })],
  ['sessionStateDirs', (d) => ({ sessionStateDirs: { 'agent:codex:acp:a': path.join(d, 'fixed') } })],
])('the plugin setting %s wins over the variable', (_name, settings) => {
  const got = filesFor(settings(dir), {
    PERSISTENT_CHAT_CONTINUITY_PATH: path.join(dir, 'runtime', 'continuity-summary.txt'),
  })
  expect(got.runtime).toBe(null)
  expect(got.opened[0].dir).not.toBe(path.join(dir, 'runtime'))
})

test('without the variable, each chat has its own folder under the default stateDir', () => {
  const got = filesFor({}, { PERSISTENT_CHAT_CONTINUITY_PATH: '' })
  expect(got.runtime).toBe(null)
  expect(path.dirname(got.opened[0].dir)).toBe(path.join(dir, 'openclaw-state', 'openclaw-context-native'))
  expect(got.opened[0].dir).not.toBe(got.opened[1].dir)
})
