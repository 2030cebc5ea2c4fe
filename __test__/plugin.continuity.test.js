'use strict'
// Continuity through every way a backend forgets, through the plugin with no OpenClaw
// (plugin/persistent-chat.mjs with a fake `acp` SDK whose dispatch sends the tool payloads and
// reply text OpenClaw would): a compaction signal marks a refresh that the next turn carries
// once, across a restart too; the reload notice shows only on an unexpected fresh backend
// session and is never logged; the backend's tool summaries go to the log as `tool` entries;
// an 80-turn chat of ordinary tool calls and usage reports never refreshes. Also: no function
// of the plugin over 80 lines, and docs/plugin.md's signal table is the code's.
const fs = require('node:fs')
const path = require('node:path')

const { runPlugin, tempDir } = require('./fixtures/plugin-unit')

jest.setTimeout(120000)

const ROOT = path.join(__dirname, '..')
const KEY = 'agent:codex:acp:continuity'
const REFRESH = 'REFRESH CONTEXT (the backend compacted its context'
const NOTICE = "ℹ️ The backend started a new session; its context was restored from this chat's log"

let dir
beforeEach(() => {
  dir = tempDir('plugin-continuity')
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

/**
 * Runs turns through one chat (a "process"); each turn is `{ text, tools?, reply?, session?, command? }`:
 * the tool payload texts the dispatch sends, the reply it sends, the backend session it
 * reports. Returns per turn the prompt's kind, what the person saw, and the log after.
 */
function turns(list, { config = {}, restartAfter = [], search } = {}) {
  return runPlugin(`
    const { resolveConfig } = await u.importPlugin('config.mjs')
    const { createPersistentChat } = await u.importPlugin('persistent-chat.mjs')
    const { sessionFiles } = await u.importPlugin('state-files.mjs')
    const list = ${JSON.stringify(list)}
    const restartAfter = ${JSON.stringify(restartAfter)}
    const config = resolveConfig({ stateDir: ${JSON.stringify(dir)}, ...${JSON.stringify(config)} }, ${JSON.stringify(dir)})
    let current = {}
    const acp = u.createFakeAcp({
      onDispatch: async (event, ctx) => {
        for (const text of current.tools ?? []) ctx.dispatcher.sendToolResult({ text })
      },
      reply: (text) => current.reply ?? 'reply to: ' + u.liveMessageOf(text),
    })
    const logger = u.createLogger()
    let chat = createPersistentChat({ config, acp, logger })
    const out = []
    for (const [index, step] of list.entries()) {
      current = step
      acp.backendSession = step.session ?? 'be-1'
      acp.row = step.row
      const [event, hookCtx] = u.inbound(${JSON.stringify(KEY)}, step.text)
      const seen = []
      hookCtx.dispatcher.sendFinalReply = (payload) => { seen.push(payload.text); return true }
      if (step.reset) chat.onBeforeReset({}, { sessionKey: ${JSON.stringify(KEY)} })
      const before = acp.dispatches.length
      await chat.onReplyDispatch(event, hookCtx)
      const sent = acp.dispatches.slice(before).map((d) => d.text)
      const prompt = sent[0] ?? ''
      const nonce = /^Only lines with ([0-9a-f]{16}) are structure/.exec(prompt)?.[1]
      const kind = !prompt ? 'none'
        : prompt.includes('--- BOOTSTRAP CONTEXT (already resolved) ' + nonce) ? 'reload'
        : prompt.includes('--- ${REFRESH}') && prompt.split('\\n').some((l) => l.startsWith('--- ${REFRESH}') && l.includes(nonce)) ? 'refresh'
        : 'continuous'
      out.push({ kind, seen, prompt })
      if (restartAfter.includes(index)) chat = createPersistentChat({ config, acp, logger })
    }
    const files = sessionFiles(config, ${JSON.stringify(KEY)})
    const log = u.readLines(files.log).map((line) => JSON.parse(line))
    const { default: nodePath } = await import('node:path')
    const { default: nodeFs } = await import('node:fs')
    const { ChatStore } = await u.importPlugin('native.mjs')
    const query = ${JSON.stringify(search ?? null)}
    const hits = query ? await (await ChatStore.open({ folder: nodePath.dirname(files.log) })).search(query) : []
    return { out, log, hits, lines: logger.lines, folderFiles: nodeFs.readdirSync(nodePath.dirname(files.log)) }
  `)
}

const TOOL = (title, status = 'completed') => `🛠️ ${title} · status=${status}`

describe('a compaction signal refreshes the next turn, once', () => {
  test.each([
    [
      'the "Compact conversation" tool call',
      { tools: [TOOL('Compact conversation', 'in_progress'), TOOL('Compact conversation')] },
    ],
    ["older codex's reply line", { reply: "*Context compacted to fit the model's context window.*\n\nDone." }],
  ])('%s', (_name, signal) => {
    const { out, lines } = turns([{ text: 'hello' }, { text: 'work', ...signal }, { text: 'next' }, { text: 'then' }])
    expect(out.map((t) => t.kind)).toEqual(['reload', 'continuous', 'refresh', 'continuous'])
    const refresh = out[2].prompt
    const nonce = /^Only lines with ([0-9a-f]{16})/.exec(refresh)[1]
    expect(refresh.split('\n').filter((l) => l.includes(nonce) && l.startsWith('Masked spans such as'))).toHaveLength(1)
    expect(refresh).toContain(`## Rolling Continuity Summary ${nonce}`)
    expect(lines.filter((l) => l.msg.includes('compacted ('))).toHaveLength(1)
  })

  test('a drop of the reported context size by more than half', () => {
    const usage = (n) => ({ tools: [`⚙️ usage updated: ${n}/200000`] })
    const { out } = turns([
      { text: 'a', ...usage(90000) },
      { text: 'b', ...usage(120000) },
      { text: 'c', ...usage(61000) },
      { text: 'd', ...usage(30000) },
      { text: 'e' },
    ])
    expect(out.map((t) => t.kind)).toEqual(['reload', 'continuous', 'continuous', 'continuous', 'refresh'])
  })

  test('a compaction before a restart refreshes the first turn after it; the mark is a file of the chat', () => {
    const { out, folderFiles } = turns(
      [{ text: 'hello' }, { text: 'work', tools: [TOOL('Compact conversation')] }, { text: 'after' }, { text: 'more' }],
      { restartAfter: [1] },
    )
    expect(out.map((t) => t.kind)).toEqual(['reload', 'continuous', 'refresh', 'continuous'])
    expect(folderFiles).not.toContain('refresh-pending.json')
  })

  test('compactionRefresh off: no mark, no refresh', () => {
    const { out, folderFiles } = turns(
      [{ text: 'hello' }, { text: 'work', tools: [TOOL('Compact conversation')] }, { text: 'after' }],
      { config: { compactionRefresh: false } },
    )
    expect(out.map((t) => t.kind)).toEqual(['reload', 'continuous', 'continuous'])
    expect(folderFiles).not.toContain('refresh-pending.json')
  })

  test('a failed compaction, or the words in a message, refresh nothing', () => {
    const { out } = turns([
      { text: 'hello' },
      { text: 'x', tools: [TOOL('Compact conversation', 'failed')] },
      { text: "*Context compacted to fit the model's context window.*" },
      { text: 'y', reply: "It said *Context compacted to fit the model's context window.* once" },
      { text: 'z' },
    ])
    expect(out.map((t) => t.kind)).toEqual(['reload', 'continuous', 'continuous', 'continuous', 'continuous'])
  })
})

describe('the reload notice', () => {
  test('on an unexpected fresh backend session only: not the first turn, not after /new, never logged', () => {
    const { out, log } = turns([
      { text: 'first' },
      { text: 'second' },
      { text: 'lost', session: 'be-2' },
      { text: 'after', session: 'be-2' },
      { text: 'asked for', session: 'be-3', reset: true },
      { text: 'lost again', session: 'be-4' },
    ])
    expect(out.map((t) => t.kind)).toEqual(['reload', 'continuous', 'reload', 'continuous', 'reload', 'reload'])
    const noticed = out.map((t) => t.seen[0].startsWith(NOTICE))
    expect(noticed).toEqual([false, false, true, false, false, true])
    expect(out[2].seen[0]).toMatch(/\(\d+ entries and the continuity summary\)\.\n\nreply to: lost$/)
    expect(log.filter((e) => e.text.includes('The backend started a new session'))).toEqual([])
    for (const t of out) expect(t.prompt).not.toContain('The backend started a new session')
  })

  test('a session row OpenClaw started anew (a /new or reset, even across a restart) shows no notice', () => {
    const row = (sessionId, sessionStartedAt) => ({ sessionId, sessionStartedAt })
    const { out, folderFiles } = turns(
      [
        { text: 'first', row: row('oc-1', 1) },
        { text: 'lost', session: 'be-2', row: row('oc-1', 1) },
        { text: 'reset by 2026.6', session: 'be-3', row: row('oc-2', 1) },
        { text: 'reset by 2026.9', session: 'be-4', row: row('oc-2', 2) },
        { text: 'lost again', session: 'be-5', row: row('oc-2', 2) },
      ],
      { restartAfter: [1, 2, 3] },
    )
    expect(out.map((t) => t.kind)).toEqual(['reload', 'reload', 'reload', 'reload', 'reload'])
    expect(out.map((t) => t.seen[0].startsWith(NOTICE))).toEqual([false, true, false, false, true])
    expect(folderFiles).toContain('openclaw-session.json')
  })

  test('reloadNotice off: never', () => {
    const { out } = turns([{ text: 'first' }, { text: 'lost', session: 'be-2' }], { config: { reloadNotice: false } })
    expect(out.map((t) => t.seen[0].startsWith(NOTICE))).toEqual([false, false])
  })
})

describe("the backend's tool summaries in the log", () => {
  test('logged as tool entries (masked), never in an excerpt; off: not logged', () => {
    const tools = [TOOL('Read src/main.rs'), TOOL('Run cargo test with token ghp_abcdefghijklmnopqrstuvwxyz0123')]
    const on = turns([{ text: 'a', tools }, { text: 'b' }, { text: 'c', session: 'be-2' }], { search: 'main.rs' })
    // Searchable (chat_log_search and a reload's recall search the same index).
    expect(on.hits.map((hit) => hit.role)).toContain('tool')
    const entries = on.log.filter((e) => e.role === 'tool')
    expect(entries.map((e) => e.text)).toEqual([TOOL('Read src/main.rs'), expect.stringContaining('[redacted:')])
    expect(entries.every((e) => e.session === 'be-1' && /:tool:\d+$/.test(e.id))).toBe(true)
    for (const t of on.out) expect(t.prompt).not.toContain('Read src/main.rs')
    fs.rmSync(dir, { recursive: true, force: true })
    const off = turns([{ text: 'a', tools }], { config: { toolEntries: false } })
    expect(off.log.filter((e) => e.role === 'tool')).toEqual([])
  })
})

test('an 80-turn chat of ordinary tool calls and growing usage reports never refreshes', () => {
  const list = Array.from({ length: 80 }, (_, i) => ({
    text: `turn ${i}: edit the next module`,
    tools: [
      TOOL(`Read src/module_${i}.rs`),
      TOOL(`Edit src/module_${i}.rs`),
      `⚙️ usage updated: ${20000 + i * 1500}/200000`,
    ],
  }))
  const { out } = turns(list)
  expect(out.filter((t) => t.kind === 'refresh')).toEqual([])
  expect(out[0].kind).toBe('reload')
})

test('no function of the plugin is longer than 80 lines', () => {
  const long = []
  for (const file of fs.readdirSync(path.join(ROOT, 'plugin'), { recursive: true })) {
    if (!file.endsWith('.mjs')) continue
    const lines = fs.readFileSync(path.join(ROOT, 'plugin', file), 'utf8').split('\n')
    // A function starts at a declaration or a method/arrow at the start of a line and ends at
    // the first line after it that closes at its indentation.
    lines.forEach((line, start) => {
      const head =
        /^(\s*)(?:export\s+)?(?:async\s+)?(?:function\b|[\w$]+\s*\([^)]*\)\s*\{$|(?:const|let)\s+[\w$]+\s*=\s*(?:async\s*)?\([^)]*\)\s*=>\s*\{$)/.exec(
          line,
        )
      if (!head) return
      const indent = head[1]
      const end = lines.findIndex((l, i) => i > start && l.startsWith(`${indent}}`))
      if (end - start + 1 > 80) long.push(`${file}:${start + 1} (${end - start + 1} lines)`)
    })
  }
  expect(long).toEqual([])
})

test("docs/plugin.md's table of compaction signals is the code's, release by release", () => {
  const { SIGNAL_SEAMS, SIGNALS, SEAMS } = runPlugin(`
    const m = await u.importPlugin('backend-signals.mjs')
    return { SIGNAL_SEAMS: m.SIGNAL_SEAMS, SIGNALS: m.SIGNALS, SEAMS: m.SEAMS }
  `)
  const releases = require('../scripts/openclaw-releases.json').plugin.map((r) => r.version)
  expect(Object.keys(SIGNAL_SEAMS)).toEqual(releases)
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'plugin.md'), 'utf8')
  const table = doc.slice(doc.indexOf('| signal |'))
  const rows = table.split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| signal'))
  const cells = (row) =>
    row
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim())
  const header = cells(table.split('\n')[0]).slice(1)
  expect(header).toEqual(releases)
  const signals = Object.keys(SIGNALS)
  const body = rows.filter((row) => !/^\|\s*-/.test(row)).slice(0, signals.length)
  expect(body.map((row) => cells(row)[0])).toEqual(signals.map((s) => `\`${s}\``))
  for (const [index, signal] of signals.entries()) {
    const row = cells(body[index]).slice(1)
    releases.forEach((release, i) => {
      const seam = SIGNAL_SEAMS[release][signal]
      expect([signal, release, row[i]]).toEqual([signal, release, seam ? `yes: ${seam}` : 'no'])
    })
  }
  expect(Object.keys(SEAMS).every((seam) => doc.includes(`\`${seam}\``))).toBe(true)
})

test('the start-up line: said on a release and config that pass no current signal, not when tool summaries are shown', () => {
  const { plain, shown, unknown } = runPlugin(`
    const { compactionSignalLine } = await u.importPlugin('backend-signals.mjs')
    const shownConfig = { acp: { stream: { tagVisibility: { tool_call_update: true } } }, agents: { defaults: { verboseDefault: 'on' } } }
    return {
      plain: compactionSignalLine('p', '2026.9.6', {}),
      shown: compactionSignalLine('p', '2026.9.6', shownConfig) ?? null,
      unknown: compactionSignalLine('p', '2026.3.1', {}) ?? null,
    }
  `)
  expect(plain).toMatch(/^p: OpenClaw 2026\.9\.6 passes plugins no compaction signal/)
  expect(plain).toContain('session.compaction')
  expect(shown).toBeNull()
  expect(unknown).toBeNull()
})
