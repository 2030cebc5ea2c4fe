// The jest specs against the built addon (`npm test`; the end-to-end specs have their own
// config, jest.e2e.config.js). Each spec file works in scratch folders of its own, so files
// run side by side: at least two at once, since jest's default (one worker less than the
// cores) is a single worker on a 2-core machine.
const os = require('node:os')

module.exports = {
  roots: ['<rootDir>/__test__'],
  testEnvironment: 'node',
  testPathIgnorePatterns: ['/fixtures/', '/e2e/'],
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
}
