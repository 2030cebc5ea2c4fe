'use strict'
// A gateway set up as the persistent-chat runtime was (PERSISTENT_CHAT_CONTINUITY_PATH naming
// continuity-summary.txt, the log and the last prompt beside it) keeps using those files with no
// new setting; the plugin's own folder settings win over it (plugin/config.mjs, in child processes).
const fs = require('node:fs')
const path = require('node:path')

const { runPlugin, tempDir } = require('./fixtures/plugin-unit')

jest.setTimeout(60000)

let dir
beforeEach(() => {
  dir = tempDir('plugin-runtime')
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

/** The files two session keys get, and the folder openSessionFolder opens, for `pluginConfig`. */
function filesFor(pluginConfig, env) {
  return runPlugin(
    `
    const { resolveConfig } = await u.importPlugin("config.mjs");
    const { sessionFiles, openSessionFolder } = await u.importPlugin("state-files.mjs");
    const config = resolveConfig(${JSON.stringify(pluginConfig)}, ${JSON.stringify(path.join(dir, 'openclaw-state'))});
    const opened = await openSessionFolder(config, "agent:codex:acp:a");
    return {
      a: sessionFiles(config, "agent:codex:acp:a"),
      b: sessionFiles(config, "agent:codex:acp:b"),
      opened: opened.files,
      runtime: config.runtimeFiles ?? null,
    };`,
    { env },
  )
}

test("the runtime's files are every chat's when the plugin names no folder; nothing moves", () => {
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
  expect(got.a).toEqual(expected)
  expect(got.b).toEqual(expected)
  expect(got.opened).toEqual(expected)
  expect(got.runtime).toEqual({ dir: runtime, summary: summaryFile, why: 'PERSISTENT_CHAT_CONTINUITY_PATH' })
  expect(fs.readFileSync(path.join(runtime, 'perpetual-log.jsonl'), 'utf8')).toBe(log)
  expect(fs.existsSync(path.join(dir, 'openclaw-state'))).toBe(false)
})

test('a summary file of another name is used under its own name', () => {
  const summaryFile = path.join(dir, 'chat', 'summary-for-dana.txt')
  const got = filesFor({}, { PERSISTENT_CHAT_CONTINUITY_PATH: summaryFile })
  expect(got.a.summary).toBe(summaryFile)
  expect(got.a.log).toBe(path.join(dir, 'chat', 'perpetual-log.jsonl'))
})

test.each([
  ['stateDir', (d) => ({ stateDir: path.join(d, 'own') })],
  ['sessionStateDirs', (d) => ({ sessionStateDirs: { 'agent:codex:acp:a': path.join(d, 'fixed') } })],
])('the plugin setting %s wins over the variable', (_name, settings) => {
  const got = filesFor(settings(dir), {
    PERSISTENT_CHAT_CONTINUITY_PATH: path.join(dir, 'runtime', 'continuity-summary.txt'),
  })
  expect(got.runtime).toBe(null)
  expect(got.a.dir).not.toBe(path.join(dir, 'runtime'))
})

test('without the variable, each chat has its own folder under the default stateDir', () => {
  const got = filesFor({}, { PERSISTENT_CHAT_CONTINUITY_PATH: '' })
  expect(got.runtime).toBe(null)
  expect(path.dirname(got.a.dir)).toBe(path.join(dir, 'openclaw-state', 'openclaw-context-native'))
  expect(got.a.dir).not.toBe(got.b.dir)
})
