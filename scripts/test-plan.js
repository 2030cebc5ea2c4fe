'use strict'
// What `npm test` and `npm run test:e2e` run on a given host: one list, so that
// scripts/test.js and its spec (__test__/package.test-plan.test.js) agree. A host is
// { platform, arch, libc } as Node reports them (libc: 'glibc' or 'musl' on Linux).
//
//   npm test           the contributor loop: the host build, its glibc check where it applies,
//                      the Rust tests and the jest specs on this Node. No download beyond
//                      npm install's.
//   npm run test:e2e   the real-OpenClaw suites: Node 22 and 24 and the OpenClaw releases
//                      (cached outside the checkout), the jest specs again on each Node, the
//                      end-to-end specs. Linux x64 only: the pinned Nodes and OpenClaw's
//                      installs are those of that platform.

/** The host Node runs on; `OCCN_TEST_HOST=<platform>-<arch>[-<libc>]` pretends another. */
function currentHost(env = process.env) {
  if (env.OCCN_TEST_HOST) {
    const [platform, arch, libc] = env.OCCN_TEST_HOST.split('-')
    return { platform, arch, libc: platform === 'linux' ? libc || 'glibc' : undefined }
  }
  const libc =
    process.platform === 'linux'
      ? process.report.getReport().header.glibcVersionRuntime
        ? 'glibc'
        : 'musl'
      : undefined
  return { platform: process.platform, arch: process.arch, libc }
}

/** napi-rs's platform name of the host's binary (`openclaw-context-native.<name>.node`). */
function binaryPlatform({ platform, arch, libc }) {
  if (platform === 'linux') return `linux-${arch}-${libc === 'musl' ? 'musl' : 'gnu'}`
  if (platform === 'win32') return `win32-${arch}-msvc`
  return `${platform}-${arch}`
}

/**
 * The steps, in order: { name, run } where run is a command line (argv), or { name, skip } with
 * the reason a step is left out on this host.
 */
function plan(host, { e2e = false } = {}) {
  const binary = `openclaw-context-native.${binaryPlatform(host)}.node`
  const linuxX64Gnu = host.platform === 'linux' && host.arch === 'x64' && host.libc === 'glibc'
  if (e2e) {
    if (!(host.platform === 'linux' && host.arch === 'x64')) {
      return [{ name: 'e2e', skip: `the real-OpenClaw suites run on Linux x64 only (this host: ${describe(host)})` }]
    }
    return [
      { name: 'build', run: ['node', 'scripts/build.js'] },
      { name: 'oracle', run: ['bash', 'scripts/setup-oracle.sh'], vars: true },
      { name: 'releases', run: ['node', 'scripts/setup-releases.js'], vars: true },
      { name: 'jest on Node 22', run: ['$NODE22', 'node_modules/jest/bin/jest.js', '--ci'], jest: true },
      { name: 'jest on Node 24', run: ['$NODE24', 'node_modules/jest/bin/jest.js', '--ci'], jest: true },
      {
        name: 'end-to-end specs',
        run: ['node', 'node_modules/jest/bin/jest.js', '--ci', '-c', 'jest.e2e.config.js'],
        jest: true,
      },
    ]
  }
  return [
    { name: 'build', run: ['node', 'scripts/build.js'] },
    linuxX64Gnu
      ? { name: 'glibc check', run: ['bash', 'scripts/check-glibc.sh', binary, '2.17'] }
      : {
          name: 'glibc check',
          skip: `the glibc 2.17 check applies to the linux-x64-gnu build only (this host: ${describe(host)})`,
        },
    { name: 'cargo tests', run: ['cargo', 'test', '--workspace', '--quiet'] },
    { name: 'jest specs', run: ['node', 'node_modules/jest/bin/jest.js', '--ci'], jest: true },
  ]
}

const describe = ({ platform, arch, libc }) => [platform, arch, libc].filter(Boolean).join(' ')

module.exports = { currentHost, binaryPlatform, plan }
