'use strict'
// Finding dist chunks by their text (lib/dist-scan.js), as the test oracles, the bench
// and the e2e drivers do: which files count as chunks, their order, prefixes, several markers.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')

const { chunksHolding, findChunk } = require('../lib/dist-scan')
const { PatchError } = require('../lib/errors')

let root
beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-dist-scan-'))
  const dist = path.join(root, 'dist')
  fs.mkdirSync(dist)
  const write = (name, text) => fs.writeFileSync(path.join(dist, name), text)
  write('b-2.js', 'const x = 1;\nfunction target(a) {}\n')
  write('a-1.mjs', 'export {};\nasync function target(a) {}\n')
  write('c-3.js', 'function other() {}\n')
  write('loader-9.js', '\nfunction target(b) {}\n')
  write('notes.txt', '\nfunction target(c) {}\n')
  write('d-4.js', 'caf\u00e9 \u2014 \nfunction target(d) {}\n')
  fs.mkdirSync(path.join(dist, 'a-0.js')) // a folder named like a chunk is passed over
})
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

const names = (files) => files.map((file) => path.relative(root, file))

test('every .js/.mjs chunk holding the marker, in name order; other files and folders passed over', () => {
  expect(names([...chunksHolding(root, '\nfunction target(')])).toEqual([
    path.join('dist', 'b-2.js'),
    path.join('dist', 'd-4.js'),
    path.join('dist', 'loader-9.js'),
  ])
  expect(names([findChunk(root, '\nfunction target(')])).toEqual([path.join('dist', 'b-2.js')])
})

test('any of several markers; a prefix keeps the names that start with it', () => {
  const markers = ['\nfunction target(', '\nasync function target(']
  expect(names([...chunksHolding(root, markers)])).toEqual(
    ['a-1.mjs', 'b-2.js', 'd-4.js', 'loader-9.js'].map((n) => path.join('dist', n)),
  )
  expect(names([...chunksHolding(root, markers, { prefix: 'loader-' })])).toEqual([path.join('dist', 'loader-9.js')])
})

test('a non-ASCII marker matches as UTF-8; no match is null; a missing dist is a PatchError', () => {
  expect(names([findChunk(root, 'caf\u00e9 \u2014')])).toEqual([path.join('dist', 'd-4.js')])
  expect(findChunk(root, 'function nowhere(')).toBeNull()
  expect(() => findChunk(path.join(root, 'missing'), 'x')).toThrow(PatchError)
  expect(() => findChunk(path.join(root, 'missing'), 'x')).toThrow(/cannot read .*dist: ENOENT/)
})
