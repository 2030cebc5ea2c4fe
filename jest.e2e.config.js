// The end-to-end specs: they drive the real OpenClaw under Node 22 in child
// processes (see scripts/test.js, which installs it first). Each spec file works in
// scratch folders of its own, and a spec spends about 40% of its time waiting on its
// gateway's child processes: two files at once (jest's default is one on a 2-core
// machine) keep both cores busy.
const os = require('node:os')

module.exports = {
  roots: ['<rootDir>/__test__/e2e'],
  testEnvironment: 'node',
  testTimeout: 600000,
  maxWorkers: Math.max(2, os.availableParallelism() - 1),
}
