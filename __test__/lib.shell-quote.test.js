'use strict'
// lib/shell-quote.js: what `patch` prints, and what doctor and the plugin print with it. A value
// quoted for a POSIX shell reads back, pasted into bash, as exactly the value, as one argument,
// running nothing; no printed value holds a raw control character, line or paragraph separator
// or bidirectional control, so a folder name cannot forge a line of the output or a command.
const { spawnSync } = require('node:child_process')
const fc = require('fast-check')
const { quoteArg, escapeControl } = require('../lib/shell-quote')
const { onWindows, testUnless } = require('./fixtures/platform.js')

// Everything that must never print raw (lone surrogates print as U+FFFD, so they too).
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** What bash makes of `quoted` as the arguments of a command: each one, NUL-separated. */
function bashArgs(quoted) {
  const run = spawnSync('bash', ['-c', `printf '%s\\0' ${quoted}`], { encoding: 'utf8' })
  if (run.status !== 0) throw new Error(`bash failed on ${quoted}: ${run.stderr}`)
  return run.stdout.split('\0').slice(0, -1)
}

describe('quoteArg (POSIX)', () => {
  test.each([
    ['/srv/gw/node_modules/openclaw', '/srv/gw/node_modules/openclaw'],
    ["/srv/my gw/it's", "'/srv/my gw/it'\\''s'"],
    ['/tmp/x$(touch pwned)', "'/tmp/x$(touch pwned)'"],
    ['/tmp/`id`;rm -rf ~', "'/tmp/`id`;rm -rf ~'"],
    ['/tmp/a\nproblem: none', "$'/tmp/a\\nproblem: none'"],
    ["/tmp/it's\t\\x", "$'/tmp/it\\'s\\t\\\\x'"],
    ['/tmp/\x1b[2Jcleared', "$'/tmp/\\x1B[2Jcleared'"],
    ['/tmp/\u202eevil', "$'/tmp/\\u202Eevil'"],
    ['/tmp/line\u2028sep\u0085', "$'/tmp/line\\u2028sep\\u0085'"],
  ])('%j → %s', (value, quoted) => {
    expect(quoteArg(value, 'linux')).toBe(quoted)
  })

  testUnless(onWindows, 'on win32: no bash')(
    'pasted into bash, any value reads back as itself, one argument, nothing run; printed on one line',
    () => {
      // Any characters but NUL (no argument or path holds one), control characters and
      // separators made common, and shell syntax.
      const piece = fc.oneof(
        fc.string({ unit: 'binary' }),
        fc.constantFrom(
          '\n',
          '\r',
          '\t',
          '\x1b',
          '\x7f',
          '\u0085',
          '\u2028',
          '\u202e',
          "'",
          '"',
          '\\',
          '$(id)',
          '`id`',
          ' ',
          ';',
          '*',
          '~',
          '!',
        ),
      )
      fc.assert(
        fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
          const value = pieces.join('').replace(/\0/g, '')
          if (value === '') return
          const quoted = quoteArg(value, 'linux')
          expect(quoted).not.toMatch(UNSAFE)
          // Lone surrogates cannot reach bash as UTF-8: what it reads back is checked for the rest.
          if (/[\ud800-\udfff]/.test(value.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ''))) return
          expect(bashArgs(quoted)).toEqual([value])
        }),
        { numRuns: 150 },
      )
    },
  )
})

describe('quoteArg (Windows)', () => {
  test.each([
    ['C:\\Users\\me\\openclaw', 'C:\\Users\\me\\openclaw'],
    ['C:\\Program Files\\gw', '"C:\\Program Files\\gw"'],
    ['Z:/srv/gw', 'Z:/srv/gw'],
    // PowerShell reads `a,b` as an array, cmd splits there: quoted.
    ['C:\\gw\\a,b', '"C:\\gw\\a,b"'],
    // $ and a backtick expand in PowerShell's double quotes, % in cmd's: PowerShell's literal quotes.
    ['C:\\gw\\$(calc)', "'C:\\gw\\$(calc)'"],
    ["C:\\gw\\%PATH%\\it's", "'C:\\gw\\%PATH%\\it''s'"],
    // No Windows file name holds a control character; should one come, PowerShell's escapes.
    ['C:\\gw\\a\nb$`', '"C:\\gw\\a`nb`$``"'],
    ['C:\\gw\\\u202e', '"C:\\gw\\`u{202E}"'],
  ])('%j → %s', (value, quoted) => {
    expect(quoteArg(value, 'win32')).toBe(quoted)
    expect(quoted).not.toMatch(UNSAFE)
  })
})

describe('escapeControl', () => {
  test.each([
    ['agent:codex:acp:chat', 'agent:codex:acp:chat'],
    ['a\nproblem: none', 'a\\nproblem: none'],
    ['C:\\gw', 'C:\\\\gw'],
    ['\x1b[31mred\x07', '\\x1B[31mred\\x07'],
    ['\u202eevil\u2029', '\\u202Eevil\\u2029'],
    ['lone \ud800 pair \ud83d\ude00', 'lone \\uD800 pair \ud83d\ude00'],
  ])('%j → %j', (value, escaped) => {
    expect(escapeControl(value)).toBe(escaped)
  })

  test('one line that reads back as the value: nothing raw, and the escapes undo exactly', () => {
    const unescape = (text) =>
      text.replace(/\\(\\|n|t|r|x[0-9A-F]{2}|u[0-9A-F]{4})/g, (_, e) =>
        e === '\\'
          ? '\\'
          : e === 'n'
            ? '\n'
            : e === 't'
              ? '\t'
              : e === 'r'
                ? '\r'
                : String.fromCharCode(Number.parseInt(e.slice(1), 16)),
      )
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (value) => {
        const escaped = escapeControl(value)
        expect(escaped).not.toMatch(UNSAFE)
        expect(unescape(escaped)).toBe(value)
      }),
    )
  })
})
