'use strict'
// One measurement in a fresh process, so that its load time and its peak RSS are its own.
// Prints one JSON line on stdout. Used by benchmark/bench.js:
//   node child.js require  <addonDir>
//   node child.js baseline <addonDir>
//   node child.js read     <addonDir> native|js <logPath> <limit> <repeats>

const fs = require('node:fs')

const [mode, addonDir, kind, logPath, limitArg, repeatsArg] = process.argv.slice(2)
const maxRssKb = () => process.resourceUsage().maxRSS
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6

/** The obvious JS reader: the whole file into one string, split, parse the last `limit` valid lines. */
function readWholeFileJs(file, limit) {
  const text = fs.readFileSync(file, 'utf8')
  const lines = text.split('\n')
  const out = []
  for (let i = lines.length - 1; i >= 0 && out.length < limit; i--) {
    const line = lines[i]
    if (!line.trim()) continue
    let entry
    try {
      entry = JSON.parse(line)
    } catch {
      continue
    }
    if (
      entry &&
      typeof entry === 'object' &&
      typeof entry.role === 'string' &&
      typeof (entry.text ?? entry.content) === 'string'
    ) {
      out.push(entry)
    }
  }
  return out.reverse()
}

function main() {
  if (mode === 'require') {
    const t0 = process.hrtime.bigint()
    const addon = require(addonDir)
    const requireMs = ms(t0)
    const nodeFile = Object.keys(require.cache).find((f) => f.endsWith('.node')) || null
    return {
      requireMs,
      nodeFile,
      nodeBytes: nodeFile ? fs.statSync(nodeFile).size : null,
      target: addon.__napiBindingTarget,
    }
  }
  const addon = require(addonDir)
  // Touch the addon once, so that a baseline child and a reader child have loaded the same code.
  addon.capCompactionSummary('x', 0)
  if (mode === 'baseline') return { maxRssKb: maxRssKb() }
  if (mode !== 'read') throw new Error(`unknown mode ${mode}`)

  const limit = Number(limitArg)
  const repeats = Number(repeatsArg)
  const read =
    kind === 'native' ? () => addon.readPersistentChatLogEntries(logPath, limit) : () => readWholeFileJs(logPath, limit)
  const rssBeforeKb = maxRssKb()
  let t0 = process.hrtime.bigint()
  let result
  try {
    result = read()
  } catch (error) {
    return {
      error: `${error.code || error.name}: ${error.message}`,
      afterMs: ms(t0),
      maxRssKb: maxRssKb(),
      rssBeforeKb,
    }
  }
  const firstMs = ms(t0)
  const samples = []
  for (let i = 0; i < repeats; i++) {
    t0 = process.hrtime.bigint()
    result = read()
    samples.push(ms(t0))
  }
  samples.sort((a, b) => a - b)
  const last = result[result.length - 1]
  return {
    firstMs,
    medianMs: samples.length ? samples[samples.length >> 1] : firstMs,
    repeats,
    entries: result.length,
    lastId: last && last.id,
    maxRssKb: maxRssKb(),
    rssBeforeKb,
  }
}

let out
try {
  out = main()
} catch (error) {
  out = { error: `${error.code || error.name}: ${error.message}` }
}
process.stdout.write(`${JSON.stringify(out)}\n`)
