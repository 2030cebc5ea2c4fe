'use strict'
// `openclaw-context completion bash|zsh`: the scripts come from the command table, so they
// offer exactly the commands and flags the help lists. The bash script is run in bash as
// bash's completion runs it (COMP_WORDS, COMP_CWORD, the function, COMPREPLY); the zsh script
// is parsed by zsh and registered with compinit where zsh is installed.
const { spawnSync } = require('node:child_process')
const { COMMANDS, optionsOf } = require('../cli/commands')
const { runCli } = require('./fixtures/cli.js')
const { testUnless } = require('./fixtures/platform.js')

const has = (program) => spawnSync(program, ['-c', 'exit 0']).status === 0
const NAMES = Object.keys(COMMANDS)
const quoted = (word) => `'${word.replace(/'/g, "'\\''")}'`
const bashTest = testUnless(!has('bash'), 'no bash on this host')
const zshTest = testUnless(!has('zsh'), 'no zsh on this host')

const bashScript = runCli(['completion', 'bash']).out

/** What bash completes for the words typed (the last one is the word under the cursor). */
function completeInBash(...words) {
  const line = ['openclaw-context', ...words]
  const script = `${bashScript}
COMP_WORDS=(${line.map(quoted).join(' ')}); COMP_CWORD=${line.length - 1}
_openclaw_context
printf '%s\\n' "\${COMPREPLY[@]}"`
  const result = spawnSync('bash', ['--norc', '-c', script], { encoding: 'utf8' })
  expect(result.stderr).toBe('')
  return result.stdout.split('\n').filter(Boolean).sort()
}

test('a shell it does not know, or none, is a usage error', () => {
  expect(runCli(['completion']).status).toBe(2)
  const fish = runCli(['completion', 'fish'])
  expect(fish.status).toBe(2)
  expect(fish.err).toMatch(/^openclaw-context: no completion for "fish": bash or zsh\n/)
})

bashTest('bash: the commands, each command flags as the table has them, the values of --format', () => {
  expect(completeInBash('')).toEqual([...NAMES, 'help', '-h', '--help', '-v', '--version'].sort())
  expect(completeInBash('ex')).toEqual(['export'])
  expect(completeInBash('export', '--f')).toEqual(['--force', '--format'])
  expect(completeInBash('export', '--format', '')).toEqual(['jsonl', 'md'])
  expect(completeInBash('completion', '')).toEqual(['bash', 'zsh'])
  expect(completeInBash('help', 'ba')).toEqual(['backup'])
  for (const name of NAMES) {
    const flags = [...Object.keys(optionsOf(name)).map((flag) => `--${flag}`), '--help'].sort()
    expect([name, completeInBash(name, '--')]).toEqual([name, flags])
  }
})

zshTest('zsh: the script parses, registers with compinit, and names every command and flag', () => {
  const zshScript = runCli(['completion', 'zsh']).out
  const check = spawnSync(
    'zsh',
    [
      '-f',
      '-c',
      'autoload -U compinit; compinit -u -D; eval "$1"; print -- $_comps[openclaw-context]',
      'zsh',
      zshScript,
    ],
    { encoding: 'utf8' },
  )
  expect([check.stderr, check.stdout]).toEqual(['', '_openclaw_context\n'])
  for (const name of NAMES) {
    const line = new RegExp(`^ {4}${name}\\) _arguments .*$`, 'm').exec(zshScript)?.[0] ?? ''
    for (const flag of Object.keys(optionsOf(name)))
      expect([name, line]).toEqual([name, expect.stringContaining(`--${flag}`)])
    expect(zshScript).toContain(`'${name}:`)
  }
})
