'use strict'
// The keys of each params interface of index.d.ts, in declaration order. index.d.ts is
// generated from the binding's declarations (src/binding/params.rs), so this is the one
// source of the parameter shapes for the specs and the differentials; a spec
// (__test__/binding.param-shapes.test.js) holds the binding's hand readers to it.
const fs = require('node:fs')
const path = require('node:path')

const DTS = fs.readFileSync(path.join(__dirname, '..', 'index.d.ts'), 'utf8')

/** `[key, ...]` of `export interface NAME { ... }`, comments skipped; throws for an unknown name. */
function paramKeys(name) {
  const start = DTS.indexOf(`export interface ${name} {`)
  if (start < 0) throw new Error(`index.d.ts declares no interface ${name}`)
  const body = DTS.slice(start, DTS.indexOf('\n}\n', start))
  const withoutComments = body.replace(/\/\*[\s\S]*?\*\//g, '')
  return [...withoutComments.matchAll(/^ {2}(\w+)\??:/gm)].map((match) => match[1])
}

module.exports = { paramKeys }
