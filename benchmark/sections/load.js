'use strict'
// require() time of the addon (fresh child processes) and the .node's size.
const path = require('node:path')

const { runChild } = require('../lib/children.js')
const { median } = require('../lib/harness.js')
const { fmtMs, mdTable } = require('../lib/format.js')

function benchLoad({ root, rec }) {
  console.log('\n== require() of the addon: fresh child process each ==')
  const runs10 = Array.from({ length: 11 }, () => runChild(['require', root]))
  const err = runs10.find((r) => r.error)
  if (err) {
    console.log(`require failed: ${err.error}`)
    rec.target('require() time', '< 10 ms', err.error, false)
    return null
  }
  const times = runs10
    .slice(1)
    .map((r) => r.requireMs)
    .sort((a, b) => a - b) // the first run warms the page cache
  const { nodeFile, nodeBytes } = runs10[0]
  console.log(
    `require(): median ${fmtMs(median(times))} of ${times.length} (min ${fmtMs(times[0])}, max ${fmtMs(times[times.length - 1])}); ${path.relative(root, nodeFile)} is ${(nodeBytes / 1024).toFixed(0)} KiB`,
  )
  const table = [
    {
      what: 'require() of the addon (fresh process, median of 10)',
      value: fmtMs(median(times)),
      range: `${fmtMs(times[0])}–${fmtMs(times[times.length - 1])}`,
    },
    { what: `.node size (${path.basename(nodeFile)})`, value: `${(nodeBytes / 1024).toFixed(0)} KiB`, range: '' },
  ]
  rec.markdown(`### Load\n\n${mdTable(table)}`)
  rec.target('require() time (fresh process, median of 10)', '< 10 ms', fmtMs(median(times)), median(times) < 10)
  rec.target('.node size', 'informational', `${(nodeBytes / 1024).toFixed(0)} KiB`, 'info')
  return { times, nodeBytes }
}

module.exports = { benchLoad }
