'use strict'
// lib/openclaw-release.js: SemVer precedence, and what a version says about a dist
// without capCompactionSummaryPreservingSuffix.
const {
  parseVersion,
  compareVersions,
  releaseWithoutFunction,
  bridgePassesSessionKey,
} = require('../lib/openclaw-release')

const order = (a, b) => compareVersions(parseVersion(a), parseVersion(b))

test('SemVer 2.0 precedence (its own example, § 11), pre-releases before their release', () => {
  const chain = [
    '1.0.0-alpha',
    '1.0.0-alpha.1',
    '1.0.0-alpha.beta',
    '1.0.0-beta',
    '1.0.0-beta.2',
    '1.0.0-beta.11',
    '1.0.0-rc.1',
    '1.0.0',
  ]
  for (let i = 0; i < chain.length; i++) {
    for (let j = 0; j < chain.length; j++)
      expect([chain[i], chain[j], order(chain[i], chain[j])]).toEqual([chain[i], chain[j], Math.sign(i - j)])
  }
})

test('OpenClaw versions in release order (the survey of 34 releases)', () => {
  const chain = [
    '2026.3.13',
    '2026.3.22',
    '2026.4.1',
    '2026.6.1-beta.1',
    '2026.6.1',
    '2026.6.35',
    '2026.7.1-beta.2',
    '2026.7.1-beta.4',
    '2026.7.1',
    '2026.7.2-beta.1',
    '2026.7.2-beta.7',
    '2026.7.33',
    '2026.8.1-beta.1',
    '2026.8.1-beta.2',
    '2026.8.1-beta.3',
    '2026.9.3',
    '2026.9.6',
    '2026.10.1',
  ]
  const shuffled = [...chain].reverse()
  expect(shuffled.sort(order)).toEqual(chain)
  expect(order('2026.9.6+build.7', '2026.9.6')).toBe(0)
})

test('not SemVer: null', () => {
  for (const text of [
    '',
    '2026.7',
    '2026.07.2',
    'v2026.7.2',
    '2026.7.2-',
    '2026.7.2-beta..1',
    '2026.7.2-01',
    undefined,
    2026,
  ]) {
    expect([text, parseVersion(text)]).toEqual([text, null])
  }
})

test.each([
  ['2026.3.13', 'not-yet'],
  ['2026.3.22-beta.1', 'not-yet'],
  ['2026.3.22', 'expected'],
  ['2026.8.1-beta.2', 'expected'],
  ['2026.8.1-beta.3', 'gone'],
  ['2026.9.6', 'gone'],
  ['2027.1.1', 'gone'],
  ['?', 'unknown'],
])('a dist of %s without the function: %s', (version, kind) => {
  expect(releaseWithoutFunction(version)).toBe(kind)
})

test.each([
  ['2026.7.2-beta.3', false],
  ['2026.7.2-beta.4', true],
  ['2026.6.35', false],
  ['2026.9.6', true],
  ['?', null],
  [undefined, null],
])("%s's plugin-tools bridge passes the session key: %p", (version, passes) => {
  expect(bridgePassesSessionKey(version)).toBe(passes)
})
