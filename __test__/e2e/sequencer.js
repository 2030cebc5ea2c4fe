'use strict'
// The end-to-end spec files in an order that lets jest's workers finish together: the slowest
// first (their times on a 2-core machine: install about 600 s, simulation 515, scenarios 390,
// faults 330, dispatch kinds 190; every other file under 50). jest's own order comes from the
// times of an earlier run in its cache, which a clean clone (CI's) does not have: it then goes
// by file size, and the install spec, started after others, ran on alone for minutes.
const path = require('node:path')
const Sequencer = require('@jest/test-sequencer').default

const SLOWEST_FIRST = [
  'plugin.install.test.js',
  'plugin.simulation.test.js',
  'plugin.scenarios.test.js',
  'plugin.faults.test.js',
  'plugin.dispatch-kinds.test.js',
]

const rank = (test) => {
  const index = SLOWEST_FIRST.indexOf(path.basename(test.path))
  return index === -1 ? SLOWEST_FIRST.length : index
}

class SlowestFirstSequencer extends Sequencer {
  async sort(tests) {
    // Array.prototype.sort is stable: the rest keep jest's order.
    return [...(await super.sort(tests))].sort((a, b) => rank(a) - rank(b))
  }
}

module.exports = SlowestFirstSequencer
