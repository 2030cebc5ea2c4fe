'use strict'
// readPersistentChatLogEntries from JavaScript, rule by rule (SPEC § Perpetual
// log, readPersistentChatLogEntries, Errors): the last entries of a JSON
// Lines file, garbage and torn lines skipped, exotic text kept, read from the
// end, non-regular files refused.
//
// Addon errors come from the main realm, not jest's sandbox, so they are
// matched on `name`/`code`/`message`, never with `instanceof`.

const fs = require('node:fs')
const path = require('node:path')
const { posixTest } = require('./fixtures/platform.js')
const { spawnSync, execFileSync } = require('node:child_process')
const native = require('../index.js')
const {
  useTempDir,
  writeLog,
  appendRaw,
  thrown,
  user,
  assistant,
  expectTypeError,
  conversation,
} = require('./fixtures/chat.js')

const { readPersistentChatLogEntries: readLog } = native
const tmp = useTempDir()
const tmpFile = (name) => tmp.file(name)

function writeLogAppend(file, entries) {
  for (const entry of entries) fs.appendFileSync(file, `${JSON.stringify(entry)}\n`)
}

describe('readPersistentChatLogEntries', () => {
  test('returns the last `limit` valid entries, oldest first', () => {
    const file = tmpFile()
    const entries = conversation(10)
    writeLog(file, entries)
    expect(readLog(file, 3).map((e) => e.id)).toEqual(['id7', 'id8', 'id9'])
    expect(readLog(file, 1).map((e) => e.id)).toEqual(['id9'])
    expect(readLog(file, 10).map((e) => e.id)).toEqual(entries.map((e) => e.id))
    expect(readLog(file, 1000)).toEqual(entries)
    expect(readLog(file, Infinity)).toHaveLength(10)
  })

  test('entries come back with exactly the written fields; unknown fields are ignored', () => {
    const file = tmpFile()
    const written = {
      ts: '2026-05-15T10:00:00Z',
      role: 'assistant',
      text: 'Deployed.',
      session: 'ses_1',
      status: 'ACP_TURN_FAILED',
      id: 'e-1',
      model: 'gpt-x',
      tokens: 12,
    }
    writeLog(file, [written])
    const [entry] = readLog(file, 5)
    expect(entry).toEqual({
      ts: '2026-05-15T10:00:00Z',
      role: 'assistant',
      text: 'Deployed.',
      session: 'ses_1',
      status: 'ACP_TURN_FAILED',
      id: 'e-1',
    })
    expect(entry).not.toHaveProperty('model')
  })

  test('aliases content / timestamp / sessionId are read as text / ts / session', () => {
    const file = tmpFile()
    writeLog(file, [
      { role: 'user', content: 'via content', timestamp: '2026-05-15T09:00:00Z', sessionId: 'ses_9' },
      { role: 'system', content: 'numeric time', timestamp: 1778839200000 },
    ])
    const entries = readLog(file, 10)
    expect(entries).toEqual([
      { role: 'user', text: 'via content', ts: '2026-05-15T09:00:00Z', session: 'ses_9' },
      { role: 'system', text: 'numeric time', ts: 1778839200000 },
    ])
    expect(entries[0]).not.toHaveProperty('content')
    expect(entries[0]).not.toHaveProperty('timestamp')
    expect(entries[0]).not.toHaveProperty('sessionId')
  })

  test('a numeric id comes back as the string JavaScript prints', () => {
    const file = tmpFile()
    writeLog(file, [user('a', { id: 42 }), user('b', { id: 1.5 })])
    expect(readLog(file, 5).map((e) => e.id)).toEqual(['42', '1.5'])
  })

  test('garbage lines, entries without role/text, unknown roles and a torn last line are skipped', () => {
    const file = tmpFile()
    writeLog(file, [
      user('first', { id: 'a' }),
      'this is not json',
      '{"role":"user"',
      '{"role":"user"}',
      '{"text":"no role here"}',
      '{"role":"robot","text":"unknown role"}',
      '{"role":"user","text":42}',
      '[1,2,3]',
      '',
      assistant('second', 'ok', { id: 'b' }),
    ])
    appendRaw(file, '{"role":"user","text":"half writ') // an append in progress
    expect(readLog(file, 10).map((e) => e.text)).toEqual(['first', 'second'])
    // The skipped lines do not cost entries: limit 2 still finds both.
    expect(readLog(file, 2).map((e) => e.text)).toEqual(['first', 'second'])
    // Once the writer finishes the line, it is an entry.
    appendRaw(file, 'ten"}\n')
    expect(readLog(file, 10).map((e) => e.text)).toEqual(['first', 'second', 'half written'])
  })

  test('a complete JSON object on an unterminated last line is still an append in progress', () => {
    const file = tmpFile()
    writeLog(file, [user('kept')])
    appendRaw(file, JSON.stringify(user('not yet terminated')))
    expect(readLog(file, 10).map((e) => e.text)).toEqual(['kept'])
  })

  test('CRLF line endings are read; CR/LF inside a text are kept', () => {
    const file = tmpFile()
    writeLog(file, [user('one'), assistant('two\r\nlines'), user('three')], { eol: '\r\n' })
    expect(readLog(file, 10).map((e) => e.text)).toEqual(['one', 'two\r\nlines', 'three'])
    expect(readLog(file, 1).map((e) => e.text)).toEqual(['three'])
  })

  test('lone surrogates written by JSON.stringify and other exotic text round-trip exactly', () => {
    const file = tmpFile()
    const texts = ['\ud800', 'a\udc00b', 'x\ud83d', '😀👨‍👩‍👧🇫🇷', 'e\u0301 漢字 NUL\u0000byte', '\u2028sep\u2029']
    writeLog(
      file,
      texts.map((text) => user(text)),
    )
    expect(fs.readFileSync(file, 'utf8')).toContain('\\ud800')
    const back = readLog(file, 10).map((e) => e.text)
    expect(back).toEqual(texts)
    back.forEach((text, i) => {
      expect(text.length).toBe(texts[i].length)
    })
  })

  test('limit 0 gives an empty array', () => {
    const file = tmpFile()
    writeLog(file, conversation(3))
    expect(readLog(file, 0)).toEqual([])
  })

  test('an empty file gives an empty array', () => {
    const file = tmpFile()
    fs.writeFileSync(file, '')
    expect(readLog(file, 5)).toEqual([])
  })

  test('reads from the end: a 4 GiB (sparse) log answers a small limit at once', () => {
    const file = tmpFile()
    fs.writeFileSync(file, '')
    fs.truncateSync(file, 2 ** 32)
    appendRaw(file, '\n')
    writeLogAppend(file, [user('e0'), user('e1'), user('e2')])
    const started = Date.now()
    expect(readLog(file, 3).map((e) => e.text)).toEqual(['e0', 'e1', 'e2'])
    expect(Date.now() - started).toBeLessThan(2000)
    fs.unlinkSync(file)
  })

  test('a missing file throws ENOENT with code and path', () => {
    const file = path.join(tmp.dir, 'does-not-exist.jsonl')
    const error = thrown(() => readLog(file, 5))
    expect(error).toEqual(expect.objectContaining({ code: 'ENOENT', path: file }))
    expect(error.message).toContain('ENOENT')
    expect(error.message).toContain(file)
    expect(error.name).toBe('Error')
  })

  test('a directory is refused with ENOTREGULAR', () => {
    const error = thrown(() => readLog(tmp.dir, 5))
    expect(error).toEqual(expect.objectContaining({ code: 'ENOTREGULAR', path: tmp.dir }))
    expect(error.message).toContain(tmp.dir)
  })

  posixTest('Windows has no FIFOs (the directory case above covers non-regular files there)')(
    'a FIFO is refused at once with ENOTREGULAR (never opened for a blocking read)',
    () => {
      const fifo = path.join(tmp.dir, 'log.fifo')
      execFileSync('mkfifo', [fifo])
      // In a child process: a hang there cannot hang the jest worker.
      const script = `
        const n = require(${JSON.stringify(path.resolve(__dirname, '..'))});
        const out = {};
        try { n.readPersistentChatLogEntries(${JSON.stringify(fifo)}, 5); out.read = 'no error' }
        catch (e) { out.read = { code: e.code, path: e.path, message: e.message } }
        try { n.buildPersistentChatInjectedPrompt({ userMessage: 'x', reload: true, logPath: ${JSON.stringify(fifo)} }); out.prompt = 'no error' }
        catch (e) { out.prompt = { code: e.code, path: e.path } }
        try { n.rebuildPersistentChatContinuitySummary({ logPath: ${JSON.stringify(fifo)} }); out.summary = 'no error' }
        catch (e) { out.summary = { code: e.code, path: e.path } }
        try { n.rebuildPersistentChatContinuitySummary({ statePath: ${JSON.stringify(fifo)} }); out.state = 'no error' }
        catch (e) { out.state = { code: e.code, path: e.path } }
        process.stdout.write(JSON.stringify(out));
      `
      const started = Date.now()
      const child = spawnSync(process.execPath, ['-e', script], { timeout: 4000, encoding: 'utf8' })
      expect(child.error).toBeUndefined()
      expect(child.signal).toBeNull()
      expect(Date.now() - started).toBeLessThan(4000)
      const out = JSON.parse(child.stdout)
      expect(out.read).toEqual(expect.objectContaining({ code: 'ENOTREGULAR', path: fifo }))
      expect(out.read.message).toContain(fifo)
      expect(out.prompt).toEqual({ code: 'ENOTREGULAR', path: fifo })
      expect(out.summary).toEqual({ code: 'ENOTREGULAR', path: fifo })
      expect(out.state).toEqual({ code: 'ENOTREGULAR', path: fifo })
    },
    10_000,
  )

  test.each([
    ['path', [1, 5]],
    ['path', [null, 5]],
    ['path', [undefined, 5]],
    ['path', [{}, 5]],
    ['limit', ['/tmp/x.jsonl', '5']],
    ['limit', ['/tmp/x.jsonl', undefined]],
    ['limit', ['/tmp/x.jsonl', null]],
    ['limit', ['/tmp/x.jsonl', 5n]],
  ])('wrong type → TypeError naming %s (%p)', (name, args) => {
    expectTypeError(() => readLog(...args), name)
  })

  test.each([-1, -0.5, -Infinity])('limit %p → RangeError', (limit) => {
    const file = tmpFile()
    writeLog(file, [user('a')])
    const error = thrown(() => readLog(file, limit))
    expect(error).toEqual(expect.objectContaining({ name: 'RangeError', code: 'ERR_OUT_OF_RANGE' }))
    expect(error.message).toContain('"limit"')
  })
})
