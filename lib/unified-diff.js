'use strict'
// What `patch --dry-run` prints: the edits as a unified diff, each widened to whole lines.

function lineStarts(text) {
  const starts = [0]
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1)
  return starts
}

/** The index of the line holding `offset` (a binary search over the line starts). */
function lineOf(starts, offset) {
  let lo = 0
  let hi = starts.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (starts[mid] <= offset) lo = mid
    else hi = mid - 1
  }
  return lo
}

/** The one edit that turns `a` into `b`: everything between their common prefix and suffix. */
function differingSpan(a, b) {
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let tail = 0
  while (tail < a.length - start && tail < b.length - start && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++
  return { start, end: a.length - tail, text: b.slice(start, b.length - tail) }
}

// A bundled chunk may hold a line of megabytes.
const clip = (line) => (line.length > 240 ? `${line.slice(0, 240)}… (${line.length} chars)` : line)

/** A unified diff of `edits` (`{ start, end, text }` offsets into `before`), labelled `label`. */
function unifiedDiff(label, before, edits, context = 2) {
  const starts = lineStarts(before)
  const lines = before.split('\n')
  const out = [`--- a/${label}`, `+++ b/${label}`]
  let delta = 0
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    const firstLine = lineOf(starts, edit.start)
    const lastLine = edit.end > edit.start ? lineOf(starts, edit.end - 1) : firstLine - 1
    const lineStart = starts[firstLine]
    const lineEnd = lastLine >= firstLine ? (starts[lastLine + 1] ?? before.length) : lineStart
    const oldText = before.slice(lineStart, lineEnd)
    const newText = before.slice(lineStart, edit.start) + edit.text + before.slice(edit.end, lineEnd)
    const oldLines = oldText === '' ? [] : oldText.replace(/\n$/, '').split('\n')
    const newLines = newText === '' ? [] : newText.replace(/\n$/, '').split('\n')
    const ctxBefore = lines.slice(Math.max(0, firstLine - context), firstLine)
    const afterFrom = firstLine + oldLines.length
    const ctxAfter = lines.slice(afterFrom, Math.min(lines.length, afterFrom + context))
    const oldStart = firstLine - ctxBefore.length + 1
    const oldCount = ctxBefore.length + oldLines.length + ctxAfter.length
    const newCount = ctxBefore.length + newLines.length + ctxAfter.length
    out.push(`@@ -${oldStart},${oldCount} +${oldStart + delta},${newCount} @@`)
    for (const l of ctxBefore) out.push(` ${clip(l)}`)
    for (const l of oldLines) out.push(`-${clip(l)}`)
    for (const l of newLines) out.push(`+${clip(l)}`)
    for (const l of ctxAfter) out.push(` ${clip(l)}`)
    delta += newLines.length - oldLines.length
  }
  return out.join('\n')
}

module.exports = { unifiedDiff, differingSpan }
