'use strict'
// Command-line options through Node's own parser (util.parseArgs, strict), with its
// errors turned into the command's usage errors (exit 2).
const util = require('node:util')
const { UsageError } = require('./errors')
const { nearest } = require('./nearest')

// parseArgs' messages name the option in quotes: "Unknown option '--bogus'".
const optionIn = (message) => (/'(-[^' ]+)/.exec(message) || [])[1]

/** ` (did you mean '--out'?)` when one of `options` is close to `given`. */
function suggestion(given, options) {
  const match = nearest(given, [...Object.keys(options).map((name) => `--${name}`), '--help'])
  return match ? ` (did you mean '${match}'?)` : ''
}

function usageErrorFrom(err, options) {
  const first = err.message.split('\n')[0]
  const option = optionIn(first)
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new UsageError(`unknown option ${option}${suggestion(option ?? '', options)}`)
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (/does not take an argument/.test(first)) return new UsageError(`${option} takes no value`)
      return new UsageError(
        /ambiguous/.test(first)
          ? `${option} needs a value (write ${option}=VALUE for one that starts with -)`
          : `${option} needs a value`,
      )
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new UsageError(`unexpected argument ${/'([^']*)'/.exec(first)?.[1] ?? ''}`.trim())
    default:
      return new UsageError(first)
  }
}

/**
 * `{ positionals, options }` from `argv` by the util.parseArgs `options` config (strict).
 * An option that takes a value may be given once (unless it is `multiple`).
 */
function parseCommandArgs(argv, options, { allowPositionals = false } = {}) {
  let parsed
  try {
    parsed = util.parseArgs({ args: argv, options, strict: true, allowPositionals, tokens: true })
  } catch (err) {
    if (typeof err.code === 'string' && err.code.startsWith('ERR_PARSE_ARGS_')) throw usageErrorFrom(err, options)
    throw err
  }
  const seen = new Set()
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || options[token.name].type !== 'string' || options[token.name].multiple) continue
    if (seen.has(token.name)) throw new UsageError(`--${token.name} given twice`)
    seen.add(token.name)
  }
  return { positionals: parsed.positionals, options: parsed.values }
}

module.exports = { parseCommandArgs }
