// The gateway's masking patterns, and the masking of the warning lines the plugin logs, with
// the addon's `SecretMasker`. What is stored (the log, the summary, the last prompt) the chat
// store masks itself as it writes it, with the same patterns (`maskPatterns`) and engine: a
// linear-time engine (Rust's
// `regex`: no backtracking, so no message and no pattern can stall the gateway), run on the
// libuv thread pool. Each mask is a typed placeholder, `[redacted:TYPE]`; `<private>…</private>`
// spans become `[redacted:private]`. The patterns: the built-in ones, then OpenClaw's
// `logging.redactPatterns` and the plugin's `redactPatterns`, compiled by the same engine; a
// pattern it cannot use is refused (one start-up warning names each, with why), the others apply.
//
// OpenClaw's own `redactSensitiveText` is not applied: its masks keep a prefix and suffix of
// the secret (`sk-pro…MTIz`), which a backend may paste back as if it were the credential,
// and it runs on the event loop with a cost that grows faster than the text (2026.9.6: 18 ms
// for 120,000 characters of prose, 2.9 s for 120,000 of `http://u:` repeated). What it
// alone masks (secrets registered at run time) is not masked here.
//
// What the backend gets is not masked: the live message goes as the user wrote it (the
// backend must answer what was asked); injected history comes from the stored, masked copies.
import { createRequire } from 'node:module'

/** The config's pattern lists, as `{ setting, pattern }`, in the order the masker gets them. */
function patternSources(patterns, openclawConfig) {
  const fromLogging = openclawConfig?.logging?.redactPatterns
  const logging = Array.isArray(fromLogging) ? fromLogging : []
  return [
    // OpenClaw validates its own config; an entry that is not a non-empty string is skipped, as it skips it.
    ...logging
      .map((pattern, index) => ({ setting: `logging.redactPatterns[${index}]`, pattern }))
      .filter(({ pattern }) => typeof pattern === 'string' && pattern.trim()),
    ...patterns.map((pattern, index) => ({ setting: `redactPatterns[${index}]`, pattern })),
  ]
}

/**
 * The masker for this gateway: `redact(text)` resolves to the masked text (masked on the
 * thread pool; `redactMany(texts)` masks several in one call), `refused` lists the patterns not used (`{ setting, pattern, reason }`),
 * `maskPatterns` are the operator's patterns for the chat store.
 * Rejects when the addon cannot be loaded.
 *
 * @param {object} options
 * @param {string[]} [options.patterns]    the plugin's `redactPatterns`
 * @param {object} [options.openclawConfig] the gateway's config (for `logging.redactPatterns`)
 */
export async function createRedactor({ patterns = [], openclawConfig } = {}) {
  const { SecretMasker } = createRequire(import.meta.url)('../index.js')
  const sources = patternSources(patterns, openclawConfig)
  const masker = new SecretMasker({ patterns: sources.map(({ pattern }) => pattern) })
  const settingOf = new Map()
  for (const { setting, pattern } of sources) if (!settingOf.has(pattern)) settingOf.set(pattern, setting)
  return {
    refused: masker.refused.map(({ pattern, reason }) => ({ setting: settingOf.get(pattern), pattern, reason })),
    /** The operator's patterns, for the chat store, which masks what it writes with the same engine. */
    maskPatterns: sources.map(({ pattern }) => pattern),
    redact: (text) => (text ? masker.maskAsync(text) : Promise.resolve(text)),
    /** Several texts in one call on the pool (the chat-log tools' hits). */
    redactMany: (texts) => (texts.length > 0 ? masker.maskManyAsync(texts) : Promise.resolve([])),
  }
}

/** The start-up warning for refused patterns, or undefined when every pattern is used. */
export function refusedPatternsLine(pluginId, refused) {
  if (refused.length === 0) return undefined
  const each = refused.map(({ setting, pattern, reason }) => `${setting} ${JSON.stringify(pattern)} (${reason})`)
  return `${pluginId}: masking patterns not used: ${each.join('; ')}; the other patterns apply`
}
