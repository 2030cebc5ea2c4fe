'use strict'
// A turn through the plugin (benchmark/plugin-turn.mjs, in a child process: the plugin is ESM and
// keeps state per process) against the same fake dispatch without it: the wall time and the
// event-loop time the plugin adds per turn, on 1,000 chats and on a 1 GB log (--quick: 200 chats,
// a 256 MB log). The logs live in the bench cache.
const { spawnSync } = require('node:child_process')
const fs = require('node:fs')
const path = require('node:path')

const { mdTable } = require('../lib/format.js')
const { benchCacheDir } = require('../lib/setup.js')

// The script's own targets: the event-loop time and the wall time the plugin adds at the median.
const LOOP_TARGET_MS = 5
const WALL_TARGET_MS = 20

const ROW =
  /^(.+?)\s+wall median ([\d.]+) ms \(\+(-?[\d.]+) ms\), p90 ([\d.]+) ms; event loop ([\d.]+) ms per turn \(\+(-?[\d.]+) ms\)$/

function benchPlugin({ root, rec, quick }) {
  console.log('\n== a turn through the plugin (fake ACP SDK, no OpenClaw): what it adds ==')
  const dir = path.join(benchCacheDir(), 'plugin')
  fs.mkdirSync(dir, { recursive: true })
  const args = [path.join(root, 'benchmark', 'plugin-turn.mjs'), dir, ...(quick ? ['--chats=200', '--log-mb=256'] : [])]
  const run = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
  process.stdout.write(run.stdout)
  if (run.status !== 0) {
    console.log(
      `plugin-turn.mjs failed (${run.status ?? run.signal}): ${(run.stderr || '').trim().split('\n').slice(-3).join(' | ')}`,
    )
    rec.target('plugin turn: event loop added per turn', `< ${LOOP_TARGET_MS} ms`, 'failed', false)
    return null
  }
  const rows = run.stdout
    .split('\n')
    .map((line) => ROW.exec(line.trim()))
    .filter(Boolean)
    .map(([, what, wall, wallAdded, p90, loop, loopAdded]) => ({
      what,
      wall: Number(wall),
      wallAdded: Number(wallAdded),
      p90: Number(p90),
      loop: Number(loop),
      loopAdded: Number(loopAdded),
    }))
  const ms = (value) => `${value.toFixed(2)} ms`
  rec.markdown(
    `### A turn through the plugin\n\n${mdTable(
      rows.map((r) => ({
        case: r.what,
        'wall (median)': ms(r.wall),
        'wall added': ms(r.wallAdded),
        p90: ms(r.p90),
        'event loop per turn': ms(r.loop),
        'event loop added': ms(r.loopAdded),
      })),
    )}`,
  )
  const worst = (key) => Math.max(...rows.map((r) => r[key]))
  rec.target(
    'plugin turn: event loop added per turn (worst case)',
    `< ${LOOP_TARGET_MS} ms`,
    ms(worst('loopAdded')),
    worst('loopAdded') < LOOP_TARGET_MS,
  )
  rec.target(
    'plugin turn: wall time added at the median (worst case)',
    `< ${WALL_TARGET_MS} ms`,
    ms(worst('wallAdded')),
    worst('wallAdded') < WALL_TARGET_MS,
  )
  return rows
}

module.exports = { benchPlugin }
