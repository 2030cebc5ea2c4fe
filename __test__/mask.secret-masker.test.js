'use strict'
// `SecretMasker` through the binding: typed placeholders, exact text elsewhere (lone
// surrogates included), refused patterns, the Promise methods on the thread pool, and the
// errors of docs/api.md (a TypeError naming the argument; the Async methods reject, never throw).
const { SecretMasker } = require('../index.js')

const SECRET = 'ghp_abcdefghijklmnopqrstuvwxyz0123'

test('secrets and <private> spans become typed placeholders; every other unit comes back exactly', () => {
  const masker = new SecretMasker()
  const text = `a\uD800 ${SECRET} password=hunter22 \uDC00😀 <private>pin 4921</private> end`
  expect(masker.mask(text)).toBe(
    'a\uD800 [redacted:github-token] password=[redacted:password] \uDC00😀 [redacted:private] end',
  )
  expect(masker.mask(masker.mask(text))).toBe(masker.mask(text))
  expect(masker.mask('')).toBe('')
  expect(masker.refused).toEqual([])
})

test('operator patterns: JS flags, a group masks only itself, refusals with one-line reasons', () => {
  const masker = new SecretMasker({
    patterns: ['/acme-[0-9a-f]{6}/i', 'pin=(\\d+)', '(?=x)y', '(a)\\1', '', 'a|', '/x/y', 'ok\uD800'],
  })
  expect(masker.mask('ACME-7f3a9c and pin=0042')).toBe('[redacted:custom] and pin=[redacted:custom]')
  const refused = masker.refused
  expect(refused.map((r) => r.pattern)).toEqual(['(?=x)y', '(a)\\1', '', 'a|', '/x/y', 'ok\uFFFD'])
  for (const { reason } of refused) expect(reason).toMatch(/^[^\n]+$/)
  expect(refused[2].reason).toBe('it matches the empty string')
  expect(refused[5].reason).toBe('it has a lone surrogate')
})

test('the Async methods give what the sync ones give, from the thread pool', async () => {
  const masker = new SecretMasker({ patterns: ['ACME-\\d+'] })
  const texts = [`key ${SECRET}`, 'ACME-42 here', 'plain', '']
  await expect(masker.maskAsync(texts[0])).resolves.toBe(masker.mask(texts[0]))
  expect(masker.maskMany(texts)).toEqual(texts.map((t) => masker.mask(t)))
  await expect(masker.maskManyAsync(texts)).resolves.toEqual(masker.maskMany(texts))
  // A hostile message of 120,000 characters: linear engine, answered at once.
  const hostile = `${'a.'.repeat(60000)} token=`
  await expect(masker.maskAsync(hostile)).resolves.toBe(hostile)
})

test('bad arguments: a TypeError naming the argument; the Async methods reject instead of throwing', async () => {
  const masker = new SecretMasker()
  expect(() => masker.mask(42)).toThrow(expect.objectContaining({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' }))
  expect(() => masker.mask(42)).toThrow(/"text"/)
  expect(() => masker.maskMany(['a', 1])).toThrow(/"texts\[1\]"/)
  expect(() => masker.maskMany('a')).toThrow(/"texts"/)
  expect(() => new SecretMasker({ patterns: 'x' })).toThrow(/"options.patterns"/)
  expect(() => new SecretMasker({ patterns: [1] })).toThrow(/"options.patterns\[0\]"/)
  expect(() => new SecretMasker(7)).toThrow(/"options"/)
  let promise
  expect(() => {
    promise = masker.maskAsync(null)
  }).not.toThrow()
  await expect(promise).rejects.toMatchObject({ name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' })
  await expect(masker.maskManyAsync([null])).rejects.toThrow(/"texts\[0\]"/)
  const getter = {
    get patterns() {
      throw new Error('from the getter')
    },
  }
  expect(() => new SecretMasker(getter)).toThrow('from the getter')
})
