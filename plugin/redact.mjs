// Masks secrets in what the plugin stores (the log, the summary, the last prompt), as
// OpenClaw masks them in its own transcripts and logs.
//
// - Where the running OpenClaw exports `redactSensitiveText` (openclaw/plugin-sdk/logging-core,
//   in 2026.7.2 and later), that is the mask: its own patterns, or the config's
//   `logging.redactPatterns`, and the secrets it registered at run time.
// - Else the plugin's own default patterns below, plus `logging.redactPatterns` from the config.
// - The plugin's `redactPatterns` setting applies on top, either way.
//
// What the backend gets is not masked: the live message goes as the user wrote it (the
// backend must answer what was asked); injected history comes from the stored, masked copies.

/** Masks a secret as OpenClaw does: short ones whole, long ones keep 6 + 4 characters. */
export function maskSecret(secret) {
  if (secret.length < 18) return '***'
  return `${secret.slice(0, 6)}…${secret.slice(-4)}`
}

// Each pattern is linear in the text (no nested quantifiers); group 1, when present, is
// the part masked (the rest, such as `Bearer ` or `password=`, stays readable). Each has a
// cheap test first (`hint`): most text holds none of them, and a whole prompt is masked.
const DEFAULT_PATTERNS = [
  [/sk-/, /\b(sk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{16,})/g], // OpenAI, Anthropic and look-alikes
  [/gh[pousr]_/, /\b((?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,})/g], // GitHub tokens
  [/github_pat_/, /\b(github_pat_[A-Za-z0-9_]{20,})/g],
  [/glpat-/, /\b(glpat-[A-Za-z0-9_-]{20,})/g], // GitLab
  [/xox[abposr]-/, /\b(xox[abposr]-[A-Za-z0-9-]{10,})/g], // Slack
  [/xapp-/, /\b(xapp-[A-Za-z0-9-]{10,})/g],
  [/A[KS]IA/, /\b((?:AKIA|ASIA)[A-Z0-9]{16})\b/g], // AWS access key ids
  [/AIza/, /\b(AIza[0-9A-Za-z_-]{35})/g], // Google API keys
  [/_(?:live|test)_/, /\b((?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,})/g], // Stripe
  [/npm_/, /\b(npm_[A-Za-z0-9]{36})\b/g],
  [/eyJ/, /\b(eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})/g], // JWTs
  [/bearer|basic|token/i, /\b(?:Bearer|Basic|Token)\s+([A-Za-z0-9._~+/-]{16,}=*)/gi], // Authorization headers
  [
    /(?:api[_-]?key|secret|token|passw(?:or)?d|pwd|credentials?)["']?\s*[:=]/i,
    /\b[A-Za-z0-9_.-]*(?:api[_-]?key|secret|token|passw(?:or)?d|pwd|credentials?)["']?\s*[:=]\s*["']?([^\s"',;]{6,})/gi,
  ],
  [/:\/\/[^\s:/@]+:[^\s/@]+@/, /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:([^\s/@]{4,})@/gi], // a password in a URL
]

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----/g
const PEM_END = /-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----/g

/** PEM private keys, whole; one without its END line is masked to the end of the text. */
function maskPrivateKeys(text) {
  if (!text.includes('PRIVATE KEY-----')) return text
  let out = ''
  let at = 0
  PEM_BEGIN.lastIndex = 0
  for (let begin = PEM_BEGIN.exec(text); begin; begin = PEM_BEGIN.exec(text)) {
    PEM_END.lastIndex = begin.index + begin[0].length
    const end = PEM_END.exec(text)
    const stop = end ? end.index + end[0].length : text.length
    out += `${text.slice(at, begin.index)}-----BEGIN PRIVATE KEY-----***-----END PRIVATE KEY-----`
    at = stop
    PEM_BEGIN.lastIndex = stop
  }
  return out + text.slice(at)
}

function applyPattern(text, pattern) {
  pattern.lastIndex = 0
  return text.replace(pattern, (match, ...rest) => {
    const group = typeof rest[0] === 'string' ? rest[0] : undefined
    if (group === undefined) return maskSecret(match)
    const at = match.lastIndexOf(group)
    return `${match.slice(0, at)}${maskSecret(group)}${match.slice(at + group.length)}`
  })
}

/**
 * A pattern of a `redactPatterns` list: `/source/flags` or a bare source. Throws a
 * SyntaxError for an invalid one (the config check names the setting).
 */
export function compilePattern(source) {
  const literal = /^\/(.+)\/([a-z]*)$/s.exec(source)
  const [body, flags] = literal ? [literal[1], literal[2]] : [source, '']
  return new RegExp(body, flags.includes('g') ? flags : `${flags}g`)
}

/** The plugin's own mask: its defaults, PEM keys, then `extra` patterns. */
export function builtInRedact(text, extra = []) {
  let out = maskPrivateKeys(text)
  for (const [hint, pattern] of DEFAULT_PATTERNS) if (hint.test(out)) out = applyPattern(out, pattern)
  for (const pattern of extra) out = applyPattern(out, pattern)
  return out
}

/**
 * The mask for this gateway: `(text) => masked text`, and where it comes from
 * (`openclaw` or `built-in`) for the start-up debug line.
 *
 * @param {object} options
 * @param {RegExp[]} options.patterns       the plugin's `redactPatterns`, compiled
 * @param {object} [options.openclawConfig] the gateway's config (for `logging.redactPatterns`)
 * @param {Function} [options.openclawRedact] OpenClaw's `redactSensitiveText`, when it has one
 */
export function createRedactor({ patterns = [], openclawConfig, openclawRedact } = {}) {
  if (typeof openclawRedact === 'function') {
    return {
      source: 'openclaw',
      redact(text) {
        if (!text) return text
        let out
        try {
          out = openclawRedact(text)
        } catch {
          out = undefined
        }
        // Whatever OpenClaw's mask does, the plugin's own one runs too: never less than it.
        out = builtInRedact(typeof out === 'string' ? out : text)
        for (const pattern of patterns) out = applyPattern(out, pattern)
        return out
      },
    }
  }
  const fromConfig = []
  for (const source of openclawConfig?.logging?.redactPatterns ?? []) {
    try {
      if (typeof source === 'string' && source.trim()) fromConfig.push(compilePattern(source))
    } catch {
      // OpenClaw validates its own config; a pattern it would skip is skipped here too.
    }
  }
  const extra = [...fromConfig, ...patterns]
  return { source: 'built-in', redact: (text) => (text ? builtInRedact(text, extra) : text) }
}

/** OpenClaw's `redactSensitiveText`, or undefined on a release without it. */
export async function loadOpenclawRedact() {
  try {
    const mod = await import('openclaw/plugin-sdk/logging-core')
    return typeof mod.redactSensitiveText === 'function' ? mod.redactSensitiveText : undefined
  } catch {
    return undefined
  }
}
