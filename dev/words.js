'use strict'
// The words the realistic chat generators write with (the bench's logs and memory state, the
// jest chat fixtures): what a gateway's chats hold, prose with URLs, paths, ids, code
// references, CJK, an emoji and quotes. One list, so the bench and the specs read the same kind
// of text. The compaction shapes (dev/shapes.js) and the chat differential
// (scripts/differential/chat.js) keep lists of their own, weighted to graphemes and to hostile
// text, whose order their recorded inputs depend on.

const CHAT_WORDS = [
  'deploy',
  'gateway',
  'rollback',
  'the',
  'build',
  'is',
  'green',
  'again',
  'after',
  'retry',
  'with',
  'cache',
  'https://ci.example.com/builds/8841?tab=logs',
  '/srv/openclaw/state.json',
  'naïve',
  '漢字',
  'テスト',
  '😀',
  'please',
  'check',
  'staging',
  'migration',
  'users',
  'table',
  'index',
  'latency',
  'p99',
  'timer',
  'reminder',
  'tomorrow',
  'invoice',
  'webhook',
  'queue',
  '`invoices.events`',
  'INC-20261128-0914',
  'ses_7f3a9c21',
  'and',
  'to',
  'of',
  'a',
  'in',
  'we',
  'should',
  'run',
  'tests',
  'on',
  'node',
  '24',
  'then',
  'ship',
  '"quoted"',
  'it',
  'error[E0425]:',
  'src/lib.rs:42:5',
  'PR',
  '#1187',
  'looks',
  'fine',
  'but',
  'p95',
  'regressed',
  'by',
  '12%',
]

/** `count` words of CHAT_WORDS drawn with `next` (a dev/shapes.js rng), joined by spaces. */
function words(next, count) {
  const out = new Array(count)
  for (let i = 0; i < count; i++) out[i] = CHAT_WORDS[Math.floor(next() * CHAT_WORDS.length)]
  return out.join(' ')
}

module.exports = { CHAT_WORDS, words }
