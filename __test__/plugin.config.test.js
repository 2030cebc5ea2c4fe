'use strict'
// The plugin's settings (plugin/config.mjs) as the manifest's configSchema declares them: the
// keys, ranges, enum and defaults are read from openclaw.plugin.json, and where a default is
// the addon's own the plugin passes nothing, so the schema's `default` must be what the addon
// does. The module is ESM: each case runs in a child Node.
const { spawnSync } = require('node:child_process')
const path = require('node:path')
const { pathToFileURL } = require('node:url')

const native = require('../index.js')
const SCHEMA = require('../openclaw.plugin.json').configSchema.properties
const MODULE = pathToFileURL(path.join(__dirname, '..', 'plugin', 'config.mjs')).href

/** `resolveConfig(raw, '/state', {})` in a child Node: the settings, or the error's message. */
function resolve(raw) {
  const script = `import { resolveConfig } from ${JSON.stringify(MODULE)};
    try {
      const c = resolveConfig(JSON.parse(process.argv[1]), '/state', {});
      process.stdout.write(JSON.stringify({ ...c, sessionStateDirs: [...c.sessionStateDirs], redactPatterns: c.redactPatterns.length }));
    } catch (e) { process.stdout.write(JSON.stringify({ error: e.message })); }`
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(raw)], {
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(result.stderr)
  return JSON.parse(result.stdout)
}

test("unset: the schema's own defaults, and nothing for the settings whose default is the addon's", () => {
  const config = resolve({})
  expect(config).toEqual(
    expect.objectContaining({
      promptMaxChars: SCHEMA.promptMaxChars.default,
      turnMetadata: SCHEMA.turnMetadata.default,
      stateDir: path.join('/state', 'openclaw-context-native'),
    }),
  )
  for (const key of ['reloadEntries', 'continuousEntries', 'summaryMaxChars', 'reloadRecall', 'retentionDays']) {
    expect(config[key]).toBeUndefined()
  }
  expect(SCHEMA.promptMaxChars.default).toBe(120000)
})

test.each(['reloadEntries', 'continuousEntries', 'promptMaxChars', 'summaryMaxChars', 'reloadRecall', 'retentionDays'])(
  "%s: the schema's minimum and maximum are the limits, named in the error",
  (key) => {
    const { minimum, maximum = Number.MAX_SAFE_INTEGER } = SCHEMA[key]
    const range = `config.${key} must be an integer from ${minimum} to ${maximum}`
    expect(resolve({ [key]: minimum })[key]).toBe(minimum)
    expect(resolve({ [key]: maximum })[key]).toBe(maximum)
    expect(resolve({ [key]: minimum - 1 }).error).toBe(`openclaw-context-native: ${range}`)
    expect(resolve({ [key]: 2.5 }).error).toBe(`openclaw-context-native: ${range}`)
    if (SCHEMA[key].maximum !== undefined) {
      expect(resolve({ [key]: maximum + 1 }).error).toBe(`openclaw-context-native: ${range}`)
    }
  },
)

test("an unknown key and a field outside turnMetadata's enum are refused with the schema's lists", () => {
  expect(resolve({ reloadEntriez: 3 }).error).toBe(
    `openclaw-context-native: config.reloadEntriez must be one of: ${Object.keys(SCHEMA).join(', ')} (unknown setting)`,
  )
  expect(resolve({ turnMetadata: ['channel', 'mood'] }).error).toBe(
    `openclaw-context-native: config.turnMetadata must be a list of: ${SCHEMA.turnMetadata.items.enum.join(', ')}`,
  )
  expect(resolve({ turnMetadata: [] }).turnMetadata).toEqual([])
})

describe("the schema's defaults for the addon's settings are what the addon does when given nothing", () => {
  const entries = Array.from({ length: 40 }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    text: `entry ${i}`,
    session: i < 35 ? 'old' : undefined, // the last five: not seen by the backend yet
    ts: `2026-12-01T10:${String(i).padStart(2, '0')}:00Z`,
  }))
  const report = (extra) =>
    // A given nonce: drawn ones differ from prompt to prompt.
    native.buildPersistentChatInjectedPromptReport({
      userMessage: 'now',
      logEntries: entries,
      nonce: 'f0e1d2c3b4a59687',
      ...extra,
    })

  test('reloadEntries', () => {
    const unset = report({ reload: true })
    const given = report({ reload: true, reloadEntries: SCHEMA.reloadEntries.default })
    expect(unset.prompt).toBe(given.prompt)
    expect(unset.prompt).not.toBe(report({ reload: true, reloadEntries: SCHEMA.reloadEntries.default - 1 }).prompt)
  })

  test('reloadRecall (recallEntries)', () => {
    // Older entries found for the live message, none of them in the excerpt.
    const recalledEntries = Array.from({ length: 12 }, (_, i) => ({
      role: 'assistant',
      text: `the replica note ${i}`,
      ts: `2026-11-01T10:${String(i).padStart(2, '0')}:00Z`,
      line: i + 1,
    }))
    const recall = (extra) => report({ reload: true, recalledEntries, ...extra })
    const unset = recall({})
    expect(unset.entriesRecalled).toBe(SCHEMA.reloadRecall.default)
    expect(unset.prompt).toBe(recall({ recallEntries: SCHEMA.reloadRecall.default }).prompt)
    expect(unset.prompt).not.toBe(recall({ recallEntries: SCHEMA.reloadRecall.default - 1 }).prompt)
  })

  test('continuousEntries', () => {
    const continuous = { reload: false, currentSession: 'old' }
    const unset = report(continuous)
    expect(unset.prompt).toBe(report({ ...continuous, continuousEntries: SCHEMA.continuousEntries.default }).prompt)
    expect(unset.prompt).not.toBe(
      report({ ...continuous, continuousEntries: SCHEMA.continuousEntries.default - 1 }).prompt,
    )
  })

  test('summaryMaxChars', () => {
    const memory = { decisions: Array.from({ length: 400 }, (_, i) => `decision number ${i} about the schema`) }
    const summary = (extra) =>
      native.rebuildPersistentChatContinuitySummary({
        state: memory,
        entries: [],
        now: '2026-12-01T12:00:00Z',
        ...extra,
      })
    const unset = summary({})
    expect(unset.length).toBeLessThanOrEqual(SCHEMA.summaryMaxChars.default)
    expect(unset).toBe(summary({ maxChars: SCHEMA.summaryMaxChars.default }))
    expect(summary({ maxChars: SCHEMA.summaryMaxChars.default + 1000 }).length).toBeGreaterThan(unset.length)
  })
})

test("the README's settings table names every setting with the schema's default and range", () => {
  const readme = require('node:fs').readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8')
  const rows = new Map(
    [...readme.matchAll(/^\| ((?:`\w+`(?:, )?)+) \| ([^|]*) \| ([^|]*)/gm)].flatMap(([, keys, value, text]) =>
      keys.split(', ').map((key) => [key.slice(1, -1), { value: value.trim(), text }]),
    ),
  )
  expect([...rows.keys()].filter((key) => Object.hasOwn(SCHEMA, key)).sort()).toEqual(Object.keys(SCHEMA).sort())
  for (const [key, schema] of Object.entries(SCHEMA)) {
    const row = rows.get(key)
    if (schema.default !== undefined) {
      const expected = Array.isArray(schema.default)
        ? `\`${JSON.stringify(schema.default).replaceAll(',', ', ')}\``
        : String(schema.default)
      expect({ key, value: row.value }).toEqual({ key, value: expected })
    }
    if (schema.maximum !== undefined) expect(row.text).toContain(`(${schema.minimum}–${schema.maximum})`)
    for (const field of schema.items?.enum ?? []) expect(row.text).toContain(`\`${field}\``)
  }
})

test("every turnMetadata field the schema allows has its source in OpenClaw's context, and no other", () => {
  const script = `import { TURN_METADATA_FIELDS } from ${JSON.stringify(MODULE)};
    process.stdout.write(JSON.stringify(Object.keys(TURN_METADATA_FIELDS)));`
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
  expect(JSON.parse(result.stdout)).toEqual(SCHEMA.turnMetadata.items.enum)
})
