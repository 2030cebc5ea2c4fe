// The end-to-end specs: they drive the real OpenClaw under Node 22 in child
// processes (see scripts/test.js, which installs it first).
module.exports = {
  roots: ['<rootDir>/__test__/e2e'],
  testEnvironment: 'node',
  testTimeout: 600000,
}
