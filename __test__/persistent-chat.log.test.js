'use strict'
// readPersistentChatLogEntries from JavaScript: what the binding adds. The
// log's rules (which lines are entries, aliases, garbage and torn lines
// skipped, CRLF, the tail read from the end, the limit) are tested in
// crates/core/tests/log.rs; here: entries as JS objects (their own keys, a
// numeric ts, a numeric id as String(number)), exact UTF-16 round trips, the
// limit as a JS number, and files: missing, a directory, a FIFO, bad
// arguments.
//
// Addon errors come from the main realm, not jest's sandbox, so they are
// matched on `name`/`code`/`message`, never with `instanceof`.

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { posixTest } = require('./fixtures/platform.js')
const { spawnSync, execFileSync } = require('node:child_process')
const native = require('../index.js')
const { useTempDir, writeLog, thrown, user, expectTypeError, conversation } = require('./fixtures/chat.js')

const { readPersistentChatLogEntries: readLog } = native
const tmp = useTempDir()
const tmpFile = (name) => tmp.file(name)

describe('readPersistentChatLogEntries', () => {
  test('smoke: the last `limit` entries, oldest first, equal to the objects written; Infinity reads them all', () => {
    const file = tmpFile()
    const entries = conversation(10)
    writeLog(file, entries)
    expect(readLog(file, 3)).toEqual(entries.slice(-3))
    expect(readLog(file, Infinity)).toEqual(entries)
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
    writeLog(file, [written, { role: 'system', text: 'numeric time', ts: 1778839200000 }])
    const [entry, numeric] = readLog(file, 5)
    // A numeric ts stays a number; absent fields are absent, not undefined.
    expect(numeric).toStrictEqual({ role: 'system', text: 'numeric time', ts: 1778839200000 })
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

  test('a numeric id comes back as the string JavaScript prints', () => {
    const file = tmpFile()
    writeLog(file, [user('a', { id: 42 }), user('b', { id: 1.5 })])
    expect(readLog(file, 5).map((e) => e.id)).toEqual(['42', '1.5'])
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

// `maxEntryChars`: each entry's text cut in Rust as its line is read (a `reloadEntries: 500`
// window of 8 MiB entries no longer reaches JavaScript whole), by the builders' rule, so
// that a prompt built from the cut entries is the prompt built from the whole ones.
describe('readPersistentChatLogEntries with maxEntryChars', () => {
  const { readPersistentChatLogEntriesAsync: readLogAsync, buildPersistentChatInjectedPrompt: build } = native
  const big = (n, fill) => `${fill.repeat(Math.ceil(n / fill.length)).slice(0, n)}`

  test('an entry longer than the cap comes back cut at a grapheme boundary with what was left out; others whole; Async the same', async () => {
    const file = tmpFile()
    const entries = [user('short'), user(`${big(99, 'a')}e\u0301${big(200_000, 'x')}`), user(big(100, 'b'))]
    writeLog(file, entries)
    const expected = [
      entries[0],
      { ...entries[1], text: `${big(99, 'a')} … [200002 more characters cut]` }, // e + ◌́ is one grapheme
      entries[2],
    ]
    expect(readLog(file, 3, { maxEntryChars: 100 })).toEqual(expected)
    expect(await readLogAsync(file, 3, { maxEntryChars: 100 })).toEqual(expected)
    // No cap: as written (the default, and NaN, Infinity or <= 0 as the builders read them).
    for (const maxEntryChars of [undefined, Number.NaN, Infinity, 0, -5])
      expect(readLog(file, 3, { maxEntryChars })).toEqual(entries)
  })

  test('a prompt from entries read with the cap is the prompt from entries read whole (the same or a larger builder cap)', () => {
    const file = tmpFile()
    const entries = [
      user(big(30_000, 'long line of text ')),
      { role: 'assistant', text: big(9_000, '👩‍💻 '), session: 'ses_B', status: 'ok' },
      user(big(8_001, 'y')),
      user('Are you there?'),
    ]
    writeLog(file, entries)
    const whole = readLog(file, 10)
    for (const [readCap, buildCap] of [
      [8000, undefined], // the builder's default, 8000: what the plugin reads with
      [8000, 8000],
      [8000, 500],
      [1000, 999],
    ]) {
      const cut = readLog(file, 10, { maxEntryChars: readCap })
      // One nonce for both builds: the fence draws a new one per prompt otherwise.
      const params = { userMessage: 'Hi', reload: true, maxEntryChars: buildCap, nonce: '0123456789abcdef' }
      expect([readCap, buildCap, build({ ...params, logEntries: cut })]).toEqual([
        readCap,
        buildCap,
        build({ ...params, logEntries: whole }),
      ])
    }
  })

  test("the plugin's reader (ChatStore.readTurnWindow) cuts at the builder's default: its prompts are unchanged", async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-window-'))
    fs.chmodSync(folder, 0o700)
    const store = await native.ChatStore.open({ folder })
    writeLog(store.logPath, [user(big(50_000, 'pasted log line\n')), user('Are you there?')])
    fs.chmodSync(store.logPath, 0o600)
    const { entries } = await store.readTurnWindow(50)
    const whole = readLog(store.logPath, 50)
    const prompt = (logEntries) => build({ userMessage: 'Hi', reload: true, logEntries, nonce: '0123456789abcdef' })
    expect(entries[0].text.length).toBeLessThan(8050)
    expect(entries[1].text).toBe('Are you there?')
    expect(prompt(entries)).toBe(prompt(whole))
  })

  test.each([['5'], [true], [{}], [5n]])('maxEntryChars %p → TypeError naming it', (maxEntryChars) => {
    const file = tmpFile()
    writeLog(file, [user('a')])
    expectTypeError(() => readLog(file, 1, { maxEntryChars }), 'options.maxEntryChars')
  })
})
