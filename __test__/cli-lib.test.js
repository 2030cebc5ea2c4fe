'use strict'
// The CLI's pure pieces (cli/lib/), in-process: paths on both platforms (path.win32
// here, whatever this machine is), quoting, argument errors, and the addon probe.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const { candidatesFor, nodeModulesCandidates, npmRootCommand } = require('../cli/lib/find-openclaw')
const { quoteArg } = require('../cli/lib/shell-quote')
const { parseCommandArgs } = require('../cli/lib/args')
const { UsageError } = require('../cli/lib/errors')
const { probe, probeAddon } = require('../cli/lib/probe-addon')
const { writeFailure, renameReplacing } = require('../cli/lib/write-atomic')
const { writeFakeInstall } = require('./fixtures/fake-openclaw-dist.js')

const ROOT = path.resolve(__dirname, '..')

describe('finding the install, on Windows paths', () => {
  test('a folder names the package, the folder above its node_modules, or its dist/', () => {
    expect(candidatesFor('C:\\Users\\me\\openclaw', path.win32)).toEqual([
      'C:\\Users\\me\\openclaw',
      'C:\\Users\\me\\openclaw\\node_modules\\openclaw',
      'C:\\Users\\me',
    ])
    expect(candidatesFor('/srv/gw', path.posix)).toEqual(['/srv/gw', '/srv/gw/node_modules/openclaw', '/srv'])
  })

  test('node_modules/openclaw from a folder up to its drive root, nearest first', () => {
    expect(nodeModulesCandidates('C:\\Users\\me\\gw', path.win32)).toEqual([
      'C:\\Users\\me\\gw\\node_modules\\openclaw',
      'C:\\Users\\me\\node_modules\\openclaw',
      'C:\\Users\\node_modules\\openclaw',
      'C:\\node_modules\\openclaw',
    ])
    expect(nodeModulesCandidates('\\\\server\\share\\gw', path.win32).at(-1)).toBe('\\\\server\\share\\node_modules\\openclaw')
    expect(nodeModulesCandidates('/srv/gw', path.posix)).toEqual(['/srv/gw/node_modules/openclaw', '/srv/node_modules/openclaw', '/node_modules/openclaw'])
  })

  test('a chunk name relative to the package is native: dist\\x.js on Windows', () => {
    expect(path.win32.relative('C:\\gw\\node_modules\\openclaw', 'C:\\gw\\node_modules\\openclaw\\dist\\x.js')).toBe('dist\\x.js')
  })
})

test('npm root -g: npm.cmd through cmd.exe on Windows, as one command line (no DEP0190 warning on Node 24)', () => {
  const [command, args, options] = npmRootCommand('win32')
  expect([command, args, options.shell]).toEqual(['npm.cmd root -g', [], true])
  const [posixCommand, posixArgs, posixOptions] = npmRootCommand('linux')
  expect([posixCommand, posixArgs, posixOptions.shell]).toEqual(['npm', ['root', '-g'], undefined])
})

test('a failed write says why in the user\'s terms, on each platform', () => {
  const err = (code) => Object.assign(new Error(`${code}: operation failed`), { code })
  expect(writeFailure(err('EACCES'), 'linux')).toMatch(/^the dist is read-only for this user/)
  expect(writeFailure(err('EPERM'), 'win32')).toMatch(/^the chunk is in use or read-only; stop the gateway/)
  expect(writeFailure(err('EBUSY'), 'win32')).toMatch(/^the chunk is in use/)
  expect(writeFailure(err('ENOSPC'), 'linux')).toBe('ENOSPC: operation failed')
})

describe('replacing the chunk: the rename waits out a Windows file in use', () => {
  const failing = (codes) => {
    const calls = []
    const rename = (from, to) => {
      calls.push([from, to])
      const code = codes[calls.length - 1]
      if (code) throw Object.assign(new Error(`${code}: rename`), { code })
    }
    return { rename, calls }
  }

  test('on win32, EPERM, EACCES and EBUSY (the target held open) are retried until the rename succeeds', () => {
    const { rename, calls } = failing(['EPERM', 'EACCES', 'EBUSY'])
    renameReplacing('a.tmp', 'a.js', { platform: 'win32', rename })
    expect(calls).toEqual(Array(4).fill(['a.tmp', 'a.js']))
  })

  test('on win32 a file that stays in use fails after the retry time, with its error', () => {
    const { rename, calls } = failing(Array(1000).fill('EPERM'))
    const started = Date.now()
    expect(() => renameReplacing('a.tmp', 'a.js', { platform: 'win32', rename, retryMs: 200 })).toThrow(expect.objectContaining({ code: 'EPERM' }))
    expect(Date.now() - started).toBeLessThan(2000)
    expect(calls.length).toBeGreaterThan(2)
  })

  test('elsewhere, and for other errors, one attempt', () => {
    for (const [platform, code] of [['linux', 'EPERM'], ['darwin', 'EACCES'], ['win32', 'ENOENT'], ['win32', 'EXDEV']]) {
      const { rename, calls } = failing([code])
      expect(() => renameReplacing('a.tmp', 'a.js', { platform, rename })).toThrow(expect.objectContaining({ code }))
      expect(calls).toHaveLength(1)
    }
  })
})

test('quoting a path for the command to paste back', () => {
  expect(quoteArg('/srv/gw/node_modules/openclaw', 'linux')).toBe('/srv/gw/node_modules/openclaw')
  expect(quoteArg("/srv/my gw/it's", 'linux')).toBe("'/srv/my gw/it'\\''s'")
  expect(quoteArg('C:\\Users\\me\\openclaw', 'win32')).toBe('C:\\Users\\me\\openclaw')
  expect(quoteArg('C:\\Program Files\\gw', 'win32')).toBe('"C:\\Program Files\\gw"')
  expect(quoteArg('Z:/srv/gw', 'win32')).toBe('Z:/srv/gw')
  // PowerShell reads `a,b` as an array, cmd splits there: quoted.
  expect(quoteArg('C:\\gw\\a,b', 'win32')).toBe('"C:\\gw\\a,b"')
  expect(quoteArg('/srv/a,b', 'linux')).toBe('/srv/a,b')
})

describe('arguments (util.parseArgs, strict)', () => {
  const OPTIONS = { state: { type: 'string' }, check: { type: 'boolean' } }
  const usageError = (argv, opts) => {
    try {
      parseCommandArgs(argv, OPTIONS, opts)
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError)
      return err.message
    }
    throw new Error(`no usage error for ${JSON.stringify(argv)}`)
  }

  test('values, flags, positionals and --', () => {
    expect(parseCommandArgs(['--state=s.json', 'dir', '--check', '--', '--x'], OPTIONS, { allowPositionals: true })).toEqual({
      positionals: ['dir', '--x'],
      options: { state: 's.json', check: true },
    })
  })

  test.each([
    [['--bogus'], 'unknown option --bogus'],
    [['-x'], 'unknown option -x'],
    [['--state'], '--state needs a value'],
    [['--state', '--check'], '--state needs a value (write --state=VALUE for one that starts with -)'],
    [['--check=yes'], '--check takes no value'],
    [['--state', 'a', '--state=b'], '--state given twice'],
    [['extra'], 'unexpected argument extra'],
  ])('%j: %s', (argv, message) => {
    expect(usageError(argv)).toBe(message)
  })
})

describe('the addon probe (cli/lib/probe-addon.js)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-probe-'))
  // On Windows the copy's .node stays loaded in this process (probe() loads it here),
  // and a loaded DLL cannot be deleted: that one file is left in the temp folder.
  afterAll(() => {
    try {
      fs.rmSync(dir, { recursive: true, force: true })
    } catch (err) {
      if (process.platform !== 'win32' || err.code !== 'EPERM') throw err
    }
  })
  const install = writeFakeInstall(dir)
  const stub = (name, body) => {
    const file = path.join(dir, name)
    fs.writeFileSync(file, body)
    return file
  }

  test('by name from the chunk: loads this package (the link or copy in node_modules) and caps a small case', () => {
    const result = probe(install.chunk, ['openclaw-context-native'])
    expect(result).toEqual({ ok: true, id: 'openclaw-context-native', resolved: path.join(install.addon, 'index.js'), version: require('../package.json').version })
  })

  test('each failing candidate says why; the next one is tried', () => {
    const none = stub('none.js', 'module.exports = {}')
    const wrong = stub('wrong.js', 'module.exports = { capCompactionSummaryPreservingSuffix: (b, s) => s }')
    const result = probe(install.chunk, ['no-such-package', none, wrong])
    expect(result.ok).toBe(false)
    expect(result.failures).toEqual([
      expect.stringMatching(/^no-such-package: Cannot find module 'no-such-package'/),
      `${none}: it has no capCompactionSummaryPreservingSuffix`,
      `${wrong}: it returned an unexpected result`,
    ])
    expect(probe(install.chunk, [none, ROOT])).toEqual(expect.objectContaining({ ok: true, id: ROOT }))
  })

  test('run as a file in a fresh node, it answers the same', () => {
    expect(probeAddon(install.chunk, ['no-such-package', ROOT])).toEqual(expect.objectContaining({ ok: true, id: ROOT, resolved: path.join(ROOT, 'index.js') }))
  })
})
