'use strict'
// What the differential drivers (chat.js, cap.js) share: their command line (two builds and
// whole-number options, util.parseArgs with strict), loading a build, and capturing a call's
// outcome (its value or the error it threw) so that two builds' outcomes can be compared.
const path = require('node:path')
const { parseArgs } = require('node:util')

/** Prints `message` and the usage line, and exits 2 (bad usage). */
function usageError(usage, message) {
  console.error(`${message ? `${message}\n` : ''}usage: ${usage}`)
  process.exit(2)
}

/**
 * The two builds (`given` as on the command line, `builds` as absolute paths) and the options of `process.argv`: `counts` maps each
 * whole-number option to its default (null: absent unless given), `flags` names the boolean
 * ones. Anything else, or a count that is not a whole number, exits 2 with `usage`.
 */
function parseCommandLine(usage, { counts = {}, flags = [] } = {}) {
  const options = {}
  for (const name of Object.keys(counts)) options[name] = { type: 'string' }
  for (const name of flags) options[name] = { type: 'boolean' }
  let parsed
  try {
    parsed = parseArgs({ allowPositionals: true, strict: true, options })
  } catch (error) {
    usageError(usage, error.message)
  }
  const { positionals, values } = parsed
  if (positionals.length !== 2) usageError(usage, 'give the two builds to compare')
  const out = { given: positionals, builds: positionals.map((file) => path.resolve(file)) }
  for (const [name, fallback] of Object.entries(counts)) {
    if (values[name] === undefined) {
      out[name] = fallback
      continue
    }
    const n = Number(values[name])
    if (!Number.isSafeInteger(n) || n < 0) usageError(usage, `--${name} must be a whole number, not ${values[name]}`)
    out[name] = n
  }
  for (const name of flags) out[name] = values[name] === true
  return out
}

/** The exports of a built `.node` file (process.dlopen, not require: whatever its name ends with). */
function loadBuild(file, usage) {
  const module = { exports: {} }
  try {
    process.dlopen(module, path.resolve(file))
  } catch (error) {
    usageError(usage, `cannot load ${file}: ${error.message}`)
  }
  return module.exports
}

/** `{ value }` of `call()`, or `{ error: describeError(thrown) }`. */
function outcome(call, describeError) {
  try {
    return { value: call() }
  } catch (error) {
    return { error: describeError(error) }
  }
}

/** The same for a call that returns a Promise. */
async function outcomeAsync(call, describeError) {
  try {
    return { value: await call() }
  } catch (error) {
    return { error: describeError(error) }
  }
}

module.exports = { usageError, parseCommandLine, loadBuild, outcome, outcomeAsync }
