'use strict'
// Each export's parameter shape is declared once (a struct of src/, generated into
// index.d.ts). Most are read by #[derive(FromJs)] from the same fields; the few read by hand
// (aliases, a path left unread when its data is given) are listed below. This spec holds
// each reader to its shape: every key a reader asks the object for (recorded by a Proxy) is a
// key of the export's interface, and every key of the interface is read.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const native = require('../index.js')
const { paramKeys } = require('../dev/param-shapes.js')

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-shapes-'))
const logPath = path.join(dir, 'log.jsonl')
fs.writeFileSync(logPath, '{"role":"user","text":"hi","ts":"2026-05-15T10:00:00Z"}\n')
const statePath = path.join(dir, 'state.json')
fs.writeFileSync(statePath, '{"decisions":["d"]}')
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** `values` behind a Proxy that records every key asked for (get, has, own keys). */
function recording(values, read) {
  return new Proxy(values, {
    get(target, key) {
      if (typeof key === 'string') read.add(key)
      return target[key]
    },
    has(target, key) {
      if (typeof key === 'string') read.add(key)
      return key in target
    },
  })
}

/** The keys `call` reads of its params object, over each of `samples` (data and path forms). */
function keysRead(call, samples) {
  const read = new Set()
  for (const sample of samples) call(recording(sample, read))
  return read
}

const entries = [{ role: 'user', text: 'hi', ts: '2026-05-15T10:00:00Z', session: 's' }]

describe.each([
  [
    'buildPersistentChatInjectedPrompt',
    'InjectedPromptParams',
    (p) => native.buildPersistentChatInjectedPrompt(p),
    [
      { userMessage: 'now', reload: true, logEntries: entries, continuitySummary: 'S', turnMetadata: 'm' },
      { userMessage: 'now', reload: false, currentSession: 's', logPath },
    ],
  ],
  [
    'buildPersistentChatInjectedPromptReport',
    'InjectedPromptParams',
    (p) => native.buildPersistentChatInjectedPromptReport(p),
    [
      { userMessage: 'now', reload: true, logEntries: entries },
      { userMessage: 'now', reload: false, logPath },
    ],
  ],
  [
    'rebuildPersistentChatContinuitySummary',
    'ContinuitySummaryParams',
    (p) => native.rebuildPersistentChatContinuitySummary(p),
    [
      { entries, state: { decisions: ['d'] }, now: 1 },
      { logPath, statePath },
    ],
  ],
  [
    'capCompactionSummaryPreservingSuffix (options)',
    'CapCompactionOptions',
    (p) => native.capCompactionSummaryPreservingSuffix('## Decisions\n- a', '\n\n## Tail', 100, p),
    [{ tokenBudget: 50 }],
  ],
  [
    'readPersistentChatLogEntries (options)',
    'PersistentChatReadOptions',
    (p) => native.readPersistentChatLogEntries(logPath, 5, p),
    [{ refuseLinks: true }],
  ],
  ['new SecretMasker (options)', 'SecretMaskerOptions', (p) => new native.SecretMasker(p), [{ patterns: ['x+'] }]],
])('%s reads the keys of %s', (_name, shape, call, samples) => {
  test('every key read is declared, and every declared key is read', () => {
    expect([...keysRead(call, samples)].sort()).toEqual([...paramKeys(shape)].sort())
  })
})

describe('ChatStore', () => {
  let store
  beforeAll(async () => {
    store = await native.ChatStore.open({ folder: path.join(dir, 'chat') })
  })
  /** The keys read by `call` over `samples`, each call's promise settled. */
  async function keysReadAsync(call, samples) {
    const read = new Set()
    for (const sample of samples) await call(recording(sample, read)).catch(() => {})
    return read
  }
  test.each([
    ['open', 'ChatStoreOpenOptions', (p) => native.ChatStore.open(p), [{ folder: path.join(dir, 'chat') }]],
    [
      'appendEntry (options)',
      'ChatStoreAppendOptions',
      (p) => store.appendEntry({ role: 'user', text: 'x' }, p),
      [{ sync: false }],
    ],
    ['rebuildSummary', 'ChatStoreSummaryParams', (p) => store.rebuildSummary(p), [{ entries, now: 1 }]],
    ['inspectFolder (options)', 'ChatStoreInspectOptions', (p) => native.ChatStore.inspectFolder(dir, p), [{}]],
    [
      'exportLog',
      'ChatStoreExportOptions',
      (p) => native.ChatStore.exportLog(p),
      [
        {
          log: path.join(dir, 'chat', 'perpetual-log.jsonl'),
          format: 'md',
          since: 0,
          until: '2030-01-01',
          out: undefined,
        },
      ],
    ],
    [
      'backup',
      'ChatStoreBackupOptions',
      (p) => native.ChatStore.backup(p),
      [{ stateDir: dir, sessionKey: 'k', out: path.join(dir, 'never'), apply: false }],
    ],
  ])('%s reads the keys of %s', async (_name, shape, call, samples) => {
    expect([...(await keysReadAsync(call, samples))].sort()).toEqual([...paramKeys(shape)].sort())
  })
})

describe('the binding declares each shape once', () => {
  const sources = () => {
    const files = []
    const walk = (dir) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name)
        if (entry.isDirectory()) walk(file)
        else if (entry.name.endsWith('.rs')) files.push(fs.readFileSync(file, 'utf8'))
      }
    }
    walk(path.join(__dirname, '..', 'src'))
    return files.join('\n')
  }
  const source = sources()

  test('an argument is typed by its Rust type: ts_args_type only where no Rust type says it', () => {
    // The two Omit<> shapes, and the cap's three exports (maxChars: null is a TypeError there,
    // which an Option argument would read as absent).
    expect(source.match(/ts_args_type/g)).toHaveLength(5)
  })

  test('every input shape derives its reader, but the ones read by hand', () => {
    const byHand = [
      'ChatStoreTurnFiles',
      'ContinuitySummaryParams',
      'InjectedPromptParams',
      'PersistentChatMemoryState',
      'PersistentChatStateItem',
      'PersistentChatTimer',
    ]
    const inputs = [
      ...source.matchAll(
        /#\[napi\(object, object_to_js = false([^)]*)\)\]\n(#\[derive\(FromJs\)\]\n)?pub struct (\w+)/g,
      ),
    ]
    const handRead = inputs.filter(([, , derive]) => !derive).map(([, , , name]) => name)
    expect(handRead.sort()).toEqual(byHand)
    for (const [, options, derive, name] of inputs) {
      if (derive) expect([name, options]).toEqual([name, ', object_from_js = false'])
    }
  })
})

describe('null in an options object', () => {
  const typeError = (field) =>
    expect.objectContaining({ name: 'TypeError', message: expect.stringContaining(`"${field}"`) })

  test('is absent for a field where it can only mean that', async () => {
    const chat = path.join(dir, 'null-chat')
    await expect(native.ChatStore.open({ folder: chat, summaryFile: null, maskPatterns: null })).resolves.toBeTruthy()
    await expect(
      native.searchPersistentChatLog(logPath, 'hi', { now: null, timeZone: null, refuseLinks: null }),
    ).resolves.toHaveLength(1)
    expect(native.readPersistentChatLogEntries(logPath, 5, { emptyIfMissing: null })).toHaveLength(1)
  })

  test('is a TypeError for a limit, a budget or a flag it could be meant to turn off', async () => {
    const chat = path.join(dir, 'null-chat')
    await expect(native.ChatStore.open({ folder: chat, create: null })).rejects.toThrow(typeError('options.create'))
    await expect(native.searchPersistentChatLog(logPath, 'hi', { limit: null })).rejects.toThrow(
      typeError('options.limit'),
    )
    await expect(native.readPersistentChatLogWindow(logPath, { line: null })).rejects.toThrow(typeError('at.line'))
    expect(() => native.readPersistentChatLogEntries(logPath, 5, { maxEntryChars: null })).toThrow(
      typeError('options.maxEntryChars'),
    )
  })
})
