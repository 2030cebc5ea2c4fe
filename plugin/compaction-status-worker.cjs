// The worker thread of compaction-status.mjs: compactionStatus(openclawDir), the CLI's check
// (lib/compaction-status.js), off the gateway's event loop. Posts back the state, version
// and message, or the first line of the error.
'use strict'
const { parentPort, workerData } = require('node:worker_threads')
const { compactionStatus } = require('../lib/compaction-status.js')
const { oneLine } = require('../lib/errors.js')

let reply
try {
  const { state, version, message } = compactionStatus(workerData.openclawDir)
  reply = { state, version, message }
} catch (error) {
  reply = { error: oneLine(error) }
}
parentPort.postMessage(reply)
