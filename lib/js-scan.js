'use strict'
// A small JavaScript scanner: just enough to find where a bracketed region of a
// bundled ES module ends. It skips string literals, template literals (with nested
// `${ … }` code), comments and regular-expression literals, so a brace inside any
// of them never counts. It is not a parser: it only tracks brackets.

const REGEX_AFTER_WORDS = new Set([
  'return',
  'typeof',
  'instanceof',
  'in',
  'of',
  'new',
  'delete',
  'void',
  'throw',
  'case',
  'do',
  'else',
  'yield',
  'await',
])
const CLOSER = { '(': ')', '[': ']', '{': '}' }

class ScanError extends Error {}

function isIdentChar(c) {
  return /[A-Za-z0-9_$\u0080-\uffff]/.test(c)
}

function skipLineComment(src, i) {
  const end = src.indexOf('\n', i)
  return end === -1 ? src.length : end
}

function skipBlockComment(src, i) {
  const end = src.indexOf('*/', i + 2)
  if (end === -1) throw new ScanError(`unterminated comment at offset ${i}`)
  return end + 2
}

function skipString(src, i) {
  const quote = src[i]
  for (let j = i + 1; j < src.length; j++) {
    const c = src[j]
    if (c === '\\') j++
    else if (c === quote) return j + 1
    else if (c === '\n') break
  }
  throw new ScanError(`unterminated string at offset ${i}`)
}

function skipTemplate(src, i) {
  for (let j = i + 1; j < src.length; j++) {
    const c = src[j]
    if (c === '\\') j++
    else if (c === '`') return j + 1
    else if (c === '$' && src[j + 1] === '{') j = scanTo(src, j + 2, '}')
  }
  throw new ScanError(`unterminated template literal at offset ${i}`)
}

function skipRegex(src, i) {
  let inClass = false
  for (let j = i + 1; j < src.length; j++) {
    const c = src[j]
    if (c === '\\') j++
    else if (c === '\n') break
    else if (inClass) {
      if (c === ']') inClass = false
    } else if (c === '[') inClass = true
    else if (c === '/') {
      let k = j + 1
      while (k < src.length && /[a-z]/i.test(src[k])) k++
      return k
    }
  }
  throw new ScanError(`unterminated regular expression at offset ${i}`)
}

/**
 * Scans code from `start` up to the `closer` that balances an opening bracket just
 * before `start`; returns that closer's index. `onTopLevel(char, index)` sees every
 * other character at depth 0 outside literals and comments (e.g. commas).
 */
function scanTo(src, start, closer, onTopLevel) {
  const stack = []
  let prev = '(' // the last significant token; '(' allows a regex at the start
  let i = start
  while (i < src.length) {
    const next = skipTrivia(src, i)
    if (next !== i) {
      i = next
      continue
    }
    const c = src[i]
    if (c === '"' || c === "'") {
      i = skipString(src, i)
      prev = 'literal'
      continue
    }
    if (c === '`') {
      i = skipTemplate(src, i)
      prev = 'literal'
      continue
    }
    if (c === '/') {
      const regexAllowed = prev.length === 1 ? !/[)\]A-Za-z0-9_$]/.test(prev) : REGEX_AFTER_WORDS.has(prev)
      if (regexAllowed) {
        i = skipRegex(src, i)
        prev = 'literal'
        continue
      }
      if (stack.length === 0 && onTopLevel) onTopLevel(c, i)
      prev = c
      i++
      continue
    }
    if (isIdentChar(c)) {
      let j = i + 1
      while (j < src.length && isIdentChar(src[j])) j++
      prev = src.slice(i, j)
      // `x.return /re/` never happens in practice; a word followed by a slash that is
      // a property name is treated as a keyword only for the words above.
      if (stack.length === 0 && onTopLevel) onTopLevel(prev, i)
      i = j
      continue
    }
    if (CLOSER[c]) {
      stack.push(CLOSER[c])
      prev = c
      i++
      continue
    }
    if (c === ')' || c === ']' || c === '}') {
      if (stack.length === 0) {
        if (c === closer) return i
        throw new ScanError(`unbalanced '${c}' at offset ${i}`)
      }
      const expected = stack.pop()
      if (c !== expected) throw new ScanError(`expected '${expected}' but found '${c}' at offset ${i}`)
      prev = c
      i++
      continue
    }
    if (stack.length === 0 && onTopLevel) onTopLevel(c, i)
    prev = c
    i++
  }
  throw new ScanError(`no closing '${closer}' after offset ${start}`)
}

/** Skips whitespace and comments from `i`; returns the next significant index. */
function skipTrivia(src, i) {
  while (i < src.length) {
    const c = src[i]
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') i++
    else if (c === '/' && src[i + 1] === '/') i = skipLineComment(src, i)
    else if (c === '/' && src[i + 1] === '*') i = skipBlockComment(src, i)
    else break
  }
  return i
}

/**
 * Locates a top-level `function NAME(…) { … }` declaration that starts at `start`
 * (the index of the `function` keyword). Returns the offsets of its parameter list
 * and of its end (one past the closing brace), and the parameter names.
 */
function locateFunction(src, start, name) {
  const head = `function ${name}(`
  if (src.slice(start, start + head.length) !== head) throw new ScanError(`no '${head}' at offset ${start}`)
  const paramsStart = start + head.length
  const commas = []
  const paramsEnd = scanTo(src, paramsStart, ')', (token, index) => {
    if (token === ',') commas.push(index)
  })
  const bodyOpen = skipTrivia(src, paramsEnd + 1)
  if (src[bodyOpen] !== '{') throw new ScanError(`expected '{' after the parameters of ${name} at offset ${bodyOpen}`)
  const bodyClose = scanTo(src, bodyOpen + 1, '}')
  const bounds = [paramsStart, ...commas.map((i) => i + 1)]
  const pieces = bounds.map((from, k) => src.slice(from, k < commas.length ? commas[k] : paramsEnd))
  if (pieces.length > 0 && pieces[pieces.length - 1].trim() === '') pieces.pop() // trailing comma
  const params = pieces.map((piece) => {
    const match = /^\s*([A-Za-z_$][\w$]*)\s*(?:=[\s\S]*)?$/.exec(piece)
    return match ? match[1] : null
  })
  return {
    start,
    end: bodyClose + 1,
    paramsText: src.slice(paramsStart, paramsEnd),
    params,
    body: src.slice(bodyOpen + 1, bodyClose),
  }
}

module.exports = { ScanError, scanTo, skipTrivia, locateFunction }
