'use strict'
// The platform differential (issue 9): the shared corpus through this
// platform's binary (whichever the loader picked: a native one, or the WASI
// build), compared byte for byte with linux-x64-gnu's outputs.
//
//   OCCN_PLATFORM_WRITE=FILE     write this run's outputs to FILE (linux-x64-gnu does)
//   OCCN_PLATFORM_EXPECTED=FILE  compare this run's outputs with FILE
//   OCCN_EXPECT_BINDING=TEXT     the binding must be this one (e.g. wasm32-wasip1)
// With neither (a plain `npm test`), the corpus runs twice and must agree.
// scripts/local-platforms/test-platforms.sh sets them.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const native = require('../../index.js')
const { run } = require('./corpus.js')

// What ran: the loader's choice and, for a native binding, the file it opened.
const loaded = (process.report.getReport().sharedObjects || [])
  .filter((file) => file.endsWith('.node'))
  .map((file) => path.basename(file))
const binding = `${native.__napiBindingTarget}${loaded.length ? ` ${loaded.join(',')}` : ''} on ${process.platform}-${process.arch}`
let dir
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-platform-'))
})
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

test(`the corpus gives linux-x64-gnu's outputs, byte for byte (${binding})`, () => {
  // The runner names the binary this platform must have loaded (no silent fallback).
  if (process.env.OCCN_EXPECT_BINDING) expect(binding).toContain(process.env.OCCN_EXPECT_BINDING)
  const outputs = run(native, dir)
  expect(outputs.length).toBeGreaterThan(500)
  const write = process.env.OCCN_PLATFORM_WRITE
  const expectedFile = process.env.OCCN_PLATFORM_EXPECTED
  if (write) fs.writeFileSync(write, `${outputs.join('\n')}\n`)
  if (!expectedFile) {
    expect(run(native, dir)).toEqual(outputs)
    return
  }
  const expected = fs.readFileSync(expectedFile, 'utf8').split('\n').slice(0, -1)
  expect(outputs.length).toBe(expected.length)
  const differing = outputs.filter((line, i) => line !== expected[i])
  // The first few differences in full, for the log.
  expect(differing.slice(0, 3).map((line) => JSON.parse(line).name)).toEqual([])
  console.log(
    `platform differential: ${outputs.length} cases, ${outputs.length - differing.length} identical to linux-x64-gnu (${binding})`,
  )
})
