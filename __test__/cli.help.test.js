'use strict'
// The command line's help and usage errors, run as a user runs them (a child process): every
// command's help fits a screen and lists the flags it takes, the overview names every command
// in one line, a usage error is two lines ending with the help to read, a mistyped command or
// flag gets the nearest one, and errors read as words with their code last.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')
const { COMMANDS, optionsOf } = require('../cli/commands')
const { runCli, tempDirs } = require('./fixtures/cli.js')
const { posixTest } = require('./fixtures/platform.js')

const tempDir = tempDirs('occn-cli-help-')
const NAMES = Object.keys(COMMANDS)
const lines = (text) => text.replace(/\n$/, '').split('\n')

describe.each(NAMES)('%s', (name) => {
  const help = runCli([name, '--help'])

  test('--help prints its own help, at most 40 lines, exit 0, nothing on stderr', () => {
    expect([help.status, help.err]).toEqual([0, ''])
    expect(help.out).toMatch(new RegExp(`^Usage: openclaw-context ${name}( |\\n)`))
    expect(lines(help.out).length).toBeLessThanOrEqual(40)
    expect(help.out).toMatch(/^Exit codes: .*2 bad usage\.$/m)
    expect(help.out).toMatch(new RegExp(`^Reference: .*docs[\\\\/]cli\\.md, section "${name}"$`, 'm'))
  })

  test('help COMMAND and -h print the same', () => {
    expect(runCli(['help', name]).out).toBe(help.out)
    expect(runCli(['help', name, '--help']).out).toBe(help.out)
    expect(runCli([name, '-h']).out).toBe(help.out)
  })

  test('lists every flag the command takes, each one once', () => {
    for (const flag of Object.keys(optionsOf(name))) {
      expect(help.out.match(new RegExp(`^ {2}(-\\w, )? *--${flag}\\b`, 'gm'))).toHaveLength(1)
    }
  })

  test('an unknown flag: two lines, the second naming this help; exit 2', () => {
    const result = runCli([name, '--no-such-flag-at-all'])
    expect(result.status).toBe(2)
    expect(lines(result.err)).toEqual([
      'openclaw-context: unknown option --no-such-flag-at-all',
      `see 'openclaw-context ${name} --help'`,
    ])
    expect(result.out).toBe('')
  })
})

test('the overview: every command in one line, the global flags, the exit codes, where the reference is', () => {
  const { status, out, err } = runCli(['--help'])
  expect([status, err]).toEqual([0, ''])
  expect(runCli(['help']).out).toBe(out)
  expect(runCli(['help', '--help']).out).toBe(out)
  const escape = (text) => text.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')
  for (const name of NAMES) expect(out).toMatch(new RegExp(`^ {2}${name} +${escape(COMMANDS[name].summary)}$`, 'm'))
  expect(out).toMatch(/^ {2}-h, --help +/m)
  expect(out).toMatch(/^ {2}-v, --version +/m)
  expect(out).toMatch(/^Exit codes: 0 done, 1 .*, 2 bad usage\.$/m)
  expect(out).toMatch(/docs[\\/]cli\.md$/m)
  expect(lines(out).length).toBeLessThanOrEqual(40)
  // The reference it names is there, in the package.
  expect(fs.existsSync(/(\S+cli\.md)$/m.exec(out)[1])).toBe(true)
})

test.each([
  [['exprot'], "unknown command 'exprot' (did you mean 'export'?)", 'openclaw-context --help'],
  [['serach', '--log', 'x', 'q'], "unknown command 'serach' (did you mean 'search'?)", 'openclaw-context --help'],
  [['frobnicate'], "unknown command 'frobnicate'", 'openclaw-context --help'],
  [['help', 'bakcup'], "unknown command 'bakcup' (did you mean 'backup'?)", 'openclaw-context --help'],
  [['--hepl'], "unknown option --hepl (did you mean '--help'?)", 'openclaw-context --help'],
  [[], 'no command given', 'openclaw-context --help'],
  [
    ['export', '--log', 'x', '--ot', 'y'],
    "unknown option --ot (did you mean '--out'?)",
    'openclaw-context export --help',
  ],
  [
    ['backup', '--sate-dir', 'x'],
    "unknown option --sate-dir (did you mean '--state-dir'?)",
    'openclaw-context backup --help',
  ],
  [['verify', 'x', '--jsno'], "unknown option --jsno (did you mean '--json'?)", 'openclaw-context verify --help'],
])('%j: a usage error of two lines, the nearest word offered only when close', (args, message, help) => {
  const { status, err } = runCli(args)
  expect(status).toBe(2)
  expect(lines(err)).toEqual([`openclaw-context: ${message}`, `see '${help}'`])
})

describe('errors read as words, the code after them', () => {
  posixTest('no FIFOs there')('a FIFO as the log: "not a regular file (FIFO): PATH (ENOTREGULAR)"', () => {
    const dir = tempDir()
    const fifo = path.join(dir, 'log.jsonl')
    spawnSync('mkfifo', [fifo])
    const { status, err } = runCli(['export', '--log', fifo], { timeout: 10000 })
    expect(status).toBe(1)
    expect(err).toBe(`openclaw-context: not a regular file (FIFO): ${fifo} (ENOTREGULAR)\n`)
  })

  test('--json: the failure as JSON on stdout too, the code as a field', () => {
    const missing = path.join(tempDir(), 'missing')
    const { status, out, err } = runCli(['verify', missing, '--json'])
    expect(status).toBe(1)
    expect(err).toMatch(/^openclaw-context: [a-z][^\n]*: \S*missing \(ENOENT\)\n$/)
    const json = JSON.parse(out)
    expect(json).toMatchObject({ code: 'ENOENT' })
    expect(json.error).not.toMatch(/^ENOENT/)
    expect(json.error).toContain(missing)
  })
})
