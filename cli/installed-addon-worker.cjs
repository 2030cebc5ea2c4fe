'use strict'
// doctor's check that the installed plugin's folder loads its addon, as the gateway will: run
// in a worker thread (its own module cache, so this command's copy of the package stands in the
// way of nothing), it loads `workerData.entry` and says whether a ChatStore came out of it.
const { parentPort, workerData } = require('node:worker_threads')

try {
  const { ChatStore } = require(workerData.entry)
  parentPort.postMessage(typeof ChatStore === 'function' ? { ok: true } : { ok: false, why: 'no ChatStore in it' })
} catch (error) {
  parentPort.postMessage({ ok: false, why: String(error?.message ?? error).split('\n')[0] })
}
