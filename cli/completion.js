'use strict'
// `openclaw-context completion bash|zsh`: a completion script generated from the command
// table (cli/commands/index.js), the same table the help is printed from, so the two never
// disagree: the commands, each command's flags, the values of a flag that takes a fixed few,
// and files where a command takes paths.
const { COMMANDS } = require('./commands')
const { GLOBAL_FLAGS } = require('./help')
const { UsageError } = require('../lib/errors')
const { parseCommandArgs } = require('../lib/args')

const SHELLS = ['bash', 'zsh']
const flagWords = (flags) => flags.flatMap((flag) => [...(flag.short ? [`-${flag.short}`] : []), `--${flag.name}`])
const commandFlags = (command) => [...flagWords(command.flags), '-h', '--help']
/** Words after a command that are not flags: the command names for `help`, or fixed words. */
const operandWords = (name, command) =>
  name === 'completion' ? command.operands : Array.isArray(command.operands) ? command.operands : []

function bash() {
  const names = [...Object.keys(COMMANDS), 'help']
  const cases = Object.entries(COMMANDS).map(
    ([name, command]) =>
      `    ${name}) flags='${commandFlags(command).join(' ')}'; words='${operandWords(name, command).join(' ')}' ;;`,
  )
  const values = Object.values(COMMANDS)
    .flatMap((command) => command.flags.filter((flag) => flag.choices))
    .map((flag) => `    --${flag.name}) COMPREPLY=($(compgen -W '${flag.choices.join(' ')}' -- "$cur")); return ;;`)
  const uniqueValues = [...new Set(values)]
  return `# bash completion for openclaw-context (openclaw-context completion bash)
_openclaw_context() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} flags='' words=''
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W '${names.join(' ')} ${flagWords(GLOBAL_FLAGS).join(' ')}' -- "$cur"))
    return
  fi
  case $prev in
${uniqueValues.join('\n')}
  esac
  case \${COMP_WORDS[1]} in
${cases.join('\n')}
    help) words='${Object.keys(COMMANDS).join(' ')}' ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
  elif [ -n "$words" ]; then
    COMPREPLY=($(compgen -W "$words" -- "$cur"))
  fi
}
complete -o default -F _openclaw_context openclaw-context
`
}

/** A text inside a single-quoted zsh word. */
const zshQuoted = (text) => text.replace(/'/g, "'\\''")
/** A text inside an `_arguments` spec's [description]: brackets escaped for _arguments. */
const zshText = (text) => zshQuoted(text.replace(/[[\]\\]/g, '\\$&'))

/** What a flag's value completes to: its choices, a path, or nothing (a key, a time, a number). */
function zshAction(flag) {
  if (flag.choices) return `(${flag.choices.join(' ')})`
  if (flag.value === 'DIR') return '_files -/'
  return ['FILE', 'PATH'].includes(flag.value) ? '_files' : ' '
}

/** One flag as an `_arguments` spec: `'--out[help]:FILE:_files'`, `'(-q --quiet)'{-q,--quiet}'[help]'`. */
function zshFlagSpec(flag) {
  const described = `[${zshText(flag.help)}]${flag.value ? `:${flag.value}:${zshAction(flag)}` : ''}'`
  if (flag.short) return `'(-${flag.short} --${flag.name})'{-${flag.short},--${flag.name}}'${described}`
  return `'${flag.multiple ? '*' : ''}--${flag.name}${described}`
}

function zsh() {
  const commands = Object.entries(COMMANDS).map(([name, command]) => `'${name}:${zshQuoted(command.summary)}'`)
  const cases = Object.entries(COMMANDS).map(([name, command]) => {
    const operands = operandWords(name, command)
    const rest = operands.length ? `'*:word:(${operands.join(' ')})'` : "'*:file:_files'"
    const specs = [...command.flags.map(zshFlagSpec), "'(-h --help)'{-h,--help}'[this help]'", rest]
    return `    ${name}) _arguments -s ${specs.join(' ')} ;;`
  })
  return `#compdef openclaw-context
# zsh completion for openclaw-context (openclaw-context completion zsh)
_openclaw_context() {
  local -a commands
  commands=(${commands.join(' ')} 'help:a command'\\''s help')
  if (( CURRENT == 2 )); then
    _describe -t commands 'openclaw-context command' commands
    return
  fi
  local command=$words[2]
  shift words
  (( CURRENT-- ))
  case $command in
${cases.join('\n')}
    help) _arguments '1:command:(${Object.keys(COMMANDS).join(' ')})' ;;
  esac
}
if [ "$funcstack[1]" = _openclaw_context ]; then _openclaw_context "$@"; else compdef _openclaw_context openclaw-context; fi
`
}

function runCompletion(argv, out) {
  const { optionsOf } = require('./commands')
  const { positionals } = parseCommandArgs(argv, optionsOf('completion'), { allowPositionals: true })
  if (positionals.length !== 1) throw new UsageError('completion needs one shell: bash or zsh')
  const shell = positionals[0]
  if (!SHELLS.includes(shell)) throw new UsageError(`no completion for ${JSON.stringify(shell)}: bash or zsh`)
  out((shell === 'bash' ? bash() : zsh()).trimEnd())
  return 0
}

module.exports = { runCompletion, bash, zsh }
