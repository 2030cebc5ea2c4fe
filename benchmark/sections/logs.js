'use strict'
// readPersistentChatLogEntries(path, 25) on 10 MB / 256 MB / 1 GB logs (generated once under
// $BENCH_CACHE_DIR/logs, default under dev/cache-dir.js's bench folder) against a whole-file JS reader, each reader in a fresh child process: time
// and peak RSS over a baseline child.
const fs = require('node:fs')
const path = require('node:path')
const { spawnSync } = require('node:child_process')

const gen = require('../lib/gen.js')
const { runChild } = require('../lib/children.js')
const { benchCacheDir } = require('../lib/setup.js')
const { median, now } = require('../lib/harness.js')
const { fmtMs, fmtMB, fmtX, mdTable } = require('../lib/format.js')

function benchLogs({ root, quick, rec }) {
  console.log('\n== readPersistentChatLogEntries(path, 25): fresh child process per reader ==')
  const dir = path.join(benchCacheDir(root), 'logs')
  fs.mkdirSync(dir, { recursive: true })
  const MB = 1 << 20
  const logs = [
    { label: '10 MB', bytes: 10 * MB },
    { label: '256 MB', bytes: 256 * MB },
    ...(quick ? [] : [{ label: '1 GB', bytes: 1024 * MB }]),
  ].map((l) => ({ ...l, file: path.join(dir, `perpetual-${l.label.replace(' ', '')}.jsonl`) }))

  // Free disk space for the logs still to generate (plus 1 GB of slack).
  const missing = logs.filter((l) => !(fs.existsSync(l.file) && fs.statSync(l.file).size >= l.bytes))
  const need = missing.reduce((a, l) => a + l.bytes, 0)
  if (need) {
    const st = fs.statfsSync(dir)
    const free = st.bavail * st.bsize
    console.log(
      `logs: generating ${missing.map((l) => l.label).join(', ')} into ${dir} (free: ${(free / 2 ** 30).toFixed(1)} GB)`,
    )
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

  const baselines = [0, 1, 2].map(() => runChild(['baseline', root]).maxRssKb).sort((a, b) => a - b)
  const baseKb = median(baselines)
  console.log(`baseline child (node + addon loaded): peak RSS ${fmtMB(baseKb)}`)

  const rows = []
  for (const l of logs) {
    const size = fs.statSync(l.file).size
    // Native: 3 fresh children; in each, the first call and the median of 50 more.
    const nat = [0, 1, 2].map(() => runChild(['read', root, 'native', l.file, '25', '50']))
    // Cold: the file's pages dropped from the page cache first (GNU dd's iflag=nocache with
    // count=0 drops them for this one file; no root needed), then a fresh child's first call.
    const cold = [0, 1, 2].map(() => {
      const dd = spawnSync('dd', [`if=${l.file}`, 'iflag=nocache', 'count=0'], { stdio: 'ignore' })
      return dd.status === 0 ? runChild(['read', root, 'native', l.file, '25', '0']).firstMs : null
    })
    const natErr = nat.find((r) => r.error)
    const js = runChild(['read', root, 'js', l.file, '25', l.bytes <= 16 * MB ? '5' : '0'])
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
    'native extra RSS (vs baseline child / in-child peak growth)':
      r.nativeExtraKb == null ? '–' : `${fmtMB(r.nativeExtraKb)} / ${fmtMB(r.nativeDeltaKb)}`,
    'whole-file JS': r.jsError ? `fails: ${r.jsError.split(':')[0]} (after ${fmtMs(r.jsErrorAfterMs)})` : fmtMs(r.jsMs),
    'JS extra RSS': fmtMB(r.jsExtraKb),
    'JS / native': r.jsMs && r.nativeMs ? fmtX(r.jsMs / r.nativeMs) : '–',
  }))
  const jsFail = rows.find((r) => r.jsError)
  rec.markdown(
    '### `readPersistentChatLogEntries(path, 25)` (fresh child process per reader, warm page cache)\n\n' +
      mdTable(table) +
      `\n\nExtra RSS is the reader child's peak RSS minus a baseline child that only loads the addon (${fmtMB(baseKb)}; medians of 3 children), ` +
      "and the growth of the child's own peak RSS across the reads (a few tenths of a MB is noise). " +
      'Warm: the files were just read whole, so they are in the page cache; "cold cache" drops the file\'s pages first (`dd iflag=nocache count=0`). ' +
      'Whole-file JS = `readFileSync(path, "utf8")`, split on newlines, `JSON.parse` of the last 25 valid lines.' +
      (jsFail ? ` At ${jsFail.label} it cannot build the string: \`${jsFail.jsError}\`.` : ''),
  )
  const r10 = rows.find((r) => r.label === '10 MB')
  const r1g = rows.find((r) => r.label === '1 GB') || rows[rows.length - 1]
  const lbl = r1g.label
  rec.target(
    `log read, last 25 entries of ${lbl} (warm cache)`,
    '< 1 ms',
    `${fmtMs(r1g.nativeMs)} (first call ${fmtMs(r1g.nativeFirstMs)})`,
    r1g.nativeMs == null ? false : r1g.nativeMs < 1,
  )
  rec.target(
    `log read ${lbl} / 10 MB`,
    '< 2×',
    r1g.nativeMs && r10.nativeMs ? fmtX(r1g.nativeMs / r10.nativeMs) : '–',
    r1g.nativeMs && r10.nativeMs ? r1g.nativeMs / r10.nativeMs < 2 : false,
  )
  const worstRss = Math.max(...rows.map((r) => r.nativeExtraKb ?? Infinity))
  rec.target('log read extra RSS over baseline child (worst size)', '< 16 MB', fmtMB(worstRss), worstRss < 16 * 1024)
  return { rows, baseKb }
}

module.exports = { benchLogs }
