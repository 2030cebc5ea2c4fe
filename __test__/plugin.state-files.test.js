'use strict'
// The plugin's state files with no OpenClaw (plugin/state-files.mjs, in child processes):
// private modes set at creation, a refusal of every path that is not a regular file of its
// own (no hang on a FIFO), appends that survive a torn line and never interleave across
// processes, and folder names of 128 bits that keep an earlier release's history.
const { spawn, execFileSync } = require('node:child_process')
const fs = require('node:fs')
const net = require('node:net')
const path = require('node:path')

const native = require('..')
const { runPlugin, tempDir } = require('./fixtures/plugin-unit')

// Each spec runs child processes; on a loaded machine they can take seconds.
jest.setTimeout(60000)

const POSIX = process.platform !== 'win32'
const platform = require('./fixtures/platform.js')
const posixTest = platform.posixTest('POSIX modes, FIFOs, sockets and links')
const { testUnless, underWine } = platform
const KEY = 'agent:codex:acp:state-files'

let dir
beforeEach(() => {
  dir = tempDir('plugin-state')
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

const mode = (file) => (fs.lstatSync(file).mode & 0o777).toString(8)

/** openSessionFolder(KEY) under `dir`; the refusal's { code, kind, path } if it throws. */
function openFolder(extraConfig = {}) {
  return runPlugin(`
    const { resolveConfig } = await u.importPlugin("config.mjs");
    const { openSessionFolder } = await u.importPlugin("state-files.mjs");
    const config = resolveConfig({ stateDir: ${JSON.stringify(dir)}, ...${JSON.stringify(extraConfig)} }, "/unused");
    try {
      const { files, migratedFrom } = await openSessionFolder(config, ${JSON.stringify(KEY)});
      return { files, migratedFrom };
    } catch (error) {
      return { error: { code: error.code, kind: error.kind, path: error.path, message: error.message } };
    }`)
}

const openFolderAt = (chatDir) => openFolder({ sessionStateDirs: { [KEY]: chatDir } })

function append(logPath, entries, { durable = true } = {}) {
  return runPlugin(`
    const { appendLogEntry } = await u.importPlugin("state-files.mjs");
    const results = [];
    for (const entry of ${JSON.stringify(entries)}) {
      try {
        results.push(await appendLogEntry(${JSON.stringify(logPath)}, entry, { durable: ${durable} }));
      } catch (error) {
        results.push({ error: { code: error.code, kind: error.kind, message: error.message } });
      }
    }
    return results;`)
}

describe('private by default', () => {
  posixTest('a new folder is 0700 and its files 0600 under umask 022 (and 000)', () => {
    for (const umask of [0o022, 0o000]) {
      const root = path.join(dir, `umask-${umask}`)
      const { files } = runPlugin(
        `
        const { resolveConfig } = await u.importPlugin("config.mjs");
        const { openSessionFolder, appendLogEntry, writeFileAtomic } = await u.importPlugin("state-files.mjs");
        const config = resolveConfig({ stateDir: ${JSON.stringify(root)} }, "/unused");
        const { files } = await openSessionFolder(config, ${JSON.stringify(KEY)});
        await appendLogEntry(files.log, { role: "user", text: "hi" });
        await writeFileAtomic(files.summary, "summary");
        await writeFileAtomic(files.lastPrompt, "prompt");
        return { files };`,
        { umask },
      )
      expect(mode(root)).toBe('700')
      expect(mode(files.dir)).toBe('700')
      expect([mode(files.log), mode(files.summary), mode(files.lastPrompt)]).toEqual(['600', '600', '600'])
      expect(fs.readdirSync(files.dir).sort()).toEqual([
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
  /** The log path made into `kind`; returns what openSessionFolder and an append said. */
  function refusalAtLog(make) {
    const { files } = openFolder()
    make(files.log)
    const opened = openFolder()
    const appended = append(files.log, [{ role: 'user', text: 'must not go anywhere' }])[0]
    return { files, opened, appended }
  }

  posixTest('a FIFO at the log path is refused at once (no open blocks on it)', () => {
    const { files, opened, appended } = refusalAtLog((log) => execFileSync('mkfifo', [log]))
    expect(opened.error).toEqual(expect.objectContaining({ code: 'EUNSAFESTATE', kind: 'FIFO', path: files.log }))
    expect(appended.error).toEqual(expect.objectContaining({ code: 'EUNSAFESTATE', kind: 'FIFO' }))
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
      const [appended] = append(files.log, [{ role: 'user', text: 'secret' }])
      expect(appended.error).toEqual(expect.objectContaining({ code: 'EUNSAFESTATE', kind: 'FIFO' }))
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
    const { opened, appended } = refusalAtLog((log) => fs.symlinkSync(target, log))
    expect(opened.error).toEqual(expect.objectContaining({ code: 'EUNSAFESTATE', kind: 'symlink' }))
    expect(appended.error).toEqual(expect.objectContaining({ code: 'EUNSAFESTATE', kind: 'symlink' }))
    expect(fs.readFileSync(target, 'utf8')).toBe('untouched\n')
  })

  posixTest('a dangling symlink at the log path is refused, and nothing is created where it points', () => {
    const target = path.join(dir, 'created-through-link.jsonl')
    const { appended } = refusalAtLog((log) => fs.symlinkSync(target, log))
    expect(appended.error).toEqual(expect.objectContaining({ code: 'EUNSAFESTATE', kind: 'symlink' }))
    expect(fs.existsSync(target)).toBe(false)
  })

  posixTest('a hard-linked log is refused (another name could read or change it)', () => {
    const other = path.join(dir, 'other-name.jsonl')
    fs.writeFileSync(other, '')
    const { opened, appended } = refusalAtLog((log) => fs.linkSync(other, log))
    expect(opened.error).toEqual(expect.objectContaining({ kind: 'hard-linked file (2 links)' }))
    expect(appended.error).toEqual(expect.objectContaining({ code: 'EUNSAFESTATE' }))
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
      expect(openFolder().error).toEqual(expect.objectContaining({ kind: 'socket' }))
      expect(append(files.log, [{ role: 'user', text: 'x' }])[0].error).toEqual(
        expect.objectContaining({ kind: 'socket' }),
      )
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
        [() => fs.linkSync(files.log, file), 'hard-linked file (2 links)'],
      ]) {
        fs.writeFileSync(files.log, '')
        make()
        expect([name, openFolder().error?.kind]).toEqual([name, kind])
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
    expect(openFolder().error).toEqual(expect.objectContaining({ kind: 'symlink', path: files.dir }))
    fs.rmSync(files.dir)
    fs.writeFileSync(files.dir, '')
    expect(openFolder().error).toEqual(expect.objectContaining({ kind: 'file where a folder belongs' }))
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
              `const { appendLogEntry } = await import(${JSON.stringify(require('node:url').pathToFileURL(path.join(__dirname, '..', 'plugin', 'state-files.mjs')).href)});
             for (let i = 0; i < ${LINES}; i++) {
               await appendLogEntry(${JSON.stringify(files.log)}, { role: "user", text: (${big.toString()})(${JSON.stringify(tag)}, i) }, { durable: false });
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
  test("folder names carry 128 bits of the key's SHA-256", () => {
    const names = runPlugin(`
      const { sessionFolderName, legacySessionFolderName } = await u.importPlugin("state-files.mjs");
      return [sessionFolderName("agent:codex:acp:x"), legacySessionFolderName("agent:codex:acp:x"), sessionFolderName(":::")];`)
    const sha = require('node:crypto').createHash('sha256').update('agent:codex:acp:x').digest('hex')
    expect(names).toEqual([
      `agent-codex-acp-x-${sha.slice(0, 32)}`,
      `agent-codex-acp-x-${sha.slice(0, 10)}`,
      expect.stringMatching(/^[0-9a-f]{32}$/),
    ])
  })

  test("an earlier release's folder (10 hex characters) is taken over with its history", () => {
    const names = runPlugin(`
      const { sessionFolderName, legacySessionFolderName } = await u.importPlugin("state-files.mjs");
      return { now: sessionFolderName(${JSON.stringify(KEY)}), legacy: legacySessionFolderName(${JSON.stringify(KEY)}) };`)
    const legacy = path.join(dir, names.legacy)
    fs.mkdirSync(legacy)
    const history = `${JSON.stringify({ role: 'user', text: 'from before the upgrade' })}\n`
    fs.writeFileSync(path.join(legacy, 'perpetual-log.jsonl'), history)
    const opened = openFolder()
    expect(opened.migratedFrom).toBe(legacy)
    expect(opened.files.dir).toBe(path.join(dir, names.now))
    expect(fs.readFileSync(opened.files.log, 'utf8')).toBe(history)
    expect(fs.existsSync(legacy)).toBe(false)
    // Found under its new name from then on; nothing more to move.
    expect(openFolder().migratedFrom).toBeUndefined()
  })

  posixTest('a symlink under the old name is refused, not moved', () => {
    const names = runPlugin(`
      const { legacySessionFolderName } = await u.importPlugin("state-files.mjs");
      return legacySessionFolderName(${JSON.stringify(KEY)});`)
    fs.mkdirSync(path.join(dir, 'victim'))
    fs.symlinkSync(path.join(dir, 'victim'), path.join(dir, names))
    expect(openFolder().error).toEqual(expect.objectContaining({ kind: 'symlink', path: path.join(dir, names) }))
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
