'use strict'
// lib/progress.js: a long command's progress line is drawn on a terminal only, in place, and
// erased when the work settles, whether it resolves or rejects.
const { withProgress } = require('../lib/progress')

/** A stream that records what is written, a TTY or not. */
function fakeStream(isTTY) {
  const writes = []
  return { isTTY, writes, write: (text) => writes.push(text) }
}

const after = (ms, value, fail = false) =>
  new Promise((resolve, reject) => setTimeout(() => (fail ? reject(value) : resolve(value)), ms))

test('on a terminal: the label and the seconds in place, then erased; the result passes through', async () => {
  const stream = fakeStream(true)
  const result = await withProgress('verifying', after(130, 'done'), { stream, delayMs: 20, everyMs: 40 })
  expect(result).toBe('done')
  expect(stream.writes.length).toBeGreaterThanOrEqual(3)
  expect(stream.writes[0]).toBe('\r\x1b[2Kverifying… 0 s')
  expect(stream.writes.at(-1)).toBe('\r\x1b[2K')
})

test('a pipe gets nothing; a quick command draws nothing; a rejection passes through, the line erased', async () => {
  const pipe = fakeStream(false)
  expect(await withProgress('exporting', after(60, 1), { stream: pipe, delayMs: 10, everyMs: 10 })).toBe(1)
  expect(pipe.writes).toEqual([])
  const quick = fakeStream(true)
  await withProgress('exporting', after(5, 1), { stream: quick, delayMs: 200 })
  expect(quick.writes).toEqual([])
  const failing = fakeStream(true)
  await expect(
    withProgress('importing', after(80, new Error('EACCES'), true), { stream: failing, delayMs: 10, everyMs: 20 }),
  ).rejects.toThrow('EACCES')
  expect(failing.writes.at(-1)).toBe('\r\x1b[2K')
})
