// Runs a release's own capCompactionSummary (the plain cap) on a list of inputs, from its
// dist-only tarball: the chunk that defines it imports half the dist, so the function is
// taken out of the chunk's text and evaluated with the chunk's own constants and the
// helpers the chunk imports (the UTF-16 module, which imports nothing). Its text is read at
// run time from the release; none of it is in this repository.
//
//   node release-plain-cap.mjs OPENCLAW_DIR INPUTS_JSON   (INPUTS_JSON: [[summary, maxChars?], …])
//
// Prints one JSON line: { chunk, outputs: [string, …] }.
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const require = createRequire(import.meta.url)
const { locateFunction } = require('../../lib/js-scan.js')
const { findChunk } = require('../../lib/dist-scan.js')

const [openclawDir, inputsFile] = process.argv.slice(2)
const MARKER = '\nfunction capCompactionSummary('
const dist = path.join(openclawDir, 'dist')
const chunk = findChunk(openclawDir, MARKER)
if (!chunk) throw new Error(`no chunk of ${dist} defines capCompactionSummary`)
const chunkName = path.basename(chunk)
const text = fs.readFileSync(chunk, 'utf8')
const fn = locateFunction(text, text.indexOf(MARKER) + 1, 'capCompactionSummary')
const source = text.slice(fn.start, fn.end)

// The chunk's top-level constants the function names (`const NAME = <literal>;`).
const constants = {}
for (const name of ['MAX_COMPACTION_SUMMARY_CHARS', 'SUMMARY_TRUNCATED_MARKER']) {
  const match = new RegExp(`\\nconst ${name} = ([^\\n]+);\\n`).exec(text)
  if (match) constants[name] = JSON.parse(match[1]) // 16e3 and a double-quoted string are JSON too
}
// The helpers it calls, from the modules the chunk imports them from.
const helpers = {}
const calls = (name) => new RegExp(`\\b${name}\\(`).test(source)
for (const match of text.matchAll(/^import \{([^}]*)\} from "(\.\/[^"]+)";$/gm)) {
  for (const spec of match[1].split(',')) {
    const [exported, local] = spec.trim().split(/\s+as\s+/)
    if (!['truncateUtf16Safe', 'sliceUtf16Safe'].includes(local ?? exported) || !calls(local ?? exported)) continue
    const module = await import(pathToFileURL(path.join(dist, match[2])).href)
    helpers[local ?? exported] = module[exported]
  }
}
const names = [...Object.keys(constants), ...Object.keys(helpers)]
const capCompactionSummary = new Function(...names, `${source}\nreturn capCompactionSummary;`)(
  ...names.map((name) => (name in constants ? constants[name] : helpers[name])),
)

const inputs = JSON.parse(fs.readFileSync(inputsFile, 'utf8'))
const outputs = inputs.map(([summary, maxChars]) =>
  maxChars === undefined || maxChars === null ? capCompactionSummary(summary) : capCompactionSummary(summary, maxChars),
)
console.log(JSON.stringify({ chunk: chunkName, helpers: Object.keys(helpers), constants, outputs }))
