#!/usr/bin/env node
// `npm run bench`: side-by-side timings in ONE process (the machine may be shared and noisy:
// compare the ratios, measured in interleaved rounds, rather than the absolute numbers).
//
//   1. capCompactionSummaryPreservingSuffix at maxChars 16000, inputs from the seed's sample to
//      16 Mi UTF-16 units, against OpenClaw 2026.7.2's function (the buggy original), OpenClaw
//      2026.9.6's budgetCompactionSummary (the upstream fix), a plain JS version of the seed's
//      proposed rule, and the addon's copy floor (capCompactionSummary(input, 0): copy in and out).
//   2. readPersistentChatLogEntries(path, 25) on 10 MB / 256 MB / 1 GB logs against a whole-file JS
//      reader, each reader in a fresh child process (time and peak RSS over a baseline child).
//   3. buildPersistentChatInjectedPrompt (reload and continuous) and rebuildPersistentChatContinuitySummary.
//   4. require() time of the addon (fresh child processes) and the .node size.
// Then a summary of the targets (PASS/MISS) and a markdown table, also written to benchmark/results.md.
//
// Peers and Node 22/24 come from scripts/setup-bench.sh (run here, idempotent). On Node < 24 the
// bench re-runs itself under the cached Node 24 (2026.9.6 needs >= 24.16; 2026.7.2 >= 22.22).
//
// Flags: --quick (smaller sizes, 10 MB and 256 MB logs only), --only=compaction,logs,chat,load,
//        --no-setup (do not run scripts/setup-bench.sh), --no-reexec (stay on this Node),
//        --no-write (do not write benchmark/results.md).
'use strict'

const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const ROOT = path.resolve(__dirname, '..')
const argv = process.argv.slice(2)
const flag = (name) => argv.includes(name)
const QUICK = flag('--quick')
const onlyArg = argv.find((a) => a.startsWith('--only='))
const ONLY = onlyArg ? new Set(onlyArg.slice(7).split(',')) : null
const runs = (section) => !ONLY || ONLY.has(section)
const MAX_CHARS = 16000
const nodeMajor = Number(process.versions.node.split('.')[0])

// ---------------------------------------------------------------------------------------------
// Setup and Node choice
// ---------------------------------------------------------------------------------------------
function readSetup() {
  if (process.env.OCCN_BENCH_SETUP) return JSON.parse(process.env.OCCN_BENCH_SETUP)
  const setup = {}
  if (!flag('--no-setup')) {
    console.log('bench: scripts/setup-bench.sh (Node 22/24, openclaw 2026.7.2 and 2026.9.6; skipped steps are quick)')
    const r = spawnSync('bash', [path.join(ROOT, 'scripts/setup-bench.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
    if (r.status !== 0) console.log(`bench: setup-bench.sh failed (exit ${r.status}); running with what is there`)
    for (const line of (r.stdout || '').split('\n')) {
      const m = /^([A-Z0-9_]+)=(.*)$/.exec(line)
      if (m) setup[m[1]] = m[2]
    }
  }
  // Defaults: where the setup scripts put things.
  const dflt = {
    NODE22: path.join(ROOT, '.cache/oracle/node22/bin/node'),
    NODE24: path.join(ROOT, '.cache/oracle/node24/bin/node'),
    OPENCLAW_DIR: path.join(ROOT, '.cache/oracle/openclaw-2026.7/node_modules/openclaw'),
    OPENCLAW_2026_9_DIR: path.join(ROOT, '.cache/bench/openclaw-2026.9/node_modules/openclaw'),
  }
  for (const [k, v] of Object.entries(dflt)) if (setup[k] === undefined && fs.existsSync(v)) setup[k] = v
  return setup
}

const setup = readSetup()

if (!process.env.OCCN_BENCH_REEXEC && !flag('--no-reexec')) {
  const exe = (p) => p && fs.existsSync(p) && p
  const target = nodeMajor < 24 && exe(setup.NODE24) ? setup.NODE24 : nodeMajor < 22 && exe(setup.NODE22) ? setup.NODE22 : null
  if (target) {
    const v = spawnSync(target, ['--version'], { encoding: 'utf8' }).stdout.trim()
    console.log(`bench: this is Node ${process.version}; re-running under ${v} (${target}) so that every peer loads in one process`)
    const r = spawnSync(target, [__filename, ...argv], {
      stdio: 'inherit',
      env: { ...process.env, OCCN_BENCH_REEXEC: '1', OCCN_BENCH_SETUP: JSON.stringify(setup) },
    })
    process.exit(r.status ?? 1)
  }
}

const native = require(ROOT)
const shapes = require(path.join(ROOT, '__test__/fixtures/shapes.js'))
const gen = require('./lib/gen.js')

// ---------------------------------------------------------------------------------------------
// Harness: interleaved rounds, median per call
// ---------------------------------------------------------------------------------------------
let sink // keeps results alive so that no call is optimised away
const now = () => performance.now()

function median(sorted) {
  return sorted[sorted.length >> 1]
}

/**
 * Times the contenders side by side: each round runs a batch of every contender (order rotated
 * each round), so that machine noise hits all of them alike. Returns median µs per call.
 */
function compare(contenders, { budgetMs = 1500, minRounds = 9, batchMs = 3 } = {}) {
  const state = contenders.map((c) => {
    for (let i = 0; i < 3; i++) sink = c.fn()
    let t0 = now()
    sink = c.fn()
    let one = Math.max(now() - t0, 1e-4)
    // JIT warm-up (for the JS peers) of ~2 batches, then re-calibrate.
    const warm = Math.min(5000, Math.ceil((2 * batchMs) / one))
    t0 = now()
    for (let i = 0; i < warm; i++) sink = c.fn()
    one = Math.max((now() - t0) / warm, 1e-5)
    return { c, n: Math.max(1, Math.min(100000, Math.round(batchMs / one))), samples: [] }
  })
  const start = now()
  for (let round = 0; round < minRounds || (now() - start < budgetMs && round < 2000); round++) {
    for (let k = 0; k < state.length; k++) {
      const s = state[(k + round) % state.length]
      const t0 = now()
      for (let i = 0; i < s.n; i++) sink = s.c.fn()
      s.samples.push(((now() - t0) / s.n) * 1000)
    }
  }
  const out = {}
  for (const s of state) {
    s.samples.sort((a, b) => a - b)
    out[s.c.name] = { us: median(s.samples), p25: s.samples[s.samples.length >> 2], p75: s.samples[(s.samples.length * 3) >> 2], n: s.samples.length * s.n }
  }
  return out
}

const fmtUs = (us) => (us == null ? '–' : us >= 1000 ? `${(us / 1000).toFixed(us >= 100000 ? 0 : 2)} ms` : `${us.toFixed(us >= 100 ? 0 : us >= 10 ? 1 : 2)} µs`)
const fmtMs = (ms) => (ms == null ? '–' : ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : ms >= 1 ? `${ms.toFixed(2)} ms` : `${(ms * 1000).toFixed(0)} µs`)
const fmtX = (x) => (x == null || !Number.isFinite(x) ? '–' : x >= 100 ? `${x.toFixed(0)}×` : `${x.toFixed(2)}×`)
const fmtUnits = (n) => (n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} Mi` : n >= 1024 ? `${(n / 1024).toFixed(1)} Ki` : String(n))
const fmtMB = (kb) => (kb == null ? '–' : `${(kb / 1024).toFixed(1)} MB`)
// Tables follow the order of the sections in the output.

const targets = [] // { name, target, value, pass }
function target(name, targetText, valueText, pass) {
  targets.push({ order: section, name, target: targetText, value: valueText, status: pass === 'info' ? 'INFO' : pass == null ? 'SKIP' : pass ? 'PASS' : 'MISS' })
}
const md = [] // markdown sections: { order, text }
let section = 0 // which section is running: orders targets and markdown like the issue
const addMd = (text) => md.push({ order: section, text })

function fuzzerRunning() {
  const r = spawnSync('pgrep', ['-f', 'cargo fuzz|fuzz/target|artifact_prefix='], { encoding: 'utf8' })
  return r.status === 0 ? r.stdout.trim().split('\n').length : 0
}

// ---------------------------------------------------------------------------------------------
// Machine note
// ---------------------------------------------------------------------------------------------
const cpuModel = (() => {
  try {
    return /model name\s*:\s*(.*)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))[1].trim()
  } catch {
    return os.cpus()[0]?.model || 'unknown CPU'
  }
})()
const nproc = os.availableParallelism ? os.availableParallelism() : os.cpus().length
const fuzzAtStart = fuzzerRunning()
const machine = `${nproc} cores (nproc), ${cpuModel}, Node ${process.version} ${process.platform}-${process.arch}`
console.log(`\nbench: ${machine}`)
console.log(`bench: addon ${native.__napiBindingTarget}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}; fuzzer ${fuzzAtStart ? `RUNNING (${fuzzAtStart} processes): numbers are noisier` : 'not running'}`)

// ---------------------------------------------------------------------------------------------
// 1. Compaction cap
// ---------------------------------------------------------------------------------------------
/** The seed's proposed rule in plain JS: a half-budget floor for the body, the suffix's tail sliced. */
const seedProposedRule = (body, suffix, maxChars) => shapes.seedProposedRule(body, suffix, maxChars, native.capCompactionSummary)

/** Body ≈ 1/4, suffix ≈ 3/4 of `units` (a structured body; 13 tool results a turn, as in the seed). */
function inputOfSize(units) {
  const linesPerSection = Math.max(4, Math.round((units * 0.25) / 700))
  const turns = Math.max(2, Math.round((units * 0.75) / 6800))
  return { body: shapes.structuredBody({ linesPerSection }), suffix: shapes.preservedSuffix({ turns, toolsPerTurn: 13 }) }
}

async function benchCompaction() {
  console.log('\n== capCompactionSummaryPreservingSuffix, maxChars 16000 ==')
  const { loadPeers, structuredSuffix } = await import('./lib/peers.mjs')
  const t0 = now()
  const peers = await loadPeers({ openclaw7Dir: setup.OPENCLAW_DIR, openclaw9Dir: setup.OPENCLAW_2026_9_DIR })
  console.log(`peers: ${[peers.v9 && `openclaw ${peers.v9.version} budgetCompactionSummary`, peers.v7 && `openclaw ${peers.v7.version} capCompactionSummaryPreservingSuffix`].filter(Boolean).join(', ') || 'none'} (loaded in ${((now() - t0) / 1000).toFixed(1)} s)`)
  for (const s of peers.skipped) console.log(`skipped: ${s}`)

  const seed = JSON.parse(fs.readFileSync(path.join(ROOT, 'samples/seed-compaction.json'), 'utf8'))
  const KI = 1024
  const sizes = QUICK ? [16 * KI, 256 * KI, 1024 * KI] : [16 * KI, 64 * KI, 256 * KI, 1024 * KI, 4096 * KI, 16384 * KI]
  const cases = [{ label: 'seed sample', body: seed.summaryBody, suffix: seed.suffix }]
  for (const units of sizes) cases.push({ label: fmtUnits(units), ...inputOfSize(units) })

  const rows = []
  for (const cs of cases) {
    // Flat strings (Array#join builds sequential strings): no rope flattening inside the timed calls.
    const body = [cs.body].join('')
    const suffix = [cs.suffix].join('')
    const joined = [body, suffix].join('')
    const units = joined.length
    const contenders = [
      { name: 'ours', fn: () => native.capCompactionSummaryPreservingSuffix(body, suffix, MAX_CHARS) },
      { name: 'floor', fn: () => native.capCompactionSummary(joined, 0) },
      { name: 'seedJs', fn: () => seedProposedRule(body, suffix, MAX_CHARS) },
    ]
    if (peers.v7) contenders.push({ name: 'oc7', fn: () => peers.v7.capCompactionSummaryPreservingSuffix(body, suffix, MAX_CHARS) })
    if (peers.v9) {
      const structured = structuredSuffix(suffix)
      contenders.push({ name: 'oc9', fn: () => peers.v9.budgetCompactionSummary(body, structured, MAX_CHARS) })
      // What the session store does next: serialise the summary (JSON.stringify flattens a rope).
      contenders.push({ name: 'oc9S', fn: () => JSON.stringify(peers.v9.budgetCompactionSummary(body, structured, MAX_CHARS).summary) })
      contenders.push({ name: 'oursS', fn: () => JSON.stringify(native.capCompactionSummaryPreservingSuffix(body, suffix, MAX_CHARS)) })
    }
    // Sanity: every contender caps (the floor excepted) and ours keeps the five headings.
    const ours = native.capCompactionSummaryPreservingSuffix(body, suffix, MAX_CHARS)
    if (ours.length > MAX_CHARS) throw new Error(`ours returned ${ours.length} units at ${cs.label}`)
    const lost = shapes.missingSections(ours).length
    // What each one keeps: the five required headings, out of 5.
    const text = (v) => (typeof v === 'string' ? v : v.summary)
    const kept = Object.fromEntries(
      contenders.filter((c) => !['floor', 'oc9S', 'oursS'].includes(c.name)).map((c) => [c.name, 5 - shapes.missingSections(text(c.fn())).length]),
    )
    const budget = units >= 4 << 20 ? 2500 : 1500
    const r = compare(contenders, { budgetMs: QUICK ? budget / 2 : budget, minRounds: units >= 4 << 20 ? 5 : 9 })
    const row = {
      label: cs.label,
      units,
      body: body.length,
      suffix: suffix.length,
      ours: r.ours.us,
      floor: r.floor.us,
      overFloor: (r.ours.us - r.floor.us) / r.floor.us,
      seedJs: r.seedJs.us,
      oc7: r.oc7?.us,
      oc9: r.oc9?.us,
      oc9S: r.oc9S?.us,
      oursS: r.oursS?.us,
      nsPerUnit: (r.ours.us * 1000) / units,
      floorNsPerUnit: (r.floor.us * 1000) / units,
      headingsLost: lost,
      kept,
      spread: `${fmtUs(r.ours.p25)}–${fmtUs(r.ours.p75)}`,
    }
    rows.push(row)
    console.log(
      `${cs.label.padEnd(11)} ${fmtUnits(units).padStart(8)}: ours ${fmtUs(row.ours)} [${row.spread}] ${row.nsPerUnit.toFixed(2)} ns/unit | ` +
        `floor ${fmtUs(row.floor)} (ours ${row.overFloor >= 0 ? '+' : ''}${row.overFloor.toFixed(2)}) | ` +
        `2026.9.6 ${fmtUs(row.oc9)} (ours ${fmtX(row.oc9 && row.ours / row.oc9)}; with stringify ${fmtX(row.oc9S && row.oursS / row.oc9S)}) | ` +
        `2026.7.2 ${fmtUs(row.oc7)} (${fmtX(row.oc7 && row.ours / row.oc7)}) | seed JS ${fmtUs(row.seedJs)} (${fmtX(row.ours / row.seedJs)}) | ` +
        `headings ${['ours', 'oc9', 'oc7', 'seedJs'].map((k) => kept[k] ?? '–').join('/')}`,
    )
  }

  const costTable = rows.map((r) => ({
    input: r.label,
    'units (body + suffix)': `${fmtUnits(r.units)} (${fmtUnits(r.body)} + ${fmtUnits(r.suffix)})`,
    ours: fmtUs(r.ours),
    'copy floor': fmtUs(r.floor),
    '(ours − floor) / floor': r.overFloor.toFixed(2),
    'ours ns/unit': r.nsPerUnit.toFixed(2),
    'floor ns/unit': r.floorNsPerUnit.toFixed(2),
  }))
  const peerTable = rows.map((r) => ({
    input: r.label,
    ours: fmtUs(r.ours),
    '2026.9.6 `budgetCompactionSummary`': fmtUs(r.oc9),
    'ours / 2026.9.6': fmtX(r.oc9 && r.ours / r.oc9),
    'ours / 2026.9.6, both + `JSON.stringify`': fmtX(r.oc9S && r.oursS / r.oc9S),
    '2026.7.2 (buggy)': fmtUs(r.oc7),
    'ours / 2026.7.2': fmtX(r.oc7 && r.ours / r.oc7),
    'seed JS rule': fmtUs(r.seedJs),
    'ours / seed JS': fmtX(r.ours / r.seedJs),
    'headings kept /5 (ours, 9.6, 7.2, seed JS)': ['ours', 'oc9', 'oc7', 'seedJs'].map((k) => r.kept[k] ?? '–').join(', '),
  }))
  console.log('(median per call [p25–p75]; ratios of medians measured side by side; headings: required headings kept /5 by ours/2026.9.6/2026.7.2/seed JS)')
  addMd(
    '### `capCompactionSummaryPreservingSuffix` (maxChars 16000, median per call)\n\n' +
      mdTable(costTable) +
      '\n\nAgainst the JS functions, measured side by side in the same process:\n\n' +
      mdTable(peerTable) +
      '\n\n"copy floor" is the addon\'s `capCompactionSummary(body + suffix, 0)`: it copies the same units in and out and does nothing else. ' +
      'The JS peers return ropes/slices of their inputs (V8 does not copy a `slice` or a `+`), so their time hardly grows with the input; ' +
      'an N-API function must copy its string arguments into native memory first. ' +
      'The "+ JSON.stringify" ratio times both with the serialisation the session store applies next (which flattens the rope 2026.9.6 returns).',
  )

  const worstOver = rows.reduce((a, r) => (r.overFloor > a.overFloor ? r : a))
  target('cap overhead over copy floor, (ours−floor)/floor, all sizes', '≤ 0.5', `${worstOver.overFloor.toFixed(2)} (worst, ${worstOver.label}); seed sample ${rows[0].overFloor.toFixed(2)}`, worstOver.overFloor <= 0.5)
  if (peers.v9) {
    const ratio = (r) => r.ours / r.oc9
    const worst = rows.reduce((a, r) => (ratio(r) > ratio(a) ? r : a))
    target('ours / OpenClaw 2026.9.6 budgetCompactionSummary, all sizes', '≤ 1.5×', `${fmtX(ratio(worst))} (worst, ${worst.label}); seed sample ${fmtX(ratio(rows[0]))}`, ratio(worst) <= 1.5)
    const ratioS = (r) => r.oursS / r.oc9S
    const worstS = rows.reduce((a, r) => (ratioS(r) > ratioS(a) ? r : a))
    target('  same, both + JSON.stringify of the result', 'informational', `${fmtX(ratioS(worstS))} (worst, ${worstS.label}); seed sample ${fmtX(ratioS(rows[0]))}`, 'info')
  } else {
    target('ours / OpenClaw 2026.9.6 budgetCompactionSummary', '≤ 1.5×', 'not measured (peer unavailable)', null)
  }
  const big = rows.filter((r) => r.units >= 64 * KI)
  if (big.length >= 2) {
    const per = big.map((r) => r.nsPerUnit)
    const spread = Math.max(...per) / Math.min(...per)
    target('linearity: ours ns/unit, 64 Ki..largest (max/min)', 'informational', `${Math.min(...per).toFixed(2)}–${Math.max(...per).toFixed(2)} ns/unit (${fmtX(spread)})`, 'info')
  }
  const lostAny = rows.filter((r) => r.headingsLost)
  if (lostAny.length) console.log(`note: ours lost required headings at ${lostAny.map((r) => r.label).join(', ')}`)
  return { rows, peers }
}

// ---------------------------------------------------------------------------------------------
// 2. Log reader, each reader in its own child process
// ---------------------------------------------------------------------------------------------
const CHILD = path.join(__dirname, 'lib/child.js')
function child(args) {
  const r = spawnSync(process.execPath, [CHILD, ...args], { encoding: 'utf8', maxBuffer: 1 << 20 })
  const line = (r.stdout || '').trim().split('\n').pop()
  try {
    return JSON.parse(line)
  } catch {
    return { error: `child exited ${r.status ?? r.signal}: ${(r.stderr || '').trim().split('\n').slice(-3).join(' | ')}` }
  }
}

function benchLogs() {
  console.log('\n== readPersistentChatLogEntries(path, 25): fresh child process per reader ==')
  const dir = path.join(ROOT, '.cache/bench/logs')
  fs.mkdirSync(dir, { recursive: true })
  const MB = 1 << 20
  const logs = [
    { label: '10 MB', bytes: 10 * MB },
    { label: '256 MB', bytes: 256 * MB },
    ...(QUICK ? [] : [{ label: '1 GB', bytes: 1024 * MB }]),
  ].map((l) => ({ ...l, file: path.join(dir, `perpetual-${l.label.replace(' ', '')}.jsonl`) }))

  // Free disk space for the logs still to generate (plus 1 GB of slack).
  const missing = logs.filter((l) => !(fs.existsSync(l.file) && fs.statSync(l.file).size >= l.bytes))
  const need = missing.reduce((a, l) => a + l.bytes, 0)
  if (need) {
    const st = fs.statfsSync(dir)
    const free = st.bavail * st.bsize
    console.log(`logs: generating ${missing.map((l) => l.label).join(', ')} into ${dir} (free: ${(free / 2 ** 30).toFixed(1)} GB)`)
    if (free < need + 1024 * MB) {
      console.log('logs: not enough free disk: the largest missing logs are skipped')
      while (missing.length && free < missing.reduce((a, l) => a + l.bytes, 0) + 1024 * MB) {
        const drop = missing.pop()
        logs.splice(logs.indexOf(drop), 1)
      }
    }
    for (const l of missing) {
      const t0 = now()
      gen.ensureLog(l.file, l.bytes, (w) => process.stdout.write(`\r  ${l.label}: ${(w / MB).toFixed(0)} MB written`))
      process.stdout.write(`\r  ${l.label}: done in ${((now() - t0) / 1000).toFixed(1)} s        \n`)
    }
  } else {
    console.log(`logs: reusing ${dir}`)
  }

  // Warm the page cache for the whole files (the JS reader reads them whole), so that every
  // reader sees warm-cache numbers: reported as such.
  for (const l of logs) {
    const fd = fs.openSync(l.file, 'r')
    const buf = Buffer.allocUnsafe(8 * MB)
    while (fs.readSync(fd, buf, 0, buf.length, null) > 0);
    fs.closeSync(fd)
  }

  const baselines = [0, 1, 2].map(() => child(['baseline', ROOT]).maxRssKb).sort((a, b) => a - b)
  const baseKb = median(baselines)
  console.log(`baseline child (node + addon loaded): peak RSS ${fmtMB(baseKb)}`)

  const rows = []
  for (const l of logs) {
    const size = fs.statSync(l.file).size
    // Native: 3 fresh children; in each, the first call and the median of 50 more.
    const nat = [0, 1, 2].map(() => child(['read', ROOT, 'native', l.file, '25', '50']))
    // Cold: the file's pages dropped from the page cache first (GNU dd's iflag=nocache with
    // count=0 drops them for this one file; no root needed), then a fresh child's first call.
    const cold = [0, 1, 2].map(() => {
      const dd = spawnSync('dd', [`if=${l.file}`, 'iflag=nocache', 'count=0'], { stdio: 'ignore' })
      return dd.status === 0 ? child(['read', ROOT, 'native', l.file, '25', '0']).firstMs : null
    })
    const natErr = nat.find((r) => r.error)
    const js = child(['read', ROOT, 'js', l.file, '25', l.bytes <= 16 * MB ? '5' : '0'])
    const medOf = (key) => median(nat.map((r) => r[key]).sort((a, b) => a - b))
    const row = {
      label: l.label,
      size,
      nativeFirstMs: natErr ? null : medOf('firstMs'),
      nativeMs: natErr ? null : medOf('medianMs'),
      nativeColdMs: cold.includes(null) || cold.includes(undefined) ? null : median(cold.sort((a, b) => a - b)),
      nativeExtraKb: natErr ? null : medOf('maxRssKb') - baseKb,
      nativeDeltaKb: natErr ? null : median(nat.map((r) => r.maxRssKb - r.rssBeforeKb).sort((a, b) => a - b)),
      nativeError: natErr?.error,
      jsMs: js.error ? null : js.firstMs,
      jsExtraKb: js.maxRssKb != null ? js.maxRssKb - baseKb : null,
      jsError: js.error,
      jsErrorAfterMs: js.afterMs,
      same: !natErr && !js.error ? nat[0].lastId === js.lastId && nat[0].entries === js.entries : null,
    }
    rows.push(row)
    console.log(
      `${l.label.padEnd(7)} native: ${natErr ? natErr.error : `${fmtMs(row.nativeMs)} (first call ${fmtMs(row.nativeFirstMs)}, cold ${fmtMs(row.nativeColdMs)}), +${fmtMB(row.nativeExtraKb)} RSS`} | ` +
        `whole-file JS: ${js.error ? `${js.error} (after ${fmtMs(js.afterMs)}, +${fmtMB(row.jsExtraKb)} RSS)` : `${fmtMs(row.jsMs)} (${fmtX(row.jsMs / row.nativeMs)} native), +${fmtMB(row.jsExtraKb)} RSS`}` +
        (row.same === false ? '  [the two readers disagree on the last entries!]' : ''),
    )
  }
  const table = rows.map((r) => ({
    log: `${r.label} (${(r.size / 2 ** 20).toFixed(0)} MiB)`,
    'native (median of 50 calls)': r.nativeError || fmtMs(r.nativeMs),
    'native, 1st call in process': fmtMs(r.nativeFirstMs),
    'native, cold cache, 1st call': fmtMs(r.nativeColdMs),
    'native extra RSS (vs baseline child / in-child peak growth)': r.nativeExtraKb == null ? '–' : `${fmtMB(r.nativeExtraKb)} / ${fmtMB(r.nativeDeltaKb)}`,
    'whole-file JS': r.jsError ? `fails: ${r.jsError.split(':')[0]} (after ${fmtMs(r.jsErrorAfterMs)})` : fmtMs(r.jsMs),
    'JS extra RSS': fmtMB(r.jsExtraKb),
    'JS / native': r.jsMs && r.nativeMs ? fmtX(r.jsMs / r.nativeMs) : '–',
  }))
  const jsFail = rows.find((r) => r.jsError)
  addMd(
    '### `readPersistentChatLogEntries(path, 25)` (fresh child process per reader, warm page cache)\n\n' +
      mdTable(table) +
      `\n\nExtra RSS is the reader child's peak RSS minus a baseline child that only loads the addon (${fmtMB(baseKb)}; medians of 3 children), ` +
      'and the growth of the child\'s own peak RSS across the reads (a few tenths of a MB is noise). ' +
      'Warm: the files were just read whole, so they are in the page cache; "cold cache" drops the file\'s pages first (`dd iflag=nocache count=0`). ' +
      'Whole-file JS = `readFileSync(path, "utf8")`, split on newlines, `JSON.parse` of the last 25 valid lines.' +
      (jsFail ? ` At ${jsFail.label} it cannot build the string: \`${jsFail.jsError}\`.` : ''),
  )
  const r10 = rows.find((r) => r.label === '10 MB')
  const r1g = rows.find((r) => r.label === '1 GB') || rows[rows.length - 1]
  const lbl = r1g.label
  target(`log read, last 25 entries of ${lbl} (warm cache)`, '< 1 ms', fmtMs(r1g.nativeMs) + ` (first call ${fmtMs(r1g.nativeFirstMs)})`, r1g.nativeMs == null ? false : r1g.nativeMs < 1)
  target(`log read ${lbl} / 10 MB`, '< 2×', r1g.nativeMs && r10.nativeMs ? fmtX(r1g.nativeMs / r10.nativeMs) : '–', r1g.nativeMs && r10.nativeMs ? r1g.nativeMs / r10.nativeMs < 2 : false)
  const worstRss = Math.max(...rows.map((r) => r.nativeExtraKb ?? Infinity))
  target('log read extra RSS over baseline child (worst size)', '< 16 MB', fmtMB(worstRss), worstRss < 16 * 1024)
  return { rows, baseKb }
}

// ---------------------------------------------------------------------------------------------
// 3. Persistent-chat builders
// ---------------------------------------------------------------------------------------------
function benchChat() {
  console.log('\n== persistent chat: injected prompt and continuity summary ==')
  const all = gen.entries(201)
  const userMessage = 'Can you re-run the staging migration and tell me if p99 latency is back under 200 ms? ' + gen.words(gen.rng(3), 40)
  // As a gateway would have it: the live message is already the newest log entry.
  const live = { ...all[200], role: 'user', text: userMessage }
  const entries200 = [...all.slice(1, 200), live]
  const state = gen.memoryState()
  const now_ = '2026-05-16T09:00:00Z'
  const currentSession = entries200[entries200.length - 1].session
  const summaryParams = { entries: entries200, state, currentSession, now: now_ }
  const continuitySummary = native.rebuildPersistentChatContinuitySummary(summaryParams)
  const turnMetadata = { channel: 'telegram', chat: 'ops-room', sender: 'alice', messageId: 88213, receivedAt: now_, reload: true }
  const reloadParams = { userMessage, reload: true, turnMetadata, continuitySummary, logEntries: entries200.slice(-26) }
  const continuousParams = { userMessage, reload: false, turnMetadata, logEntries: entries200.slice(-3) }
  const logFile = path.join(ROOT, '.cache/bench/logs/perpetual-10MB.jsonl')
  const reloadFromLog = fs.existsSync(logFile) ? { userMessage, reload: true, turnMetadata, continuitySummary, logPath: logFile } : null

  const reloadReport = native.buildPersistentChatInjectedPromptReport(reloadParams)
  const contReport = native.buildPersistentChatInjectedPromptReport(continuousParams)
  console.log(
    `inputs: continuity summary ${continuitySummary.length} units; reload prompt ${reloadReport.chars} units, ${reloadReport.entriesInjected} entries; ` +
      `continuous prompt ${contReport.chars} units, ${contReport.entriesInjected} entries`,
  )
  const contenders = [
    { name: 'reload', fn: () => native.buildPersistentChatInjectedPrompt(reloadParams) },
    { name: 'continuous', fn: () => native.buildPersistentChatInjectedPrompt(continuousParams) },
    { name: 'summary', fn: () => native.rebuildPersistentChatContinuitySummary(summaryParams) },
  ]
  if (reloadFromLog) contenders.push({ name: 'reloadLog', fn: () => native.buildPersistentChatInjectedPrompt(reloadFromLog) })
  const r = compare(contenders, { budgetMs: QUICK ? 1000 : 2000 })
  const table = [
    { call: 'buildPersistentChatInjectedPrompt, reload (25 entries + continuity summary)', median: fmtUs(r.reload.us), 'p25–p75': `${fmtUs(r.reload.p25)}–${fmtUs(r.reload.p75)}`, 'output units': reloadReport.chars },
    { call: 'buildPersistentChatInjectedPrompt, continuous (2 entries)', median: fmtUs(r.continuous.us), 'p25–p75': `${fmtUs(r.continuous.p25)}–${fmtUs(r.continuous.p75)}`, 'output units': contReport.chars },
    { call: 'rebuildPersistentChatContinuitySummary (200 entries + state)', median: fmtUs(r.summary.us), 'p25–p75': `${fmtUs(r.summary.p25)}–${fmtUs(r.summary.p75)}`, 'output units': continuitySummary.length },
  ]
  if (r.reloadLog) table.push({ call: 'buildPersistentChatInjectedPrompt, reload, entries read from `logPath` (10 MB log)', median: fmtUs(r.reloadLog.us), 'p25–p75': `${fmtUs(r.reloadLog.p25)}–${fmtUs(r.reloadLog.p75)}`, 'output units': native.buildPersistentChatInjectedPrompt(reloadFromLog).length })
  console.table(table)
  addMd('### Persistent-chat builders (median per call, in process)\n\n' + mdTable(table))
  target('reload prompt (25 entries + summary)', '< 100 µs', fmtUs(r.reload.us), r.reload.us < 100)
  return r
}

// ---------------------------------------------------------------------------------------------
// 4. Load time
// ---------------------------------------------------------------------------------------------
function benchLoad() {
  console.log('\n== require() of the addon: fresh child process each ==')
  const runs10 = Array.from({ length: 11 }, () => child(['require', ROOT]))
  const err = runs10.find((r) => r.error)
  if (err) {
    console.log(`require failed: ${err.error}`)
    target('require() time', '< 10 ms', err.error, false)
    return null
  }
  const times = runs10.slice(1).map((r) => r.requireMs).sort((a, b) => a - b) // the first run warms the page cache
  const { nodeFile, nodeBytes } = runs10[0]
  console.log(`require(): median ${fmtMs(median(times))} of ${times.length} (min ${fmtMs(times[0])}, max ${fmtMs(times[times.length - 1])}); ${path.relative(ROOT, nodeFile)} is ${(nodeBytes / 1024).toFixed(0)} KiB`)
  const table = [
    { what: 'require() of the addon (fresh process, median of 10)', value: fmtMs(median(times)), range: `${fmtMs(times[0])}–${fmtMs(times[times.length - 1])}` },
    { what: `.node size (${path.basename(nodeFile)})`, value: `${(nodeBytes / 1024).toFixed(0)} KiB`, range: '' },
  ]
  addMd('### Load\n\n' + mdTable(table))
  target('require() time (fresh process, median of 10)', '< 10 ms', fmtMs(median(times)), median(times) < 10)
  target('.node size', 'informational', `${(nodeBytes / 1024).toFixed(0)} KiB`, 'info')
  return { times, nodeBytes }
}

// ---------------------------------------------------------------------------------------------
// Markdown
// ---------------------------------------------------------------------------------------------
function mdTable(rows) {
  const cols = Object.keys(rows[0])
  const esc = (v) => String(v ?? '').replace(/\|/g, '\\|')
  return [`| ${cols.join(' | ')} |`, `| ${cols.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${cols.map((c) => esc(r[c])).join(' | ')} |`)].join('\n')
}

async function main() {
  const started = now()
  // The in-process sections that need no peer run first: importing the two OpenClaw dists
  // leaves ~700 MB of heap and code behind, which slows later allocation-heavy calls.
  if (runs('chat')) (section = 3), benchChat()
  if (runs('load')) (section = 4), benchLoad()
  if (runs('logs')) (section = 2), benchLogs()
  if (runs('compaction')) (section = 1), await benchCompaction()
  const byOrder = (a, b) => a.order - b.order
  targets.sort(byOrder) // stable: keeps each section's own order
  md.sort(byOrder)

  const fuzzAtEnd = fuzzerRunning()
  const noise = fuzzAtStart || fuzzAtEnd ? `a fuzzer was running on one core (start: ${fuzzAtStart}, end: ${fuzzAtEnd} processes)` : 'no fuzzer running'
  console.log('\n== targets ==')
  const w = Math.max(...targets.map((t) => t.name.length))
  for (const t of targets) console.log(`${t.status.padEnd(4)}  ${t.name.padEnd(w)}  target ${t.target.padEnd(13)}  measured ${t.value}`)

  const date = new Date().toISOString().slice(0, 10)
  const doc =
    `## Benchmarks\n\n` +
    `\`npm run bench\` (${date}): ${machine}; ${noise}; load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}. ` +
    'All timings are medians measured side by side in one process (interleaved rounds), except the log reader and `require()`, which run in fresh child processes. ' +
    'The machine is shared: read the ratios rather than the absolute times.\n\n' +
    '### Targets\n\n' +
    mdTable(targets.map((t) => ({ target: t.name, goal: t.target, measured: t.value, result: t.status }))) +
    '\n\n' +
    md.map((m) => m.text).join('\n\n') +
    '\n'
  console.log('\n== markdown (also in benchmark/results.md) ==\n')
  console.log(doc)
  if (!flag('--no-write') && !ONLY && !QUICK) fs.writeFileSync(path.join(__dirname, 'results.md'), doc)
  else if (!flag('--no-write')) console.log('(partial run: benchmark/results.md left unchanged)')
  console.log(`bench: done in ${((now() - started) / 1000).toFixed(0)} s`)
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
