'use strict'
// The command line's pure helpers, in-process: the nearest command or flag (Damerau-Levenshtein),
// errors as words with their code last, an unknown flag's suggestion, the --since/--until
// window, and the --out forms that are not written.
const { editDistance, nearest } = require('../lib/nearest')
const { inWords, errorJson, UsageError } = require('../lib/errors')
const { parseCommandArgs } = require('../lib/args')
const { boundMs, emptyWindow } = require('../lib/time-bound')
const { unwrittenSuffix } = require('../lib/out-path')

const COMMANDS = ['patch', 'doctor', 'search', 'export', 'backup', 'verify', 'restore', 'forget', 'import', 'help']

test('the edit distance counts a swap of two neighbours as one edit', () => {
  expect(editDistance('export', 'exprot')).toBe(1)
  expect(editDistance('export', 'expot')).toBe(1)
  expect(editDistance('export', 'eksport')).toBe(2)
  expect(editDistance('', 'abc')).toBe(3)
  expect(editDistance('same', 'same')).toBe(0)
})

test.each([
  ['exprot', 'export'],
  ['serach', 'search'],
  ['BACKPU', 'backup'],
  ['doc', 'doctor'],
  ['frobnicate', undefined],
  ['x', undefined],
  ['', undefined],
])('nearest(%j) is %j: offered only when close', (word, expected) => {
  expect(nearest(word, COMMANDS)).toBe(expected)
})

describe('errors as words', () => {
  const error = (message, fields = {}) => Object.assign(new Error(message), fields)

  test.each([
    [
      error("ENOTREGULAR: not a regular file (FIFO), open '/srv/chat/perpetual-log.jsonl'", { code: 'ENOTREGULAR' }),
      'not a regular file (FIFO): /srv/chat/perpetual-log.jsonl (ENOTREGULAR)',
    ],
    [
      error("EACCES: permission denied, open '/srv/out/.export.jsonl.openclaw-context-native-4242-0a1b2c3d.tmp'", {
        code: 'EACCES',
      }),
      'permission denied: /srv/out/export.jsonl (EACCES)',
    ],
    [
      error("ENOENT: no such file or directory, rename '/a' -> '/b'", { code: 'ENOENT' }),
      'no such file or directory: /a -> /b (ENOENT)',
    ],
    [error('no chat for that session key in /srv'), 'no chat for that session key in /srv'],
    [error('a first line\nsecond line', { code: 'EIO' }), 'a first line (EIO)'],
    ['ENOTREGULAR: not a regular file (FIFO)', 'not a regular file (FIFO) (ENOTREGULAR)'],
  ])('%s', (err, words) => {
    expect(inWords(err)).toBe(words)
  })

  test('--json keeps the code as a field, and the path', () => {
    const err = error("ENOTREGULAR: not a regular file (symlink), open '/p'", { code: 'ENOTREGULAR', path: '/p' })
    expect(errorJson(err)).toEqual({ error: 'not a regular file (symlink): /p', code: 'ENOTREGULAR', path: '/p' })
    expect(errorJson(error('plain words'))).toEqual({ error: 'plain words' })
  })
})

test('an unknown flag is offered the nearest one the command takes, or none', () => {
  const options = { out: { type: 'string' }, 'state-dir': { type: 'string' }, force: { type: 'boolean' } }
  const message = (argv) => {
    try {
      parseCommandArgs(argv, options)
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError)
      return err.message
    }
  }
  expect(message(['--ot', 'x'])).toBe("unknown option --ot (did you mean '--out'?)")
  expect(message(['--sate-dir', 'x'])).toBe("unknown option --sate-dir (did you mean '--state-dir'?)")
  expect(message(['--forse'])).toBe("unknown option --forse (did you mean '--force'?)")
  expect(message(['--bogus'])).toBe('unknown option --bogus')
})

describe('the --since/--until window', () => {
  test.each([
    ['2026-05-15', Date.UTC(2026, 4, 15)],
    ['2026-05-15T10:00:00Z', Date.UTC(2026, 4, 15, 10)],
    ['2026-05-15T10:00:00+02:00', Date.UTC(2026, 4, 15, 8)],
    ['2026-05-15 10:00', Date.UTC(2026, 4, 15, 10)],
    ['2026-05-15T10:00:00.250', Date.UTC(2026, 4, 15, 10, 0, 0, 250)],
    ['1778900000000', 1778900000000],
    ['yesterday', undefined],
  ])('%s', (text, ms) => {
    expect(boundMs(text)).toBe(ms)
  })

  test('empty when --until is not after --since; a value it cannot read is left to the addon', () => {
    expect(emptyWindow('2026-05-15', '2026-05-15')).toMatch(/^--until \(2026-05-15\) must be after --since/)
    expect(emptyWindow('2026-05-16', '1778803200000')).toMatch(/must be after/)
    expect(emptyWindow('2026-05-15', '2026-05-16')).toBeUndefined()
    expect(emptyWindow('yesterday', '2026-05-16')).toBeUndefined()
    expect(emptyWindow(undefined, '2026-05-16')).toBeUndefined()
  })
})

test.each([
  ['backup.tar.gz', '.tar.gz'],
  ['backup.TGZ', '.tgz'],
  ['chats.zip', '.zip'],
  ['export.jsonl.gz', '.gz'],
  ['backup.tar', undefined],
  ['backup', undefined],
  ['.gz', undefined],
])('--out %s: %j is not a form this package writes', (name, suffix) => {
  expect(unwrittenSuffix(`/srv/${name}`)).toBe(suffix)
})
