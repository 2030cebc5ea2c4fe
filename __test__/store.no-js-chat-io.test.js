'use strict'
// A structural check: every byte of a chat's files is the addon's ChatStore's
// (crates/core/src/store/). No JavaScript file of the package under plugin/, cli/ or lib/
// opens, reads, writes, renames or truncates a chat file itself: a file that names a chat
// file (or reaches the plugin's state folder code) uses no byte-level fs call, and in plugin/
// only the files that read OpenClaw's own files (its package.json, its transcript) use any.
const fs = require('node:fs')
const path = require('node:path')

const root = path.join(__dirname, '..')
const CHAT_FILES =
  /perpetual-log\.jsonl|continuity-summary\.txt|last-injected-preprompt\.txt|memory-state\.json|state-files\.mjs|FILE_NAMES/
// fs calls that move bytes or names of a file (sync, callback and promise forms alike).
const BYTE_NAMES =
  'open|openSync|read|readSync|readFile|readFileSync|readv|write|writeSync|writeFile|writeFileSync|writev|appendFile|appendFileSync|truncate|truncateSync|ftruncate|ftruncateSync|rename|renameSync|copyFile|copyFileSync|createReadStream|createWriteStream'
const FS_MODULE = String.raw`['"](?:node:)?fs(?:\/promises)?['"]`

/** The first byte-level fs call in `text`, or the package's atomic writers; null if none. */
function byteCall(text) {
  const modules = [
    ...text.matchAll(
      new RegExp(
        String.raw`(?:const|let|var|import)\s+(\w+)\s*(?:=\s*require\(\s*${FS_MODULE}\s*\)|from\s*${FS_MODULE})`,
        'g',
      ),
    ),
  ].map((m) => m[1])
  const imported = [
    ...text.matchAll(
      new RegExp(
        String.raw`(?:const|let|var|import)\s*\{([^}]*)\}\s*(?:=\s*require\(\s*${FS_MODULE}\s*\)|from\s*${FS_MODULE})`,
        'g',
      ),
    ),
  ].flatMap((m) =>
    m[1].split(',').map((name) =>
      name
        .trim()
        .split(/\s+as\s+|\s*:\s*/)
        .pop(),
    ),
  )
  const patterns = [
    ...modules.map((name) => String.raw`\b${name}(?:\.promises)?\.(?:${BYTE_NAMES})\s*\(`),
    ...imported
      .filter((name) => new RegExp(`^(?:${BYTE_NAMES})$`).test(name))
      .map((name) => String.raw`\b${name}\s*\(`),
    String.raw`\bhandle\.(?:read|write|readFile|writeFile|truncate|appendFile)\s*\(`,
    'replace-file|write-atomic',
  ]
  return text.match(new RegExp(patterns.join('|')))?.[0] ?? null
}
/** plugin/ files that read or write OpenClaw's files, never a chat's. */
const PLUGIN_FS_ALLOWED = new Set(['openclaw-sdk.mjs', 'transcript-jsonl.mjs'])

function sources(dir) {
  return fs
    .readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(?:c|m)?js$/.test(entry.name))
    .map((entry) =>
      path
        .relative(root, path.join(entry.parentPath ?? entry.path, entry.name))
        .split(path.sep)
        .join('/'),
    )
}

/** The code without its comments (line and block), so a comment naming a file is no use. */
const code = (file) =>
  fs
    .readFileSync(path.join(root, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')

const files = ['plugin', 'cli', 'lib'].flatMap(sources)

test('the check sees the package, and sees what it looks for', () => {
  expect(files).toEqual(
    expect.arrayContaining(['plugin/persistent-chat.mjs', 'cli/commands/doctor.js', 'lib/replace-file.js']),
  )
  expect(byteCall(code('plugin/transcript-jsonl.mjs'))).not.toBeNull()
  expect(byteCall("import { appendFile } from 'node:fs/promises'\nawait appendFile(log, line)")).toBe('appendFile(')
  expect(byteCall("const fsp = require('fs/promises')\nfsp.writeFile(x, y)")).toBe('fsp.writeFile(')
  expect(byteCall('await store.appendEntry(entry); await ChatStore.open(options)')).toBeNull()
})

test.each(files)('%s: no byte of a chat file is read or written in JavaScript', (file) => {
  const text = code(file)
  const namesChatFiles = CHAT_FILES.test(text)
  const isPlugin = file.startsWith('plugin/')
  const usesBytes = byteCall(text)
  if (namesChatFiles || (isPlugin && !PLUGIN_FS_ALLOWED.has(path.basename(file)))) {
    expect([file, usesBytes]).toEqual([file, null])
  }
})
