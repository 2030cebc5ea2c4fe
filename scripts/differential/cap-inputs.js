'use strict'
// Inputs for the cap differential (scripts/differential/cap.js): `caseAt(seed, index)` gives one
// deterministic case { kind, body, suffix, maxChars, options } of one of these kinds:
//   realistic   OpenClaw-shaped bodies and suffixes (dev/shapes.js);
//   body-heavy  15,000–40,000-unit bodies of short bullets, suffixes of 1,000–33,000 units
//               (dev/body-heavy.js);
//   adversarial lines assembled from openers and their look-alikes, `#<*` mid-line, item starts,
//               CRLF and lone CR, blank lines of spaces, rules blocks whole, unclosed, doubled or
//               followed by text, CJK, emoji, ZWJ sequences, flags, combining marks, lone
//               surrogates, NUL, lines longer than the budget;
// each at budgets from every range: 0–200 (fractions too), 200–2,000, 2,000–20,000, around the
// total length, and the special values (negative, NaN, Infinity, undefined).

const shapes = require('../../dev/shapes.js')
const { bodyOfLength, suffixOfLength } = require('../../dev/body-heavy.js')

const RULES_OPEN = '<workspace-critical-rules>'
const RULES_CLOSE = '</workspace-critical-rules>'

const OPENERS = [
  '## Recent turns preserved verbatim',
  '## Tool Failures',
  '<read-files>',
  '<modified-files>',
  RULES_OPEN,
  '**Turn Context (split turn):**',
  '**Turn Context**',
]
const LOOK_ALIKES = [
  ' ## Recent turns preserved verbatim',
  '## Recent turns preserved verbatim ',
  '## Recent turns preserved verbatim:',
  '## recent turns preserved verbatim',
  '\t<read-files>',
  '<read-files >',
  '<Read-Files>',
  '</read-files>',
  '</modified-files>',
  RULES_CLOSE,
  `  ${RULES_OPEN}`,
  '**Bold**',
  '**x**:',
  '****',
  '* bullet',
  '#',
  '##',
  '#hashtag',
  '# Title',
  '### Deep',
  '<tag>',
  '<a-b_c>',
  '<>',
  '< x >',
  '<br/>',
  '**Turn Context',
  'Turn Context',
  '## Decisions',
  ' ## Open TODOs',
  '## Decisions ',
  '## Exact identifiers',
  '## Constraints/Rules',
  '## Pending user asks',
]
const ITEM_STARTS = [
  '- User: ',
  '- Assistant: ',
  '- Tool result (exec): ',
  '- Tool result (',
  '-User: ',
  '- user: ',
  '- ',
  '* ',
  '1. ',
  '',
]
const WORDS = [
  'a',
  'Z',
  'deploy',
  'the',
  'gateway',
  'https://x.example/a?b=1#frag',
  '/srv/app/state.json',
  'ses_9f8e7d6c',
  'PR',
  '#1187',
  'a<b',
  'x*y',
  'C#',
  '<div>',
  '**',
  '*',
  '#',
  '<',
  '{"k":[1,2]}',
  '漢字',
  'テスト',
  '上',
  '😀',
  '👨‍👩‍👧',
  '🇯🇵',
  '🇫🇷',
  'e\u0301',
  '\u0301',
  '\u200d',
  '\u2323',
  '\u4e23',
  '\u0a0a',
  '\u230a',
  'क्षि',
  '\ud800',
  '\udc00',
  '\udbff\udfff',
  '\u0000',
  '\u00a0',
  '\u3000',
  '\u2028',
  '\ufeff',
  'ACP_TURN_FAILED',
]
const BLANKS = ['', '', '', ' ', '  ', '\t', ' \t ', '\u00a0', '\u3000']
const EOLS = ['\n', '\n', '\n', '\n', '\r\n', '\r\n', '\r']

function picker(next) {
  const pick = (list) => list[Math.floor(next() * list.length)]
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1))
  return { pick, int, chance: (p) => next() < p }
}

function phrase(r, maxWords) {
  const words = []
  for (let i = r.int(1, maxWords); i > 0; i--) words.push(r.pick(WORDS))
  return words.join(r.chance(0.1) ? '' : ' ')
}

function adversarialLine(r) {
  const roll = r.int(0, 9)
  if (roll === 0) return r.pick(OPENERS)
  if (roll === 1) return r.pick(LOOK_ALIKES)
  if (roll === 2) return r.pick(BLANKS)
  if (roll === 3)
    return `${r.pick(ITEM_STARTS)}${phrase(r, 6)} ${r.pick(['#', '<', '*', '</x>', '<x>'])}${phrase(r, 3)}`
  if (roll === 4 && r.chance(0.2)) return phrase(r, 400) // longer than small budgets
  return `${r.pick(ITEM_STARTS)}${phrase(r, 14)}`
}

function adversarialText(r, lines) {
  const eol = r.pick(EOLS)
  const out = []
  for (let i = 0; i < lines; i++) out.push(adversarialLine(r))
  return out.join(r.chance(0.8) ? eol : '').replace(/\n/g, () => (r.chance(0.05) ? r.pick(EOLS) : '\n'))
}

function rulesBlock(r) {
  const inner = []
  for (let i = r.int(0, 6); i > 0; i--)
    inner.push(r.chance(0.3) ? r.pick(['## Red Lines', '## Session Startup', '']) : `- ${phrase(r, 10)}`)
  const variant = r.int(0, 9)
  const block = [RULES_OPEN, ...inner, RULES_CLOSE].join('\n')
  if (variant === 0) return [RULES_OPEN, ...inner].join('\n') // unclosed
  if (variant === 1) return `${block}\n\n${block}` // two blocks
  if (variant === 2) return `${block}${r.pick(['\n', '\n\n', '  ', '\n \n'])}` // trailing blank space
  if (variant === 3) return `${block}\ntrailing text`
  if (variant === 4) return [RULES_CLOSE, ...inner, RULES_CLOSE].join('\n') // no opener
  return block
}

function adversarialSuffix(r) {
  const sections = []
  for (let i = r.int(0, 5); i > 0; i--) {
    const header = r.chance(0.7) ? r.pick(OPENERS) : r.pick(LOOK_ALIKES)
    sections.push(`${header}\n${adversarialText(r, r.int(0, 25))}`)
  }
  if (r.chance(0.6)) sections.push(rulesBlock(r))
  const sep = () => r.pick(['\n\n', '\n\n', '\n', '\n \n', '\r\n\r\n', ''])
  let text = sections.map((s) => sep() + s).join('')
  if (r.chance(0.3)) text = text.trimStart()
  return text
}

function adversarialBody(r) {
  const lines = []
  if (r.chance(0.5)) lines.push(phrase(r, 12), '')
  for (let i = r.int(0, 8); i > 0; i--) {
    lines.push(r.chance(0.7) ? r.pick(shapes.REQUIRED_SECTIONS) : r.pick(LOOK_ALIKES))
    lines.push(adversarialText(r, r.int(0, 30)))
  }
  return lines.join(r.pick(EOLS))
}

/** A maxChars from one of the ranges (total: body + suffix length). */
function budget(r, total) {
  const roll = r.int(0, 19)
  if (roll < 6) return r.chance(0.25) ? r.int(0, 200) + 0.5 : r.int(0, 200)
  if (roll < 9) return r.int(200, 2000)
  if (roll < 14) return r.int(2000, 20000)
  if (roll < 17) return Math.max(1, total + r.int(-60, 2))
  if (roll < 19) return r.int(1, Math.max(1, total))
  return r.pick([-1, 0, NaN, Infinity, -Infinity, undefined, 46, 46.5, 47, 0.5, 1.5, 16000])
}

function options(r, body) {
  if (r.chance(0.6)) return undefined
  const out = {}
  if (r.chance(0.3)) out.tokenBudget = r.pick([0, -1, NaN, Infinity, r.int(1, 50), r.int(50, 5000), 12.5])
  if (r.chance(0.4))
    out.requiredHeadings = r.chance(0.5) ? [r.pick(shapes.REQUIRED_SECTIONS)] : [r.pick(LOOK_ALIKES), '## Keep me', '']
  if (r.chance(0.6) && body.length > 10) {
    const ids = []
    for (let i = r.int(1, 6); i > 0; i--) {
      const at = r.int(0, body.length - 5)
      ids.push(body.slice(at, at + r.int(1, 24)))
    }
    if (r.chance(0.3)) ids.push('')
    out.protectedIdentifiers = ids
  }
  return out
}

const KINDS = ['realistic', 'realistic', 'body-heavy', 'adversarial', 'adversarial', 'adversarial']

/** The case number `index` of the run seeded with `seed`. */
function caseAt(seed, index) {
  const r = picker(shapes.rng((seed * 0x9e3779b1 + index * 0x85ebca6b) >>> 0))
  const kind = r.pick(KINDS)
  let body
  let suffix
  if (kind === 'realistic') {
    body = shapes.structuredBody({ seed: r.int(1, 1e6), linesPerSection: r.int(0, 40), crlf: r.chance(0.1) })
    suffix = shapes.preservedSuffix({
      seed: r.int(1, 1e6),
      turns: r.int(0, 5),
      toolsPerTurn: r.int(0, 14),
      splitTurn: r.chance(0.3),
      failures: r.int(0, 3),
      files: r.chance(0.7),
      rules: r.chance(0.7),
    })
  } else if (kind === 'body-heavy') {
    body = bodyOfLength(r.int(1, 1e6), r.int(15000, 40000))
    suffix = suffixOfLength(r.int(1, 1e6), r.int(1000, 33000))
  } else {
    body = r.chance(0.1) ? '' : adversarialBody(r)
    suffix = r.chance(0.05) ? '' : adversarialSuffix(r)
  }
  if (r.chance(0.03)) suffix = ''
  const maxChars = kind === 'body-heavy' && r.chance(0.6) ? r.int(2000, 20000) : budget(r, body.length + suffix.length)
  return { kind, body, suffix, maxChars, options: options(r, body) }
}

module.exports = { caseAt }
