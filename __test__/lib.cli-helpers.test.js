'use strict'
// The CLI's pure pieces (lib/), in-process: paths on both platforms (path.win32
// here, whatever this machine is), quoting, argument errors, and the addon probe.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const { candidatesFor, nodeModulesCandidates, npmGlobalRoots, besideThisPackage } = require('../lib/find-openclaw')
const { untrustedReason } = require('../lib/trust')
const { quoteArg } = require('../lib/shell-quote')
const { parseCommandArgs } = require('../lib/args')
const { UsageError } = require('../lib/errors')
const { probe } = require('../lib/probe-addon')
const { writeFailure, staleTempFiles } = require('../lib/write-atomic')
const { replaceFile, replaceFileSync, renameReplacing, tempPrefix } = require('../lib/replace-file')
const { writeFakeInstall } = require('./fixtures/fake-openclaw-dist.js')
const { posixTest } = require('./fixtures/platform.js')

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
    expect(nodeModulesCandidates('\\\\server\\share\\gw', path.win32).at(-1)).toBe(
      '\\\\server\\share\\node_modules\\openclaw',
    )
    expect(nodeModulesCandidates('/srv/gw', path.posix)).toEqual([
      '/srv/gw/node_modules/openclaw',
      '/srv/node_modules/openclaw',
      '/node_modules/openclaw',
    ])
  })

  test('a chunk name relative to the package is native: dist\\x.js on Windows', () => {
    expect(path.win32.relative('C:\\gw\\node_modules\\openclaw', 'C:\\gw\\node_modules\\openclaw\\dist\\x.js')).toBe(
      'dist\\x.js',
    )
  })
})

test("npm's global folders, without running npm: the prefix npm exec gives, else npm's defaults for this Node", () => {
  expect(npmGlobalRoots({ npm_config_global_prefix: '/opt/npm' }, 'linux', '/usr/local/bin/node')).toEqual([
    '/opt/npm/lib/node_modules',
    '/usr/local/lib/node_modules',
  ])
  expect(npmGlobalRoots({}, 'linux', '/home/me/.nvm/versions/node/v22.1.0/bin/node')).toEqual([
    '/home/me/.nvm/versions/node/v22.1.0/lib/node_modules',
  ])
  expect(
    npmGlobalRoots({ APPDATA: 'C:\\Users\\me\\AppData\\Roaming' }, 'win32', 'C:\\Program Files\\nodejs\\node.exe'),
  ).toEqual(['C:\\Users\\me\\AppData\\Roaming\\npm\\node_modules', 'C:\\Program Files\\nodejs\\node_modules'])
  expect(besideThisPackage('/usr/lib/node_modules/openclaw-context-native', path.posix)).toEqual([
    '/usr/lib/node_modules/openclaw',
  ])
  expect(besideThisPackage('/work/openclaw-context-native', path.posix)).toEqual([])
})

describe('trusting a folder the command found by itself (lib/trust.js, with a faked stat)', () => {
  // A tree of folders and their owners and modes; the running user is uid 1000.
  const tree = (entries) => ({
    uid: 1000,
    platform: 'linux',
    stat: (dir) => {
      if (!(dir in entries)) throw Object.assign(new Error(`ENOENT: ${dir}`), { code: 'ENOENT' })
      const [uid, mode] = entries[dir]
      return { uid, mode: 0o040000 | mode }
    },
  })
  const base = { '/': [0, 0o755], '/home': [0, 0o755], '/home/me': [1000, 0o700], '/tmp': [0, 0o1777] }

  test("the user's own folders and root's, up to /, none writable by others: trusted", () => {
    const t = tree({ ...base, '/home/me/gw': [1000, 0o755], '/home/me/gw/node_modules': [1000, 0o755] })
    expect(untrustedReason('/home/me/gw/node_modules', t)).toBeNull()
    // /tmp is sticky: an entry of ours below it cannot be swapped by others
    expect(untrustedReason('/tmp/mine', tree({ ...base, '/tmp/mine': [1000, 0o700] }))).toBeNull()
  })

  test('a folder of another user anywhere on the way is refused, naming it and its owner', () => {
    const t = tree({ ...base, '/tmp/node_modules': [1001, 0o755], '/tmp/node_modules/openclaw': [1000, 0o755] })
    expect(untrustedReason('/tmp/node_modules/openclaw', t)).toBe(
      '/tmp/node_modules belongs to uid 1001, not to you (uid 1000) or root',
    )
  })

  test('a folder writable by its group or by everyone is refused, sticky or not, when it is the one found', () => {
    expect(untrustedReason('/home/me/gw', tree({ ...base, '/home/me/gw': [1000, 0o777] }))).toBe(
      '/home/me/gw is writable by every user (mode 0777)',
    )
    expect(untrustedReason('/home/me/gw', tree({ ...base, '/home/me/gw': [1000, 0o775] }))).toBe(
      '/home/me/gw is writable by its group (mode 0775)',
    )
    expect(untrustedReason('/tmp', tree(base))).toMatch(/^\/tmp is writable by every user/)
    // a world-writable parent without the sticky bit: others may rename our folder away
    expect(
      untrustedReason(
        '/srv/x/gw',
        tree({ ...base, '/srv': [0, 0o755], '/srv/x': [0, 0o777], '/srv/x/gw': [1000, 0o755] }),
      ),
    ).toBe('/srv/x is writable by every user (mode 0777)')
  })

  test('root running it trusts only root; a folder that cannot be read is refused; Windows is not checked', () => {
    const t = { ...tree({ ...base, '/home/me/gw': [1000, 0o755] }), uid: 0 }
    expect(untrustedReason('/home/me/gw', t)).toBe('/home/me/gw belongs to uid 1000, not to you (uid 0) or root')
    expect(untrustedReason('/nowhere/gw', tree(base))).toMatch(/^cannot stat \/nowhere\/gw \(ENOENT\)/)
    expect(untrustedReason('C:\\gw', { ...tree({}), platform: 'win32' })).toBeNull()
  })
})

test("a failed write says why in the user's terms, on each platform", () => {
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
    expect(() => renameReplacing('a.tmp', 'a.js', { platform: 'win32', rename, retryMs: 200 })).toThrow(
      expect.objectContaining({ code: 'EPERM' }),
    )
    expect(Date.now() - started).toBeLessThan(2000)
    expect(calls.length).toBeGreaterThan(2)
  })

  test('elsewhere, and for other errors, one attempt', () => {
    for (const [platform, code] of [
      ['linux', 'EPERM'],
      ['darwin', 'EACCES'],
      ['win32', 'ENOENT'],
      ['win32', 'EXDEV'],
    ]) {
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
    expect(
      parseCommandArgs(['--state=s.json', 'dir', '--check', '--', '--x'], OPTIONS, { allowPositionals: true }),
    ).toEqual({
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

describe('the addon probe (lib/probe-addon.js)', () => {
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
    expect(result).toEqual({
      ok: true,
      id: 'openclaw-context-native',
      resolved: path.join(install.addon, 'index.js'),
      version: require('../package.json').version,
    })
  })

  test('a candidate that does not resolve, does not load or has no function is passed over, as the chunk does; the first with it is the only one tested', () => {
    const none = stub('none.js', 'module.exports = {}')
    const throws = stub('throws.js', 'throw new Error("cannot load this")')
    const wrong = stub('wrong.js', 'module.exports = { capCompactionSummaryPreservingSuffix: (b, s) => s }')
    const loaded = stub(
      'loaded.js',
      'globalThis.__occnLoaded = (globalThis.__occnLoaded || 0) + 1; module.exports = {}',
    )
    const result = probe(install.chunk, ['no-such-package', none, throws, wrong, loaded, ROOT])
    expect(result.ok).toBe(false)
    expect(result.failures).toEqual([
      expect.stringMatching(/^no-such-package: Cannot find module 'no-such-package'/),
      `${none}: it has no capCompactionSummaryPreservingSuffix`,
      `${throws}: cannot load this`,
      `${wrong} (${fs.realpathSync(wrong)}): it returned an unexpected result`,
    ])
    // the chunk would call `wrong`: nothing after it is loaded, not even a good addon
    expect(globalThis.__occnLoaded).toBeUndefined()
    expect(probe(install.chunk, [none, ROOT])).toEqual({
      ok: true,
      id: ROOT,
      resolved: path.join(ROOT, 'index.js'),
      version: require('../package.json').version,
    })
  })

  posixTest('Windows keeps no owner in stat')(
    'an addon that resolves into a folder another user owns is not loaded, and ends the probe (the chunk would load it)',
    () => {
      const planted = stub('planted.js', 'globalThis.__occnPlanted = true; module.exports = {}')
      const trust = {
        uid: 4242,
        stat: (dir) => ({
          ...fs.statSync(dir),
          uid: dir === fs.realpathSync(dir) && dir === path.dirname(fs.realpathSync(planted)) ? 1001 : 0,
        }),
      }
      const result = probe(install.chunk, [planted, ROOT], { trust })
      expect(result).toEqual({
        ok: false,
        failures: [
          expect.stringMatching(
            /resolves to .*planted\.js, but .* belongs to uid 1001, not to you \(uid 4242\) or root; not loaded$/,
          ),
        ],
      })
      expect(globalThis.__occnPlanted).toBeUndefined()
    },
  )
})

describe('leftovers of an interrupted write (lib/write-atomic.js staleTempFiles)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-stale-'))
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  test('only our own temp-file names of a process that is gone, only regular files, are removed', () => {
    const dead = 2 ** 22 + 12345 // above Linux's pid_max default: no such process
    const ours = `${tempPrefix('x.js')}${dead}-0123abcd.tmp`
    const live = `${tempPrefix('x.js')}${process.pid}-0123abcd.tmp`
    const names = [
      ours,
      live,
      `.x.js.other-tool-${dead}-0123abcd.tmp`,
      'x.js',
      `${tempPrefix('x.js')}${dead}-nothex!.tmp`,
    ]
    for (const name of names) fs.writeFileSync(path.join(dir, name), 'partial')
    const linked = `${tempPrefix('y.js')}${dead}-89abcdef.tmp`
    const folder = `${tempPrefix('z.js')}${dead}-89abcdef.tmp`
    const outside = path.join(dir, 'outside.txt')
    fs.writeFileSync(outside, 'keep me')
    if (process.platform !== 'win32') fs.symlinkSync(outside, path.join(dir, linked))
    fs.mkdirSync(path.join(dir, folder))
    expect(staleTempFiles(dir)).toEqual([path.join(dir, ours)]) // reported, not removed
    expect(fs.existsSync(path.join(dir, ours))).toBe(true)
    expect(staleTempFiles(dir, { remove: true })).toEqual([path.join(dir, ours)])
    expect(fs.readdirSync(dir).sort()).toEqual(
      [...names.slice(1), 'outside.txt', folder, ...(process.platform !== 'win32' ? [linked] : [])].sort(),
    )
    expect(fs.readFileSync(outside, 'utf8')).toBe('keep me')
  })
})

describe("replacing a file whole, the plugin's face (async) and the CLI's (sync) of one implementation", () => {
  let dir
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-replace-'))
  })
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

  test.each([
    ['async', (file, data, options) => replaceFile(file, data, options)],
    ['sync', async (file, data, options) => replaceFileSync(file, data, options)],
  ])('%s: the new bytes whole, and no temporary file left', async (_face, replace) => {
    const file = path.join(dir, 'summary.txt')
    fs.writeFileSync(file, 'old')
    await replace(file, 'new ✓')
    expect(fs.readFileSync(file, 'utf8')).toBe('new ✓')
    expect(fs.readdirSync(dir)).toEqual(['summary.txt'])
    await expect(replace(path.join(dir, 'missing', 'x.txt'), 'y')).rejects.toMatchObject({ code: 'ENOENT' })
    expect(fs.readdirSync(dir)).toEqual(['summary.txt'])
  })

  posixTest('POSIX modes and symlinks')(
    'the mode asked for, whatever the umask; a symlink at the name is replaced, never written through',
    async () => {
      const target = path.join(dir, 'elsewhere.txt')
      fs.writeFileSync(target, 'not yours')
      const file = path.join(dir, 'last-prompt.txt')
      fs.symlinkSync(target, file)
      const umask = process.umask(0o077)
      try {
        await replaceFile(file, 'prompt', { mode: 0o600, noFollow: true })
        replaceFileSync(path.join(dir, 'chunk.js'), Buffer.from('x'), { mode: 0o644 })
      } finally {
        process.umask(umask)
      }
      expect(fs.lstatSync(file).isFile()).toBe(true)
      expect(fs.statSync(file).mode & 0o777).toBe(0o600)
      expect(fs.statSync(path.join(dir, 'chunk.js')).mode & 0o777).toBe(0o644)
      expect(fs.readFileSync(target, 'utf8')).toBe('not yours')
    },
  )
})
