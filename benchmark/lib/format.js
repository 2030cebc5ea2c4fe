'use strict'
// Number and table formatting for the bench's console lines and benchmark/results.md.

const fmtUs = (us) =>
  us == null
    ? '–'
    : us >= 1000
      ? `${(us / 1000).toFixed(us >= 100000 ? 0 : 2)} ms`
      : `${us.toFixed(us >= 100 ? 0 : us >= 10 ? 1 : 2)} µs`
const fmtMs = (ms) =>
  ms == null
    ? '–'
    : ms >= 1000
      ? `${(ms / 1000).toFixed(2)} s`
      : ms >= 1
        ? `${ms.toFixed(2)} ms`
        : `${(ms * 1000).toFixed(0)} µs`
const fmtX = (x) => (x == null || !Number.isFinite(x) ? '–' : x >= 100 ? `${x.toFixed(0)}×` : `${x.toFixed(2)}×`)
const fmtUnits = (n) =>
  n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(1)} Mi` : n >= 1024 ? `${(n / 1024).toFixed(1)} Ki` : String(n)
const fmtMB = (kb) => (kb == null ? '–' : `${(kb / 1024).toFixed(1)} MB`)
const fmtRatio = (x) => (x == null || !Number.isFinite(x) ? '–' : x.toFixed(2))

/** A markdown table of `rows` (objects with the same keys, in column order). */
function mdTable(rows) {
  const cols = Object.keys(rows[0])
  const esc = (v) => String(v ?? '').replace(/\|/g, '\\|')
  return [
    `| ${cols.join(' | ')} |`,
    `| ${cols.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${cols.map((c) => esc(r[c])).join(' | ')} |`),
  ].join('\n')
}

module.exports = { fmtUs, fmtMs, fmtX, fmtUnits, fmtMB, fmtRatio, mdTable }
