'use strict'
// The CLI's pure pieces (cli/lib/), in-process: paths on both platforms (path.win32
// here, whatever this machine is), quoting, argument errors, and the addon probe.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const { candidatesFor, nodeModulesCandidates } = require('../cli/lib/find-openclaw')
const { quoteArg } = require('../cli/lib/shell-quote')
const { parseCommandArgs } = require('../cli/lib/args')
const { UsageError } = require('../cli/lib/errors')
const { probe, probeAddon } = require('../cli/lib/probe-addon')
const { writeFailure } = require('../cli/lib/write-atomic')
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

test('a failed write says why in the user\'s terms, on each platform', () => {
  const err = (code) => Object.assign(new Error(`${code}: operation failed`), { code })
  expect(writeFailure(err('EACCES'), 'linux')).toMatch(/^the dist is read-only for this user/)
  expect(writeFailure(err('EPERM'), 'win32')).toMatch(/^the chunk is in use or read-only; stop the gateway/)
  expect(writeFailure(err('EBUSY'), 'win32')).toMatch(/^the chunk is in use/)
  expect(writeFailure(err('ENOSPC'), 'linux')).toBe('ENOSPC: operation failed')
})

test('quoting a path for the command to paste back', () => {
  expect(quoteArg('/srv/gw/node_modules/openclaw', 'linux')).toBe('/srv/gw/node_modules/openclaw')
  expect(quoteArg("/srv/my gw/it's", 'linux')).toBe("'/srv/my gw/it'\\''s'")
  expect(quoteArg('C:\\Users\\me\\openclaw', 'win32')).toBe('C:\\Users\\me\\openclaw')
  expect(quoteArg('C:\\Program Files\\gw', 'win32')).toBe('"C:\\Program Files\\gw"')
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
