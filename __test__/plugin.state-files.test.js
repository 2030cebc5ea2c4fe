'use strict'
// The plugin's state files with no OpenClaw (plugin/state-files.mjs over the addon's ChatStore,
// in child processes): private modes set at creation, a refusal (ENOTREGULAR) of every path
// that is not a regular file of its own (no hang on a FIFO), appends that survive a torn line
// and never interleave across processes, and folder names of 128 bits over the key's UTF-16
// units that keep an earlier release's history.
const { spawn, execFileSync } = require('node:child_process')
const fs = require('node:fs')
const net = require('node:net')
const path = require('node:path')

const native = require('..')
const { runPlugin, tempDir } = require('./fixtures/plugin-unit')

// Each spec runs child processes; on a loaded machine they can take seconds.
jest.setTimeout(60000)

const platform = require('./fixtures/platform.js')
// File modes: not on Windows, and not through WASI (it has none).
const POSIX = process.platform !== 'win32' && !platform.onWasi
const posixTest = platform.posixTest('POSIX modes, FIFOs, sockets and links')
const { testUnless, underWine } = platform
const KEY = 'agent:codex:acp:state-files'

let dir
beforeEach(() => {
  dir = tempDir('plugin-state')
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

const mode = (file) => (fs.lstatSync(file).mode & 0o777).toString(8)

/** openSessionFolder(KEY) under `dir`; the refusal's { code, path, message } if it throws. */
function openFolder(extraConfig = {}) {
  return runPlugin(`
    const { resolveConfig } = await u.importPlugin("config.mjs");
    const { openSessionFolder } = await u.importPlugin("state-files.mjs");
    const config = resolveConfig({ stateDir: ${JSON.stringify(dir)}, ...${JSON.stringify(extraConfig)} }, "/unused");
    try {
      const { files, migratedFrom } = await openSessionFolder(config, ${JSON.stringify(KEY)});
      return { files, migratedFrom };
    } catch (error) {
      return { error: { code: error.code, path: error.path, message: error.message } };
    }`)
}

const openFolderAt = (chatDir) => openFolder({ sessionStateDirs: { [KEY]: chatDir } })

/**
 * Appends `entries` through a ChatStore opened on the log's folder first, then `before` (a
 * script run between the open and the appends: what it plants there is met by the append's
 * own checks on its handle).
 */
function append(logPath, entries, { durable = true, before = '' } = {}) {
  return runPlugin(`
    const { ChatStore } = await u.importPlugin("native.mjs");
    let store;
    try {
      store = await ChatStore.open({ folder: ${JSON.stringify(path.dirname(logPath))} });
    } catch (error) {
      return [{ error: { code: error.code, path: error.path, message: error.message } }];
    }
    ${before}
    const results = [];
    for (const entry of ${JSON.stringify(entries)}) {
      try {
        results.push(await store.appendEntry(entry, { sync: ${durable} }));
      } catch (error) {
        results.push({ error: { code: error.code, path: error.path, message: error.message } });
      }
    }
    return results;`)
}

/** What a refusal of `kind` looks like: ENOTREGULAR, the path, the kind in its words. */
const refusal = (kind, file) =>
  expect.objectContaining({
    code: 'ENOTREGULAR',
    message: expect.stringContaining(`(${kind})`),
    ...(file ? { path: file } : {}),
  })

describe('private by default', () => {
  posixTest('a new folder is 0700 and its files 0600 under umask 022 (and 000)', () => {
    for (const umask of [0o022, 0o000]) {
      const root = path.join(dir, `umask-${umask}`)
      const { files } = runPlugin(
        `
        const { resolveConfig } = await u.importPlugin("config.mjs");
        const { openSessionFolder } = await u.importPlugin("state-files.mjs");
        const config = resolveConfig({ stateDir: ${JSON.stringify(root)} }, "/unused");
        const { files, store } = await openSessionFolder(config, ${JSON.stringify(KEY)});
        await store.appendEntry({ role: "user", text: "hi" });
        await store.replaceSummary("summary");
        await store.replaceLastPrompt("prompt");
        return { files };`,
        { umask },
      )
      expect(mode(root)).toBe('700')
      expect(mode(files.dir)).toBe('700')
      expect([mode(files.log), mode(files.summary), mode(files.lastPrompt)]).toEqual(['600', '600', '600'])
      expect(mode(path.join(files.dir, 'chat.lock'))).toBe('600')
      expect(fs.readdirSync(files.dir).sort()).toEqual([
        'chat.lock',
        'continuity-summary.txt',
        'last-injected-preprompt.txt',
        'perpetual-log.jsonl',
      ])
    }
  })

  posixTest('existing folders and files others can read are named, and left as they are', () => {
    const chat = path.join(dir, 'old-chat-0123456789')
    fs.mkdirSync(chat, { mode: 0o755 })
    fs.chmodSync(chat, 0o755)
    fs.writeFileSync(path.join(chat, 'perpetual-log.jsonl'), '')
    fs.chmodSync(path.join(chat, 'perpetual-log.jsonl'), 0o644)
    fs.chmodSync(dir, 0o700)
    const own = path.join(dir, 'private-chat')
    fs.mkdirSync(own, { mode: 0o700 })
    fs.writeFileSync(path.join(own, 'perpetual-log.jsonl'), '', { mode: 0o600 })
    const wide = runPlugin(`
      const { findWideModes } = await u.importPlugin("state-files.mjs");
      return findWideModes(${JSON.stringify(dir)});`)
    expect(wide).toEqual([
      { path: chat, mode: '0755' },
      { path: path.join(chat, 'perpetual-log.jsonl'), mode: '0644' },
    ])
    expect(mode(chat)).toBe('755')
  })
})

describe('never a hang, never a file of someone else', () => {
  /**
   * The log path made into `kind` (`make(log)` here, `makeScript` in the appending process
   * after its store was opened); returns what openSessionFolder and an append said.
   */
  function refusalAtLog(make, makeScript) {
    const { files } = openFolder()
    const appended = append(files.log, [{ role: 'user', text: 'must not go anywhere' }], {
      before: makeScript(files.log),
    })[0]
    if (!fs.existsSync(files.log) && !isLink(files.log)) make(files.log)
    const opened = openFolder()
    return { files, opened, appended }
  }
  const isLink = (file) => {
    try {
      return fs.lstatSync(file).isSymbolicLink()
    } catch {
      return false
    }
  }
  const mkfifoScript = (log) => `(await import("node:child_process")).execFileSync("mkfifo", [${JSON.stringify(log)}]);`
  const symlinkScript = (target) => (log) =>
    `(await import("node:fs")).symlinkSync(${JSON.stringify(target)}, ${JSON.stringify(log)});`
  const linkScript = (other) => (log) =>
    `(await import("node:fs")).linkSync(${JSON.stringify(other)}, ${JSON.stringify(log)});`

  posixTest('a FIFO at the log path is refused at once (no open blocks on it)', () => {
    const { files, opened, appended } = refusalAtLog((log) => execFileSync('mkfifo', [log]), mkfifoScript)
    expect(opened.error).toEqual(refusal('FIFO', files.log))
    expect(appended.error).toEqual(refusal('FIFO', files.log))
  })

  posixTest('a FIFO with a reader holding it open is refused too, and nothing is written into it', async () => {
    const { files } = openFolder()
    execFileSync('mkfifo', [files.log])
    // A reader that keeps the FIFO open: the writer's open then succeeds; fstat refuses it.
    // `exec cat`: the process killed below is the one holding the FIFO and the pipe.
    const reader = spawn('sh', ['-c', `exec 3<>"${files.log}"; exec cat <&3`], { stdio: ['ignore', 'pipe', 'ignore'] })
    let received = ''
    reader.stdout.on('data', (chunk) => (received += chunk))
    await new Promise((resolve) => setTimeout(resolve, 200))
    try {
      // The store's own checks at open refuse it first; the append's on its handle are above.
      const [appended] = append(files.log, [{ role: 'user', text: 'secret' }])
      expect(appended.error).toEqual(refusal('FIFO'))
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(received).toBe('')
    } finally {
      reader.kill('SIGKILL')
      await new Promise((resolve) =>
        reader.exitCode !== null || reader.signalCode ? resolve() : reader.once('exit', resolve),
      )
    }
  })

  posixTest('a symlink at the log path is refused; the file it names is never written', () => {
    const target = path.join(dir, 'elsewhere.txt')
    fs.writeFileSync(target, 'untouched\n')
    const { opened, appended } = refusalAtLog((log) => fs.symlinkSync(target, log), symlinkScript(target))
    expect(opened.error).toEqual(refusal('symlink'))
    expect(appended.error).toEqual(refusal('symlink'))
    expect(fs.readFileSync(target, 'utf8')).toBe('untouched\n')
  })

  posixTest('a dangling symlink at the log path is refused, and nothing is created where it points', () => {
    const target = path.join(dir, 'created-through-link.jsonl')
    const { appended } = refusalAtLog((log) => fs.symlinkSync(target, log), symlinkScript(target))
    expect(appended.error).toEqual(refusal('symlink'))
    expect(fs.existsSync(target)).toBe(false)
  })

  posixTest('a hard-linked log is refused (another name could read or change it)', () => {
    const other = path.join(dir, 'other-name.jsonl')
    fs.writeFileSync(other, '')
    const { opened, appended } = refusalAtLog((log) => fs.linkSync(other, log), linkScript(other))
    expect(opened.error).toEqual(refusal('hard-linked file'))
    expect(appended.error).toEqual(refusal('hard-linked file'))
    expect(fs.readFileSync(other, 'utf8')).toBe('')
  })

  posixTest('a socket at the log path is refused', async () => {
    // A socket's path must be short (108 bytes): the folder as sessionStateDirs.
    const files = { dir: path.join(dir, 's'), log: path.join(dir, 's', 'perpetual-log.jsonl') }
    fs.mkdirSync(files.dir, { mode: 0o700 })
    const openFolder = () => openFolderAt(files.dir)
    const server = net.createServer().listen(files.log)
    await new Promise((resolve) => server.once('listening', resolve))
    try {
      expect(openFolder().error).toEqual(refusal('socket'))
      expect(append(files.log, [{ role: 'user', text: 'x' }])[0].error).toEqual(refusal('socket'))
    } finally {
      server.close()
    }
  })

  posixTest('a symlink, FIFO or hard link at the summary, last prompt or memory state is refused', () => {
    for (const name of ['continuity-summary.txt', 'last-injected-preprompt.txt', 'memory-state.json']) {
      const { files } = openFolder()
      const file = path.join(files.dir, name)
      for (const [make, kind] of [
        [() => fs.symlinkSync('/etc/hostname', file), 'symlink'],
        [() => execFileSync('mkfifo', [file]), 'FIFO'],
        [() => fs.linkSync(files.log, file), 'hard-linked file'],
      ]) {
        fs.writeFileSync(files.log, '', { mode: 0o600 })
        make()
        // A hard link makes the log one of two names as well: either may be named.
        expect([name, openFolder().error]).toEqual([name, refusal(kind)])
        fs.rmSync(file)
      }
    }
  })

  posixTest('a symlinked chat folder is refused, and so is a file where the folder belongs', () => {
    const { files } = openFolder()
    const real = path.join(dir, 'real-folder')
    fs.mkdirSync(real)
    fs.rmSync(files.dir, { recursive: true })
    fs.symlinkSync(real, files.dir)
    expect(openFolder().error).toEqual(refusal('symlink', files.dir))
    fs.rmSync(files.dir)
    fs.writeFileSync(files.dir, '')
    expect(openFolder().error).toEqual(
      expect.objectContaining({ code: 'ENOTREGULAR', message: expect.stringContaining('not a folder (regular file)') }),
    )
  })
})

describe('appends: one write of one buffer, never glued to a torn line', () => {
  test('a fragment without its line break is closed first: the next entry reads back whole', () => {
    const { files } = openFolder()
    fs.writeFileSync(
      files.log,
      `${JSON.stringify({ role: 'user', text: 'whole' })}\n{"role":"assistant","text":"torn mid-li`,
    )
    const [result] = append(files.log, [{ role: 'user', text: 'after the tear', id: 't:user' }])
    expect(result).toEqual(expect.objectContaining({ repairedTornLine: true }))
    const entries = native.readPersistentChatLogEntries(files.log, 10)
    expect(entries.map((e) => e.text)).toEqual(['whole', 'after the tear'])
    expect(fs.readFileSync(files.log, 'utf8').endsWith('"id":"t:user"}\n')).toBe(true)
    // A log that ends with its line break gets no blank line.
    const [next] = append(files.log, [{ role: 'assistant', text: 'ok' }])
    expect(next.repairedTornLine).toBe(false)
    expect(fs.readFileSync(files.log, 'utf8')).not.toContain('\n\n')
  })

  // Wine moves an append-only write to the end of the file by a size it read before the
  // write, so two processes can overwrite each other; Windows' own append-only handle
  // (FILE_APPEND_DATA) writes at the end under the file system's lock. The release
  // workflow's Windows job runs this.
  testUnless(underWine, 'under Wine: its appends are not atomic between processes, unlike Windows')(
    'lines over 1 MiB from two processes at once never interleave',
    async () => {
      const { files } = openFolder()
      const LINES = 12
      const big = (tag, i) => `${tag}${i}:${String.fromCharCode(97 + (i % 26)).repeat(1.5 * 1024 * 1024)}`
      const writer = (tag) =>
        new Promise((resolve, reject) => {
          const child = spawn(
            process.execPath,
            [
              '--input-type=module',
              '-e',
              `import { createRequire } from "node:module";
             const { ChatStore } = createRequire(${JSON.stringify(__filename)})(${JSON.stringify(path.join(__dirname, '..', 'index.js'))});
             const store = await ChatStore.open({ folder: ${JSON.stringify(files.dir)} });
             for (let i = 0; i < ${LINES}; i++) {
               await store.appendEntry({ role: "user", text: (${big.toString()})(${JSON.stringify(tag)}, i) }, { sync: false });
             }`,
            ],
            { stdio: ['ignore', 'ignore', 'pipe'] },
          )
          let stderr = ''
          child.stderr.on('data', (chunk) => (stderr += chunk))
          child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(stderr))))
        })
      await Promise.all([writer('A'), writer('B')])
      const lines = fs.readFileSync(files.log, 'utf8').split('\n')
      expect(lines.pop()).toBe('')
      // A writer that looked at the last byte while the other's line was half copied in adds a
      // `\n` of its own first: a blank line, which readers skip. Every other line is whole.
      const texts = lines.filter(Boolean).map((line) => JSON.parse(line).text)
      expect(texts).toHaveLength(2 * LINES)
      for (const tag of ['A', 'B']) {
        const mine = texts.filter((t) => t.startsWith(tag))
        expect(mine.map((t) => t.split(':')[0])).toEqual(Array.from({ length: LINES }, (_, i) => `${tag}${i}`))
        mine.forEach((t, i) => {
          expect(t).toBe(big(tag, i))
        })
      }
    },
  )
})

describe('one folder per chat', () => {
  const sha = (data) => require('node:crypto').createHash('sha256').update(data).digest('hex')
  /** The names releases up to this one gave the folder: 32 and 10 hex over the key's UTF-8. */
  const earlierNames = (key) => {
    const slug = key
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60)
    return [`${slug}-${sha(key).slice(0, 32)}`, `${slug}-${sha(key).slice(0, 10)}`]
  }
  const folderName = (key) =>
    runPlugin(`
      const { sessionFolderName } = await u.importPlugin("state-files.mjs");
      return sessionFolderName(${JSON.stringify(key)});`)

  test("folder names carry 128 bits of SHA-256 over the key's UTF-16 units", () => {
    const names = runPlugin(`
      const { sessionFolderName } = await u.importPlugin("state-files.mjs");
      return [sessionFolderName("agent:codex:acp:x"), sessionFolderName(":::"), sessionFolderName("a\\ud800"), sessionFolderName("a\\udc00")];`)
    expect(names.slice(0, 2)).toEqual([
      `agent-codex-acp-x-${sha(Buffer.from('agent:codex:acp:x', 'utf16le')).slice(0, 32)}`,
      expect.stringMatching(/^[0-9a-f]{32}$/),
    ])
    // Keys that differ only in a lone surrogate (one UTF-8 string) get folders of their own.
    expect(names[2]).not.toBe(names[3])
  })

  test.each([
    ['32 hex over UTF-8', 0],
    ['10 hex, up to 0.1.0', 1],
  ])("an earlier release's folder (%s) is taken over with its history", (_name, which) => {
    const legacy = path.join(dir, earlierNames(KEY)[which])
    fs.mkdirSync(legacy, { mode: 0o700 })
    const history = `${JSON.stringify({ role: 'user', text: 'from before the upgrade' })}\n`
    fs.writeFileSync(path.join(legacy, 'perpetual-log.jsonl'), history, { mode: 0o600 })
    const opened = openFolder()
    expect(opened.migratedFrom).toBe(legacy)
    expect(opened.files.dir).toBe(path.join(dir, folderName(KEY)))
    expect(fs.readFileSync(opened.files.log, 'utf8')).toBe(history)
    expect(fs.existsSync(legacy)).toBe(false)
    // Found under its new name from then on; nothing more to move.
    expect(openFolder().migratedFrom).toBeUndefined()
  })

  posixTest('a symlink under the old name is refused, not moved', () => {
    const name = earlierNames(KEY)[1]
    fs.mkdirSync(path.join(dir, 'victim'))
    fs.symlinkSync(path.join(dir, 'victim'), path.join(dir, name))
    expect(openFolder().error).toEqual(refusal('symlink', path.join(dir, name)))
  })

  test('sessionStateDirs is used as it is, created 0700 when missing', () => {
    const own = path.join(dir, 'operator', 'chat')
    const opened = openFolder({ sessionStateDirs: { [KEY]: own } })
    expect(opened.files.dir).toBe(own)
    if (POSIX) expect(mode(own)).toBe('700')
  })
})

describe("the addon's reads, as the plugin makes them (refuseLinks)", () => {
  posixTest('a symlinked or hard-linked log or memory state is refused; followed without the option', async () => {
    const log = path.join(dir, 'real.jsonl')
    fs.writeFileSync(log, `${JSON.stringify({ role: 'user', text: 'kept elsewhere' })}\n`)
    const state = path.join(dir, 'real-state.json')
    fs.writeFileSync(state, JSON.stringify({ notes: ['a note from elsewhere'] }))
    fs.symlinkSync(log, path.join(dir, 'link.jsonl'))
    fs.symlinkSync(state, path.join(dir, 'link-state.json'))
    const refused = { code: 'ENOTREGULAR', message: expect.stringContaining('(symlink)') }
    expect(() => native.readPersistentChatLogEntries(path.join(dir, 'link.jsonl'), 5, { refuseLinks: true })).toThrow(
      expect.objectContaining(refused),
    )
    await expect(
      native.readPersistentChatLogEntriesAsync(path.join(dir, 'link.jsonl'), 5, { refuseLinks: true }),
    ).rejects.toEqual(expect.objectContaining(refused))
    expect(native.readPersistentChatLogEntries(path.join(dir, 'link.jsonl'), 5).map((e) => e.text)).toEqual([
      'kept elsewhere',
    ])
    expect(native.readPersistentChatLogEntries(log, 5, { refuseLinks: true })).toHaveLength(1)
    await expect(
      native.rebuildPersistentChatContinuitySummaryAsync({
        entries: [],
        statePath: path.join(dir, 'link-state.json'),
        refuseLinks: true,
      }),
    ).rejects.toEqual(expect.objectContaining(refused))
    expect(() =>
      native.rebuildPersistentChatContinuitySummary({ logPath: path.join(dir, 'link.jsonl'), refuseLinks: true }),
    ).toThrow(expect.objectContaining(refused))
    expect(
      native.rebuildPersistentChatContinuitySummary({ entries: [], statePath: path.join(dir, 'link-state.json') }),
    ).toContain('a note from elsewhere')
    fs.linkSync(log, path.join(dir, 'second-name.jsonl'))
    // Under WASI the runtime's file status gives no link count: a hard link is not told apart
    // there (docs/platforms.md); the symlink is, above.
    if (!String(native.__napiBindingTarget).startsWith('wasm32')) {
      expect(() => native.readPersistentChatLogEntries(log, 5, { refuseLinks: true })).toThrow(
        expect.objectContaining({ code: 'ENOTREGULAR', message: expect.stringContaining('(hard-linked file)') }),
      )
    }
    expect(() => native.readPersistentChatLogEntries(log, 5, { refuseLinks: 'yes' })).toThrow(
      /"options.refuseLinks" argument must be of type boolean/,
    )
    expect(native.readPersistentChatLogEntries(log, 5, { refuseLinks: false })).toHaveLength(1)
    expect(native.readPersistentChatLogEntries(log, 5, null)).toHaveLength(1)
  })
})
