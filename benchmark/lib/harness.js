'use strict'
// Timing side by side: interleaved rounds, median per call.

const now = () => performance.now()

// Every call's result is written here, so that no call can be optimised away.
// biome-ignore lint/correctness/noUnusedVariables: written, never read, on purpose
let sink

function median(sorted) {
  return sorted[sorted.length >> 1]
}

/**
 * Times the contenders ({ name, fn }) side by side: each round runs a batch of every contender
 * (order rotated each round), so that machine noise hits all of them alike. Returns, by name,
 * the median µs per call with its quartiles and the number of calls.
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
    out[s.c.name] = {
      us: median(s.samples),
      p25: s.samples[s.samples.length >> 2],
      p75: s.samples[(s.samples.length * 3) >> 2],
      n: s.samples.length * s.n,
    }
  }
  return out
}

module.exports = { compare, median, now }
