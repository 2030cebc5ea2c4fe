'use strict'
// The end-to-end spec files in an order that lets jest's workers finish together: the slowest
// first (their times in a clean-clone .ci/run on a 2-core machine, Dec 7: continuity 946 s,
// install 918, simulation 678, scenarios 486, faults 428, dispatch kinds 249; every other file
// under 60). Continuity, left out of this list, started last and ran on alone for 15 minutes.
// jest's own order comes from the times of an earlier run in its cache, which a clean clone
// (CI's) does not have: it then goes by file size, and the install spec, started after others,
// ran on alone for minutes.
const path = require('node:path')
const Sequencer = require('@jest/test-sequencer').default

const SLOWEST_FIRST = [
  'plugin.continuity.test.js',
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
