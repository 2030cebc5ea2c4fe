'use strict'
// The machine the bench runs on, and whether a fuzzer is busy on it (numbers are noisier then).
const fs = require('node:fs')
const os = require('node:os')
const { spawnSync } = require('node:child_process')

function fuzzerProcesses() {
  const r = spawnSync('pgrep', ['-f', 'cargo fuzz|fuzz/target|artifact_prefix='], { encoding: 'utf8' })
  return r.status === 0 ? r.stdout.trim().split('\n').length : 0
}

function cpuModel() {
  try {
    return /model name\s*:\s*(.*)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))[1].trim()
  } catch {
    return os.cpus()[0]?.model || 'unknown CPU'
  }
}

/** One line: cores, CPU, Node and platform. */
function machineLine() {
  const nproc = os.availableParallelism ? os.availableParallelism() : os.cpus().length
  return `${nproc} cores (nproc), ${cpuModel()}, Node ${process.version} ${process.platform}-${process.arch}`
}

const loadAverage = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')

module.exports = { fuzzerProcesses, machineLine, loadAverage }
