// The end-to-end specs: they drive the real OpenClaw under Node 22 in child
// processes (see scripts/test.js, which installs it first). Each spec file works in
// scratch folders of its own, and a spec spends about 40% of its time waiting on its
// gateway's child processes: files run side by side as jest.config.js runs them.
const { maxWorkers } = require('./jest.config.js')

module.exports = {
  roots: ['<rootDir>/__test__/e2e'],
  testEnvironment: 'node',
  testTimeout: 600000,
  maxWorkers,
  testSequencer: '<rootDir>/__test__/e2e/sequencer.js',
}
