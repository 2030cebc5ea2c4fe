'use strict'
// Strings cross the binding unit for unit on every platform (SPEC § Strings), checked against
// JavaScript's own strings rather than another platform's outputs: a leading U+FEFF (which a
// TextDecoder without ignoreBOM drops, as emnapi's did under WASI), lone surrogates, and both
// together, at the lengths emnapi creates differently (up to 16 units unit by unit, longer
// through its UTF-16 decoder). Results, and arguments the binding reads and then looks up again.
// scripts/local-platforms/test-platforms.sh runs this folder with the WASI build forced.
const native = require('../../index.js')

const BOM = '\ufeff'
const LONG = 'x'.repeat(40)
const texts = [
  ['a BOM alone', BOM],
  ['a short text after a BOM', `${BOM}bom`],
  ['a long text after a BOM', `${BOM}${LONG}`],
  ['two BOMs', `${BOM}${BOM}${LONG}`],
  ['a BOM after a lone high surrogate', `a\ud800${BOM}${LONG}`],
  ['a BOM after a lone low surrogate, first', `\udc00${BOM}${LONG}`],
  ['BOMs between lone surrogates', `${BOM}\ud800${BOM}\udc00${BOM}`.repeat(8)],
  ['a BOM inside', `${LONG}${BOM}${LONG}`],
]
const units = (s) => Array.from({ length: s.length }, (_, i) => s.charCodeAt(i).toString(16))
const suffix = '\n\n## Recent turns preserved verbatim\n- User: hi'

describe.each(texts)('%s comes back exactly', (_, text) => {
  test('as a result: capCompactionSummary and the fixed cap with no cap', () => {
    expect(units(native.capCompactionSummary(text, 0))).toEqual(units(text))
    expect(units(native.capCompactionSummaryPreservingSuffix(text, suffix, 0))).toEqual(units(text + suffix))
    expect(units(native.capCompactionSummaryPreservingSuffix('body', text, 0))).toEqual(units(`body${text}`))
    expect(units(native.capCompactionSummaryReport(text, suffix, 0).summary)).toEqual(units(text + suffix))
  })

  test('as an argument read and looked up again: a turnMetadata key, and its value', () => {
    const prompt = native.buildPersistentChatInjectedPrompt({
      userMessage: text,
      reload: false,
      turnMetadata: { [text]: text },
      legacyLayout: true,
    })
    expect(units(prompt)).toEqual(units(`## Turn Metadata\n- ${text}: ${text}\n\n--- LIVE TURN ---\n${text}`))
  })

  test("as an id and a session compared with the caller's", () => {
    const entries = [{ role: 'user', text, session: text, id: text }]
    const report = native.buildPersistentChatInjectedPromptReport({
      userMessage: 'live',
      reload: true,
      currentSession: text,
      logEntries: entries,
    })
    expect(report.injectedEntryIds.map(units)).toEqual([units(text)])
  })
})

test("the issue's case: capCompactionSummaryPreservingSuffix('\\uFEFFbom', suffix, 0) keeps its first unit", () => {
  expect(native.capCompactionSummaryPreservingSuffix(`${BOM}bom`, suffix, 0).charCodeAt(0)).toBe(0xfeff)
})
