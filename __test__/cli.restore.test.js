'use strict'
// openclaw-context restore, run as a user runs it (a child process of the command line against
// the built addon): a backup (folder and .tar) put back into an empty state dir byte for byte;
// a dry run that writes nothing; a chat whose log has lines the backup lacks refused unless
// --force; a backup that does not verify restores nothing; a gateway appending meanwhile.
const fs = require('node:fs')
const path = require('node:path')
const { ChatStore } = require('../index.js')
const { tempDirs, runCli: run, appendInChild } = require('./fixtures/cli.js')
const { onWasi, onWindows, testUnless } = require('./fixtures/platform.js')

const KEYS = ['agent:codex:acp:one', 'agent:codex:acp:two']

const tempDir = tempDirs('occn-cli-restore-')

/** Two chats of `n` entries each, with a summary; the state dir. */
async function stateWithChats(n = 20) {
  const state = tempDir()
  for (const key of KEYS) {
    const store = await ChatStore.open({ stateDir: state, sessionKey: key })
    for (let i = 0; i < n; i++)
      await store.appendEntry({ role: i % 2 ? 'assistant' : 'user', text: `${key} ${i}`, id: `${i}` })
    await store.replaceSummary(`summary of ${key}`)
  }
  return state
}

/** Each chat folder's files and their bytes (the lock file aside: it is empty and not backed up). */
function snapshot(state) {
  const out = {}
  for (const folder of fs.readdirSync(state).sort()) {
    for (const name of fs.readdirSync(path.join(state, folder)).sort()) {
      if (name === 'chat.lock' || name.endsWith('.search-index')) continue
      out[`${folder}/${name}`] = fs.readFileSync(path.join(state, folder, name), 'latin1')
    }
  }
  return out
}

async function backupOf(state, out) {
  const result = await ChatStore.backup({ stateDir: state, out, apply: true })
  expect(result.refused).toEqual([])
  return out
}

test.each([
  ['a folder', ''],
  ['a .tar', '.tar'],
])(
  'a backup (%s) restored into an empty state dir holds every file byte for byte; a dry run writes nothing',
  async (_form, ending) => {
    const state = await stateWithChats()
    const backup = await backupOf(state, path.join(tempDir(), `backup${ending}`))
    const target = path.join(tempDir(), 'state')
    const dry = run(['restore', backup, '--state-dir', target])
    expect(dry.status).toBe(0)
    expect(dry.out).toContain('would restore 2 of 2 chat(s)')
    expect(dry.out).toMatch(
      /would create agent-codex-acp-one-\w+ \(20 entries, perpetual-log\.jsonl, continuity-summary\.txt\)/,
    )
    expect(fs.existsSync(target)).toBe(false)
    const done = run(['restore', backup, '--state-dir', target, '--apply'])
    expect(done.status).toBe(0)
    expect(done.out).toContain('restored 2 of 2 chat(s)')
    expect(snapshot(target)).toEqual(snapshot(state))
    if (!onWindows && !onWasi) {
      expect(fs.statSync(target).mode & 0o777).toBe(0o700)
      for (const folder of fs.readdirSync(target)) {
        expect(fs.statSync(path.join(target, folder)).mode & 0o777).toBe(0o700)
        for (const name of fs.readdirSync(path.join(target, folder)))
          expect([name, fs.statSync(path.join(target, folder, name)).mode & 0o777]).toEqual([name, 0o600])
      }
    }
    // The restored chats work: the store opens them, the next append follows the restored lines.
    const store = await ChatStore.open({ stateDir: target, sessionKey: KEYS[0] })
    await store.appendEntry({ role: 'user', text: 'after the restore' })
    expect((await store.readEntries(100)).map((e) => e.text).slice(-2)).toEqual([`${KEYS[0]} 19`, 'after the restore'])
    // Again: the chat that moved on is refused, the other one is unchanged.
    const again = run(['restore', backup, '--state-dir', target, '--apply', '--json'])
    expect(again.status).toBe(1)
    const actions = JSON.parse(again.out).chats.map((chat) => [chat.action, chat.liveOnlyLines])
    expect(actions.sort()).toEqual([
      ['refused', 1],
      ['unchanged', 0],
    ])
  },
)

test('a chat with lines the backup lacks is refused, and changed by nothing; --force replaces it', async () => {
  const state = await stateWithChats(5)
  const backup = await backupOf(state, path.join(tempDir(), 'b.tar'))
  const store = await ChatStore.open({ stateDir: state, sessionKey: KEYS[1] })
  await store.appendEntry({ role: 'user', text: 'said after the backup' })
  const before = fs.readFileSync(store.logPath)
  const refused = run(['restore', backup, '--state-dir', state, '--apply'])
  expect(refused.status).toBe(1)
  expect(refused.out).toMatch(/refused agent-codex-acp-two-\w+ .*its log has 1 line\(s\) the backup lacks/)
  expect(fs.readFileSync(store.logPath)).toEqual(before)
  const forced = run(['restore', backup, '--state-dir', state, '--apply', '--force'])
  expect(forced.status).toBe(0)
  expect(forced.out).toContain('1 line(s) only in the live log are lost')
  expect(fs.readFileSync(store.logPath, 'utf8')).not.toContain('said after the backup')
})

test('a backup that does not verify (a flipped byte) restores nothing and names the problem', async () => {
  const state = await stateWithChats(5)
  const backup = await backupOf(state, path.join(tempDir(), 'b'))
  const folder = fs.readdirSync(backup).find((n) => n !== 'manifest.json')
  const log = path.join(backup, folder, 'perpetual-log.jsonl')
  const bytes = fs.readFileSync(log)
  bytes[10] ^= 1
  fs.writeFileSync(log, bytes)
  const target = path.join(tempDir(), 'state')
  const result = run(['restore', backup, '--state-dir', target, '--apply'])
  expect(result.status).toBe(1)
  expect(result.err).toContain('does not verify; nothing was restored')
  expect(result.err).toMatch(/checksum: .*perpetual-log\.jsonl/)
  expect(fs.existsSync(target)).toBe(false)
})

test('usage errors: no PATH, no --state-dir, a state dir given as the backup', async () => {
  expect(run(['restore', '--state-dir', tempDir()]).status).toBe(2)
  expect(run(['restore', tempDir()]).err).toContain('restore needs --state-dir DIR')
  const state = await stateWithChats(1)
  const result = run(['restore', state, '--state-dir', tempDir()])
  expect(result.status).toBe(1)
  expect(result.err).toMatch(/not a backup/)
})

// WASI preview 1 has no advisory locks (the lock is a no-op there).
testUnless(onWasi, 'on WASI: no advisory locks in WASI preview 1')(
  'a gateway appending from another process while a restore replaces its chat: every append after the restore is kept, none torn',
  async () => {
    const state = await stateWithChats(5)
    const backup = await backupOf(state, path.join(tempDir(), 'b.tar'))
    const APPENDS = 200
    const exited = appendInChild({ stateDir: state, sessionKey: KEYS[0], count: APPENDS })
    let done = false
    exited.then(() => {
      done = true
    })
    let restores = 0
    while (!done || restores === 0) {
      await ChatStore.restore({ from: backup, stateDir: state, apply: true, force: true })
      restores++
    }
    expect(await exited).toEqual({ code: 0, stderr: '' })
    const store = await ChatStore.open({ stateDir: state, sessionKey: KEYS[0] })
    const text = fs.readFileSync(store.logPath, 'utf8')
    expect(text.endsWith('\n')).toBe(true)
    const ids = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line).id)
    // The backup's 5 entries, then the appends the last restore did not replace, in order.
    expect(ids.slice(0, 5)).toEqual(['0', '1', '2', '3', '4'])
    const live = ids.slice(5).map((id) => Number(id.slice(4)))
    expect(live).toEqual(Array.from({ length: live.length }, (_, i) => APPENDS - live.length + i))
  },
  60000,
)
