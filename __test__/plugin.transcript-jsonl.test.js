'use strict'
// The plugin's JSON Lines transcript fix (plugin/transcript-jsonl.mjs) on files shaped as
// OpenClaw 2026.4.27–2026.6 writes them: the user message of the last ACP turn gets the live
// message back, nothing else changes, and what is not ours (another turn's message, a torn
// line, a link, a hard-linked file) is left alone. The module is ESM: each case runs in a
// child Node. The real gateway run is __test__/e2e/plugin.scenarios.test.js.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { onWindows } = require('./fixtures/platform.js')

// A file: URL, as an ESM import on Windows needs (a bare C:\\ or Z:\\ path is not one).
const MODULE = require('node:url').pathToFileURL(path.join(__dirname, '..', 'plugin', 'transcript-jsonl.mjs')).href
const PROMPT = '## Turn Metadata\n- channel: webchat\n\n--- LIVE TURN ---\nUse Postgres 16'
const LIVE = 'Use Postgres 16'

/** `rewriteTranscript(file, PROMPT, LIVE)` in a child Node: its result, or the error. */
function rewrite(file, prompt = PROMPT, live = LIVE) {
  const script = `import { rewriteTranscript } from ${JSON.stringify(MODULE)};
    rewriteTranscript(...JSON.parse(process.argv[1])).then((r) => process.stdout.write(r), (e) => { process.stdout.write("error: " + e.message); });`
  const result = spawnSync(
    process.execPath,
    ['--input-type=module', '-e', script, JSON.stringify([file, prompt, live])],
    { encoding: 'utf8' },
  )
  if (result.status !== 0) throw new Error(result.stderr)
  return result.stdout
}

const header = { type: 'session', version: 3, id: 'oc-chat', timestamp: '2026-12-01T22:00:00.000Z', cwd: '/w' }
const user = (id, content) => ({
  type: 'message',
  id,
  parentId: null,
  timestamp: '2026-12-01T22:00:01.000Z',
  message: { role: 'user', content, timestamp: 1 },
})
const assistant = (id, text) => ({
  type: 'message',
  id,
  parentId: 'u',
  timestamp: '2026-12-01T22:00:02.000Z',
  message: { role: 'assistant', content: [{ type: 'text', text }] },
})
const jsonl = (events) => `${events.map((e) => (typeof e === 'string' ? e : JSON.stringify(e))).join('\n')}\n`

let dir
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-transcript-jsonl-'))
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

function transcript(events, mode = 0o600) {
  const file = path.join(dir, 'oc-chat.jsonl')
  fs.writeFileSync(file, jsonl(events), { mode })
  fs.chmodSync(file, mode)
  return file
}

test('the last user message becomes the live message; every other line, and the mode, stay as they were', () => {
  const before = [
    header,
    user('u0', 'Set up the database'),
    assistant('a0', 'ok'),
    user('u1', PROMPT),
    assistant('a1', 'reply to: Use Postgres 16'),
  ]
  const file = transcript(before, 0o640)
  expect(rewrite(file)).toBe('restored')
  const lines = fs.readFileSync(file, 'utf8').split('\n')
  expect(lines.map((l) => (l ? JSON.parse(l) : l))).toEqual([
    ...before.slice(0, 3),
    { ...before[3], message: { ...before[3].message, content: LIVE } },
    before[4],
    '',
  ])
  // Windows keeps no POSIX mode: a writable file reads 0o666 before and after.
  expect(fs.statSync(file).mode & 0o777).toBe(onWindows ? 0o666 : 0o640)
  expect(fs.readdirSync(dir)).toEqual(['oc-chat.jsonl']) // no temporary file left
})

test('text parts: the first text part is replaced, what OpenClaw appended after the prompt stays', () => {
  const file = transcript([
    header,
    user('u1', [
      { type: 'image', data: 'x' },
      { type: 'text', text: `${PROMPT}\n[image: a.png]` },
    ]),
  ])
  expect(rewrite(file)).toBe('restored')
  const event = JSON.parse(fs.readFileSync(file, 'utf8').split('\n')[1])
  expect(event.message.content).toEqual([
    { type: 'image', data: 'x' },
    { type: 'text', text: `${LIVE}\n[image: a.png]` },
  ])
})

test("the latest user message is another turn's: nothing changes", () => {
  const text = jsonl([
    header,
    user('u1', PROMPT),
    assistant('a1', 'r'),
    user('u2', 'a message of someone else'),
    assistant('a2', 'r'),
  ])
  const file = transcript([])
  fs.writeFileSync(file, text)
  expect(rewrite(file)).toBe('none')
  expect(fs.readFileSync(file, 'utf8')).toBe(text)
})

test('a torn last line is skipped and kept as it is', () => {
  const file = transcript([header, user('u1', PROMPT), '{"type":"message","id":"a1","message":{"role":"assi'])
  expect(rewrite(file)).toBe('restored')
  const lines = fs.readFileSync(file, 'utf8').split('\n')
  expect(JSON.parse(lines[1]).message.content).toBe(LIVE)
  expect(lines[2]).toBe('{"type":"message","id":"a1","message":{"role":"assi')
})

test('a symbolic link, a hard-linked file or a missing file is left alone', () => {
  const file = transcript([header, user('u1', PROMPT)])
  const text = fs.readFileSync(file, 'utf8')
  const link = path.join(dir, 'link.jsonl')
  fs.symlinkSync(file, link)
  expect(rewrite(link)).toBe('none')
  const hard = path.join(dir, 'hard.jsonl')
  fs.linkSync(file, hard)
  expect(rewrite(file)).toBe('none')
  expect(fs.readFileSync(file, 'utf8')).toBe(text)
  expect(rewrite(path.join(dir, 'gone.jsonl'))).toBe('none')
})

test('a user message further back than the last lines is not searched for', () => {
  const tail = Array.from({ length: 10 }, (_, i) => assistant(`a${i}`, `r${i}`))
  const file = transcript([header, user('u1', PROMPT), ...tail])
  expect(rewrite(file)).toBe('none')
})

test('on a release without the SDK modules, they are looked for once, not at every turn', () => {
  const script = `import { createJsonlTranscriptFix } from ${JSON.stringify(MODULE)};
    let loads = 0;
    const fix = createJsonlTranscriptFix({ loadSdkModules: async () => { loads++; return undefined } });
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await fix.restore({ cfg: {}, sessionKey: 'agent:codex:acp:x', prompt: 'p', live: 'l' }));
    process.stdout.write(JSON.stringify({ loads, results }));`
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
  expect(result.stderr).toBe('')
  expect(JSON.parse(result.stdout)).toEqual({ loads: 1, results: ['none', 'none', 'none'] })
})
