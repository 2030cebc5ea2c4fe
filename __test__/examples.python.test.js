'use strict'
// examples/persistent_chat_memory.py renders continuity-summary.txt through
// `openclaw-context summary`: run it with python3 as the memory script would.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const native = require('../index.js')

const root = path.resolve(__dirname, '..')
const script = path.join(root, 'examples', 'persistent_chat_memory.py')
const python = spawnSync('python3', ['--version']).status === 0 ? 'python3' : null
const { testUnless } = require('./fixtures/platform.js')
// Where no python3 runs (Windows' Python is python.exe or py.exe; Wine here has none).
const maybe = testUnless(!python, 'without python3 on PATH')

describe('examples/persistent_chat_memory.py', () => {
  let dir
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'occn-py-'))
  })
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

  maybe('writes the same summary the addon renders, with decisions it remembered', () => {
    const state = path.join(dir, 'memory-state.json')
    const log = path.join(dir, 'perpetual-log.jsonl')
    const out = path.join(dir, 'continuity-summary.txt')
    fs.writeFileSync(
      state,
      JSON.stringify({
        guardrails: ['Never drop tables without asking'],
        timers: [{ name: 'nightly backup', status: 'pending', due: '2026-05-15T03:00:00Z' }],
      }),
    )
    fs.writeFileSync(
      log,
      `${[
        { ts: '2026-05-15T09:00:00Z', role: 'user', text: 'Set up the database', session: 'ses_1', id: 'e1' },
        {
          ts: '2026-05-15T09:00:30Z',
          role: 'assistant',
          text: 'It failed.',
          session: 'ses_1',
          status: 'ACP_TURN_FAILED',
          id: 'e2',
        },
      ]
        .map((e) => JSON.stringify(e))
        .join('\n')}\n`,
    )
    const result = spawnSync(
      python,
      [
        script,
        '--state',
        state,
        '--log',
        log,
        '--out',
        out,
        '--current-session',
        'ses_2',
        '--now',
        '2026-05-15T10:00:00Z',
        '--remember',
        'Use   Postgres\n16',
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, OPENCLAW_CONTEXT_BIN: path.join(root, 'cli', 'openclaw-context.js') },
      },
    )
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    const written = fs.readFileSync(out, 'utf8')
    const expected = native.rebuildPersistentChatContinuitySummary({
      statePath: state,
      logPath: log,
      currentSession: 'ses_2',
      now: '2026-05-15T10:00:00Z',
    })
    expect(written.trimEnd()).toBe(expected)
    expect(written).toContain('- Use Postgres 16')
    expect(written).toContain('- Latest user request: Set up the database')
    expect(written).not.toContain('ACP_TURN_FAILED')
    expect(written).toMatch(/nightly backup: overdue/)
    expect(JSON.parse(fs.readFileSync(state, 'utf8')).decisions).toEqual(['Use   Postgres\n16'])
  })

  maybe('reports a failing command instead of writing a bad file', () => {
    const out = path.join(dir, 'continuity-summary.txt')
    fs.mkdirSync(path.join(dir, 'state-is-a-dir'))
    const result = spawnSync(
      python,
      [script, '--state', path.join(dir, 'state-is-a-dir'), '--log', path.join(dir, 'none.jsonl'), '--out', out],
      {
        encoding: 'utf8',
        env: { ...process.env, OPENCLAW_CONTEXT_BIN: path.join(root, 'cli', 'openclaw-context.js') },
      },
    )
    expect(result.status).not.toBe(0)
    expect(result.stderr).toMatch(/openclaw-context summary failed/)
    expect(fs.existsSync(out)).toBe(false)
  })
})
