'use strict'
// The bench's command line (see bench.js for what each flag does).
const { parseArgs } = require('node:util')

/**
 * Parses `argv` against the section names (bench.js's SECTIONS, the one list); throws an Error
 * with a usage message on a bad flag.
 */
function parseBenchArgs(argv, sections) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      'no-setup': { type: 'boolean', default: false },
      'no-reexec': { type: 'boolean', default: false },
      'no-write': { type: 'boolean', default: false },
      baseline: { type: 'string' },
    },
  })
  const only = values.only === undefined ? null : new Set(values.only.split(','))
  for (const name of only ?? []) {
    if (!sections.includes(name)) throw new Error(`--only: unknown section ${name} (sections: ${sections.join(', ')})`)
  }
  return {
    quick: values.quick,
    only,
    setup: !values['no-setup'],
    reexec: !values['no-reexec'],
    write: !values['no-write'],
    baseline: values.baseline ?? null,
    runs: (section) => !only || only.has(section),
  }
}

/** The number after `--name=` on the command line (the standalone benchmarks' flags), or `fallback`. */
function numberArg(name, fallback, argv = process.argv) {
  const hit = argv.find((a) => a.startsWith(`--${name}=`))
  return hit ? Number(hit.split('=')[1]) : fallback
}

module.exports = { parseBenchArgs, numberArg }
