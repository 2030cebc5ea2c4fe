'use strict'
// "did you mean …?" for a mistyped command or flag: the known word nearest to the one given by
// Damerau-Levenshtein distance (insertions, deletions, substitutions and swaps of two
// neighbouring characters), offered only when it is close: a suggestion far from what was
// typed is noise.

/** The number of edits (the four kinds above, each costing 1) from `a` to `b`. */
function editDistance(a, b) {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)])
  for (let j = 1; j <= b.length; j++) rows[0][j] = j
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1)
      }
    }
  }
  return rows[a.length][b.length]
}

/** How many edits still count as close: 1 for a word of up to 4 characters, 2 up to 8, then 3. */
const closeEnough = (word) => (word.length <= 4 ? 1 : word.length <= 8 ? 2 : 3)

/**
 * The candidate nearest to `word` (case ignored; the first of equally near ones), or undefined
 * when none is close; a candidate that `word` starts (an abbreviation, `exp` for `export`)
 * counts as close too when it is the only one.
 */
function nearest(word, candidates) {
  const given = String(word).toLowerCase()
  let best
  let bestDistance = Number.POSITIVE_INFINITY
  for (const candidate of candidates) {
    const distance = editDistance(given, candidate.toLowerCase())
    if (distance < bestDistance) {
      best = candidate
      bestDistance = distance
    }
  }
  if (best !== undefined && bestDistance <= closeEnough(given) && bestDistance < given.length) return best
  const started = candidates.filter((candidate) => given.length >= 2 && candidate.toLowerCase().startsWith(given))
  return started.length === 1 ? started[0] : undefined
}

module.exports = { editDistance, nearest }
