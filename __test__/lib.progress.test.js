'use strict'
// lib/progress.js: a long command's progress line is drawn on a terminal only, in place, with the
// bytes the addon has read of those it will read, and erased when the work settles, whether it
// resolves or rejects. The clock is jest's (fake timers): no test waits on real time.
const { withProgress, bytesSince } = require('../lib/progress')

/** A stream that records what is written, a TTY or not. */
function fakeStream(isTTY) {
  const writes = []
  return { isTTY, writes, write: (text) => writes.push(text) }
}

/** A promise settled by hand, for work that ends when the test says. */
function deferred() {
  let resolve
  let reject
  const promise = new Promise((yes, no) => {
    resolve = yes
    reject = no
  })
  return { promise, resolve, reject }
}

beforeEach(() => jest.useFakeTimers())
afterEach(() => jest.useRealTimers())

test('on a terminal: the label, the bytes and the seconds in place each second, then erased; the result passes through', async () => {
  const stream = fakeStream(true)
  const work = deferred()
  let reading = { done: 100, total: 1000 }
  const running = withProgress('indexing', work.promise, { stream, progress: () => reading })
  await jest.advanceTimersByTimeAsync(999)
  expect(stream.writes).toEqual([])
  reading = { done: 100 + 12_300_000, total: 1000 + 400_000_000 }
  await jest.advanceTimersByTimeAsync(1)
  expect(stream.writes).toEqual(['\r\x1b[2Kindexing… 12.3 MB of 400.0 MB (3 %), 1 s'])
  reading = { done: 100 + 200_000_000, total: 1000 + 400_000_000 }
  await jest.advanceTimersByTimeAsync(1000)
  expect(stream.writes.at(-1)).toBe('\r\x1b[2Kindexing… 200.0 MB of 400.0 MB (50 %), 2 s')
  work.resolve('done')
  expect(await running).toBe('done')
  expect(stream.writes.at(-1)).toBe('\r\x1b[2K')
})

test('a pipe gets nothing; a quick command draws nothing; a rejection passes through, the line erased', async () => {
  const pipe = fakeStream(false)
  const piped = deferred()
  const onPipe = withProgress('exporting', piped.promise, { stream: pipe })
  await jest.advanceTimersByTimeAsync(5000)
  piped.resolve(1)
  expect(await onPipe).toBe(1)
  expect(pipe.writes).toEqual([])

  const quick = fakeStream(true)
  const quickWork = deferred()
  const onQuick = withProgress('exporting', quickWork.promise, { stream: quick, progress: () => undefined })
  await jest.advanceTimersByTimeAsync(999)
  quickWork.resolve(2)
  expect(await onQuick).toBe(2)
  await jest.advanceTimersByTimeAsync(5000)
  expect(quick.writes).toEqual([])

  const failing = fakeStream(true)
  const failingWork = deferred()
  const onFailing = withProgress('importing', failingWork.promise, { stream: failing, progress: () => undefined })
  await jest.advanceTimersByTimeAsync(1000)
  expect(failing.writes).toEqual(['\r\x1b[2Kimporting… 1 s'])
  failingWork.reject(new Error('EACCES'))
  await expect(onFailing).rejects.toThrow('EACCES')
  expect(failing.writes.at(-1)).toBe('\r\x1b[2K')
})

test('the bytes said are those of this work: a delta of two readings; nothing when there is none', () => {
  expect(bytesSince({ done: 5e6, total: 5e6 }, { done: 7e6, total: 9e6 })).toBe('2.0 MB of 4.0 MB (50 %), ')
  expect(bytesSince({ done: 5, total: 5 }, { done: 5, total: 5 })).toBe('')
  expect(bytesSince(undefined, { done: 1, total: 2 })).toBe('')
})
