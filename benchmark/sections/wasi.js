'use strict'
// What the WASI fallback costs: the bench's own cases (the cap on the seed sample, by size and on
// body-heavy shapes; the persistent-chat builders; the log reader) through the native build under
// test and through the WASI build, both loaded in this process and timed in the same interleaved
// rounds, so that the machine's noise falls on both alike. Each case's two outputs are compared
// first: a ratio of two different answers would mean nothing.
//
// The WASI build is the one `npm run build:all -- wasm32-wasip1` leaves in target/platforms/, else
// an installed openclaw-context-native-wasm32-wasip1 package; without either the section is skipped.
const fs = require('node:fs')
const path = require('node:path')

const gen = require('../lib/gen.js')
const { bodyHeavyCase, BODY_HEAVY_SHAPES } = require('../../dev/body-heavy.js')
const { benchCacheDir } = require('../lib/setup.js')
const { compare } = require('../lib/harness.js')
const { fmtUs, fmtUnits, mdTable } = require('../lib/format.js')
const { chatInputs } = require('./chat.js')
const { inputOfSize } = require('./compaction.js')

const TARGET = 'WASI fallback / native, per call'
const LOG_BYTES = 10 << 20

/** The WASI build's loader, or null and why there is none. */
function findWasiBuild(root) {
  const built = path.join(root, 'target/platforms/openclaw-context-native.wasip1.cjs')
  if (fs.existsSync(built)) return { file: built }
  try {
    return { file: require.resolve('openclaw-context-native-wasm32-wasip1', { paths: [root] }) }
  } catch {
    return {
      reason: `no WASI build (${path.relative(root, built)}: \`npm run build:all -- wasm32-wasip1\`; or an installed openclaw-context-native-wasm32-wasip1)`,
    }
  }
}

/** Loads the WASI build without its one-time "WASI is experimental" warning (not a result). */
async function loadWasi(file) {
  const listeners = process.listeners('warning')
  process.removeAllListeners('warning')
  try {
    return require(file)
  } finally {
    await new Promise(setImmediate) // the warning is emitted on a later tick
    for (const listener of listeners) process.on('warning', listener)
  }
}

/** The calls timed, each `run(addon)`: the same inputs as the other sections. */
function cases({ root, native, quick, logFile }) {
  const seed = JSON.parse(fs.readFileSync(path.join(root, 'samples/seed-compaction.json'), 'utf8'))
  const cap = (label, { body, suffix }, maxChars) => ({
    label: `fixed cap, ${label} @ ${maxChars}`,
    run: (m) => m.capCompactionSummaryPreservingSuffix(body, suffix, maxChars),
  })
  const list = [
    cap(
      `seed sample (${fmtUnits(seed.summaryBody.length + seed.suffix.length)} units)`,
      { body: seed.summaryBody, suffix: seed.suffix },
      16000,
    ),
    {
      label: 'copy floor, seed sample (`capCompactionSummary(input, 0)`)',
      run: (m) => m.capCompactionSummary(seed.summaryBody + seed.suffix, 0),
    },
  ]
  for (const units of quick ? [64 << 10] : [64 << 10, 1 << 20])
    list.push(cap(`${fmtUnits(units)} units`, inputOfSize(units), 16000))
  // The first and the last body-heavy shape, with the seeds sections/compaction.js gives them.
  for (const index of [0, BODY_HEAVY_SHAPES.length - 1]) {
    const [bodyUnits, suffixUnits, maxChars] = BODY_HEAVY_SHAPES[index]
    const input = bodyHeavyCase(100 + index, bodyUnits, suffixUnits, maxChars)
    list.push(cap(`body-heavy ${fmtUnits(input.body.length)} + ${fmtUnits(input.suffix.length)}`, input, maxChars))
  }
  const chat = chatInputs({ native, root })
  // A given nonce: a drawn one differs between the two builds' prompts.
  const fenced = (params) => ({ ...params, nonce: 'f0e1d2c3b4a59687' })
  list.push(
    {
      label: 'reload prompt (25 entries + continuity summary)',
      run: (m) => m.buildPersistentChatInjectedPrompt(fenced(chat.reloadParams)),
    },
    {
      label: 'continuous prompt (2 entries)',
      run: (m) => m.buildPersistentChatInjectedPrompt(fenced(chat.continuousParams)),
    },
    {
      label: 'continuity summary (200 entries + state)',
      run: (m) => m.rebuildPersistentChatContinuitySummary(chat.summaryParams),
    },
    {
      label: 'readPersistentChatLogEntries(path, 25), 10 MB log',
      run: (m) => m.readPersistentChatLogEntries(logFile, 25),
    },
  )
  if (chat.reloadFromLog)
    list.push({
      label: 'reload prompt, entries read from `logPath` (10 MB log)',
      run: (m) => m.buildPersistentChatInjectedPrompt(fenced(chat.reloadFromLog)),
    })
  return list
}

async function benchWasi({ root, native, quick, rec }) {
  console.log('\n== the WASI fallback beside the native build ==')
  const skip = (reason) => {
    console.log(`skipped: ${reason}`)
    rec.target(TARGET, 'informational', `skipped: ${reason}`, null)
    return null
  }
  if (native.__napiBindingTarget !== 'native')
    return skip(`the addon under test is itself ${native.__napiBindingTarget} (NAPI_RS_FORCE_WASI set?)`)
  const found = findWasiBuild(root)
  if (!found.file) return skip(found.reason)
  let wasi
  try {
    wasi = await loadWasi(found.file)
  } catch (error) {
    return skip(
      `${path.relative(root, found.file)} does not load on Node ${process.version}: ${error.message.split('\n')[0]}`,
    )
  }
  console.log(`WASI build: ${path.relative(root, found.file)} (${wasi.__napiBindingTarget ?? 'wasm32-wasip1'})`)
  // The log section's 10 MB log (generated once, reused).
  const logFile = path.join(benchCacheDir(root), 'logs/perpetual-10MB.jsonl')
  gen.ensureLog(logFile, LOG_BYTES)

  const rows = []
  const differ = []
  for (const c of cases({ root, native, quick, logFile })) {
    if (JSON.stringify(c.run(native)) !== JSON.stringify(c.run(wasi))) {
      differ.push(c.label)
      console.log(`${c.label}: WASI and native DISAGREE (not timed)`)
      continue
    }
    const r = compare(
      [
        { name: 'native', fn: () => c.run(native) },
        { name: 'wasi', fn: () => c.run(wasi) },
      ],
      { budgetMs: quick ? 600 : 1500 },
    )
    const row = {
      call: c.label,
      native: fmtUs(r.native.us),
      WASI: fmtUs(r.wasi.us),
      'WASI / native': `${(r.wasi.us / r.native.us).toFixed(1)}×`,
      ratio: r.wasi.us / r.native.us,
    }
    rows.push(row)
    console.log(
      `${c.label.padEnd(62)} native ${row.native.padStart(9)} | WASI ${row.WASI.padStart(9)} | ${row['WASI / native']}`,
    )
  }
  rec.target(
    'WASI outputs identical to native, every case',
    'all',
    differ.length ? `differ: ${differ.join('; ')}` : `${rows.length} of ${rows.length}`,
    differ.length === 0,
  )
  if (!rows.length) return { rows }
  const ratios = rows.map((r) => r.ratio).sort((a, b) => a - b)
  rec.target(
    TARGET,
    'informational',
    `${ratios[0].toFixed(1)}–${ratios[ratios.length - 1].toFixed(1)}× (median of the cases ${ratios[ratios.length >> 1].toFixed(1)}×)`,
    'info',
  )
  rec.markdown(
    '### The WASI fallback beside the native build (median per call, same process, interleaved rounds)\n\n' +
      mdTable(rows.map(({ ratio, ...row }) => row)) +
      `\n\nThe WASI build (\`${path.relative(root, found.file)}\`) on \`@napi-rs/wasm-runtime\`, what the loader falls back to where no native binary fits; ` +
      'both builds gave the same output on each case before it was timed. The log reader runs in process here (its own section uses fresh child processes).',
  )
  return { rows }
}

module.exports = { benchWasi }
