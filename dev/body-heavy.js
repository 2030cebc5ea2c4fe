'use strict'
// Body-heavy compaction inputs: a summary body of 15,000–40,000 units with
// the five required headings and hundreds of short bullet lines (3–17 words, some CJK and
// emoji), and a preserved suffix of OpenClaw's layout of a given length. Deterministic for a
// seed. Used by `npm run bench` and by scripts/differential/cap.js.

const { REQUIRED_SECTIONS, RULES_BLOCK, rng } = require('./shapes.js')

const WORDS = [
  'deploy',
  'the',
  'gateway',
  'after',
  'retry',
  'rollback',
  'of',
  'billing-api',
  'to',
  'staging',
  'is',
  'green',
  'check',
  'p99',
  'latency',
  'under',
  '200',
  'ms',
  'keep',
  'the',
  'cache',
  'warm',
  'user',
  'asked',
  'for',
  'a',
  'summary',
  'ses_7f3a9c21',
  '/srv/openclaw/state.json',
  'https://ci.example.com/builds/8841',
  'PR',
  '#1187',
  'INC-20261128-0914',
  'naïve',
  'e\u0301',
  '漢字',
  'テスト',
  '部署',
  '完了',
  '😀',
  '🚀',
  '👨‍👩‍👧',
  '🇯🇵',
  'and',
  'then',
]

function bullet(next) {
  const count = 3 + Math.floor(next() * 15) // 3–17 words
  const words = []
  for (let i = 0; i < count; i++) words.push(WORDS[Math.floor(next() * WORDS.length)])
  return `- ${words.join(' ')}`
}

/** A structured body of about `units` units: a preamble and the five sections of short bullets. */
function bodyOfLength(seed, units) {
  const next = rng(seed)
  const sections = REQUIRED_SECTIONS.map((heading) => [heading])
  let length = 'Session summary (compacted).\n'.length
  for (let s = 0; length < units; s = (s + 1) % sections.length) {
    const line = bullet(next)
    sections[s].push(line)
    length += line.length + 1
  }
  return ['Session summary (compacted).', '', ...sections.map((lines) => `${lines.join('\n')}\n`)].join('\n').trimEnd()
}

/** A suffix of OpenClaw's layout of about `units` units (at least the tail sections). */
function suffixOfLength(seed, units) {
  const next = rng(seed)
  const tail =
    '\n\n## Tool Failures\n- exec (status=failed exitCode=101): error[E0425]: cannot find value `x` --> src/lib.rs:3:5' +
    '\n\n<read-files>\nREADME.md\nsrc/lib.rs\n\n</read-files>\n\n<modified-files>\nsrc/main.rs\n\n</modified-files>' +
    RULES_BLOCK
  const items = []
  let length = tail.length + '\n\n## Recent turns preserved verbatim\n'.length
  for (let t = 0; length < units; t++) {
    const turn = [
      `- User: turn ${t}: ${bullet(next).slice(2)}`,
      `- Assistant: ${bullet(next).slice(2)}\n[non-text content: toolCall x2]`,
    ]
    for (let k = 0; k < 2; k++) {
      const json = JSON.stringify(
        { url: `https://api.example.com/v1/items/${t}${k}`, status: 200, body: bullet(next).repeat(4) },
        null,
        1,
      )
      turn.push(`- Tool result (web_fetch): ${json.length > 600 ? `${json.slice(0, 600)}...` : json}`)
    }
    turn.push(`- Assistant: Turn ${t} done: ${bullet(next).slice(2)}`)
    for (const item of turn) {
      items.push(item)
      length += item.length + 1
    }
  }
  return `\n\n## Recent turns preserved verbatim\n${items.join('\n')}${tail}`
}

/** The bench's body-heavy shapes: [body units, suffix units, maxChars]. */
const BODY_HEAVY_SHAPES = [
  [15000, 1000, 2000],
  [15000, 8000, 8000],
  [24000, 4000, 12000],
  [30000, 16000, 16000],
  [40000, 2000, 20000],
  [40000, 33000, 20000],
]

function bodyHeavyCase(seed, bodyUnits, suffixUnits, maxChars) {
  return { body: bodyOfLength(seed, bodyUnits), suffix: suffixOfLength(seed + 1, suffixUnits), maxChars }
}

module.exports = { bodyOfLength, suffixOfLength, bodyHeavyCase, BODY_HEAVY_SHAPES }
