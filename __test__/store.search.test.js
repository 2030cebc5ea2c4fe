'use strict'
// ChatStore#search and #readWindow: a chat's whole log searched as the plugin's tools and the
// CLI search it, the index one more file of the chat folder, under the store's rules; and
// ChatStore.open({ create: false }), which a reader uses to change nothing.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const { ChatStore, searchPersistentChatLog } = require('..')
const platform = require('./fixtures/platform.js')

const posixTest = platform.posixTest('POSIX symlinks, FIFOs and modes')
const KEY = 'agent:codex:acp:store-search'
const INDEX = 'perpetual-log.jsonl.search-index'
let dir
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-store-search-'))
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

async function chatWithHistory(key = KEY, planted = 'the staging database moved to Frankfurt in March') {
  const store = await ChatStore.open({ stateDir: dir, sessionKey: key })
  for (let i = 0; i < 300; i++) {
    await store.appendEntry(
      {
        ts: `2026-03-01T10:${String(i % 60).padStart(2, '0')}:00Z`,
        role: i % 2 ? 'assistant' : 'user',
        text: `small talk number ${i} about lunch and the weather`,
      },
      { sync: false },
    )
    if (i === 20)
      await store.appendEntry(
        { ts: '2026-03-02T09:00:00Z', role: 'user', text: planted, id: 'needle' },
        { sync: false },
      )
  }
  return store
}

test('an entry 280 turns back is found, its neighbours read, the index kept 0600 in the folder', async () => {
  const store = await chatWithHistory()
  const hits = await store.search('where is the staging DB? databases', { limit: 3 })
  expect(hits[0]).toMatchObject({ role: 'user', id: 'needle', line: 22, ts: '2026-03-02T09:00:00Z' })
  expect(hits[0].text).toContain('staging database')
  expect(hits[0].score).toBeGreaterThan(0)
  expect(hits.length).toBeLessThanOrEqual(3)
  const window = await store.readWindow({ id: 'needle', before: 1, after: 1 })
  expect(window.map((e) => e.line)).toEqual([21, 22, 23])
  expect(window[1].text).toBe('the staging database moved to Frankfurt in March')
  const index = path.join(store.folder, INDEX)
  expect(fs.statSync(index).isFile()).toBe(true)
  if (!platform.onWindows && !platform.onWasi) expect(fs.statSync(index).mode & 0o777).toBe(0o600)
  // The function and the method keep the same file.
  const before = fs.readdirSync(store.folder).sort()
  expect((await searchPersistentChatLog(store.logPath, 'Frankfurt'))[0].id).toBe('needle')
  expect(fs.readdirSync(store.folder).sort()).toEqual(before)
})

test("no hit ever comes from another chat's folder", async () => {
  await chatWithHistory('agent:a', 'the launch code word is pelican')
  const other = await chatWithHistory('agent:b', 'we ordered sandwiches')
  expect(await other.search('pelican launch code')).toEqual([])
})

test('an empty or wordless query gives nothing; words found nowhere are ignored', async () => {
  const store = await chatWithHistory()
  expect(await store.search('')).toEqual([])
  expect(await store.search('?! … ---')).toEqual([])
  expect((await store.search('zyzzyva staging'))[0].id).toBe('needle')
})

test('bad options are clear errors, before any file is touched', async () => {
  const store = await ChatStore.open({ stateDir: dir, sessionKey: KEY })
  await expect(store.search('x', { limit: 0 })).rejects.toMatchObject({ name: 'RangeError', code: 'ERR_OUT_OF_RANGE' })
  await expect(store.search('x', { limit: 101 })).rejects.toThrow(/options\.limit/)
  await expect(store.search('x', { excerptChars: 1.5 })).rejects.toThrow(/options\.excerptChars/)
  await expect(store.search(42)).rejects.toMatchObject({ name: 'TypeError' })
  await expect(store.readWindow({ id: 'a', line: 1 })).rejects.toThrow(/exactly one of/)
  await expect(store.readWindow({ line: 1, before: 51 })).rejects.toThrow(/at\.before/)
  expect(fs.existsSync(path.join(store.folder, INDEX))).toBe(false)
})

test('a chat with no log yet has nothing to find', async () => {
  const store = await ChatStore.open({ stateDir: dir, sessionKey: KEY })
  expect(await store.search('anything')).toEqual([])
  expect(await store.readWindow({ line: 1 })).toEqual([])
  expect(fs.readdirSync(store.folder)).toEqual([])
})

test('open with create: false changes nothing and names a missing chat', async () => {
  const missing = ChatStore.open({ stateDir: dir, sessionKey: 'agent:none', create: false })
  await expect(missing).rejects.toMatchObject({
    code: 'ENOENT',
    path: path.join(dir, ChatStore.folderName('agent:none')),
  })
  await expect(
    ChatStore.open({ stateDir: path.join(dir, 'nope'), sessionKey: KEY, create: false }),
  ).rejects.toMatchObject({
    code: 'ENOENT',
  })
  expect(fs.readdirSync(dir)).toEqual([])
  await expect(ChatStore.open({ stateDir: dir, sessionKey: KEY, create: 'yes' })).rejects.toThrow(/options\.create/)
  const created = await chatWithHistory()
  const found = await ChatStore.open({ stateDir: dir, sessionKey: KEY, create: false })
  expect(found.folder).toBe(created.folder)
  expect((await found.search('Frankfurt'))[0].id).toBe('needle')
})

posixTest('a link or a FIFO at the index is refused at once and never written through', async () => {
  const store = await chatWithHistory()
  const index = path.join(store.folder, INDEX)
  const target = path.join(dir, 'elsewhere')
  fs.writeFileSync(target, 'keep me')
  fs.symlinkSync(target, index)
  await expect(store.search('staging')).rejects.toMatchObject({ code: 'ENOTREGULAR', path: index })
  expect(fs.readFileSync(target, 'utf8')).toBe('keep me')
  fs.unlinkSync(index)
  require('node:child_process').execFileSync('mkfifo', [index])
  await expect(store.readWindow({ line: 3 })).rejects.toMatchObject({ code: 'ENOTREGULAR' })
})

test('a damaged index is rebuilt, and a hit is always what the log holds now', async () => {
  const store = await chatWithHistory()
  expect((await store.search('Frankfurt'))[0].id).toBe('needle')
  const index = path.join(store.folder, INDEX)
  const bytes = fs.readFileSync(index)
  bytes[Math.floor(bytes.length / 2)] ^= 0xff
  fs.writeFileSync(index, bytes)
  // A new chat object of the same folder, as a new gateway process would make.
  const again = await ChatStore.open({ stateDir: dir, sessionKey: KEY, create: false })
  expect((await again.search('Frankfurt'))[0].id).toBe('needle')
  // The log rewritten without the entry: the index no longer answers for it.
  const kept = fs
    .readFileSync(store.logPath, 'utf8')
    .split('\n')
    .filter((line) => !line.includes('Frankfurt'))
    .join('\n')
  fs.writeFileSync(store.logPath, kept)
  expect(await again.search('Frankfurt')).toEqual([])
})
