'use strict'
// Where every download the dev scripts make is cached: one root outside the checkout, so that a
// fresh clone (CI's) finds what an earlier clone on the same machine fetched. Each part keeps its
// own override. dev/cache-dir.sh is the same rule for the shell scripts.
//   $OCCN_CACHE_DIR, else $XDG_CACHE_HOME/openclaw-context-native, else the platform's user cache
//   folder (~/.cache, ~/Library/Caches, %LOCALAPPDATA%) + /openclaw-context-native.
const os = require('node:os')
const path = require('node:path')

/** Each part's folder name under the root, and the variable that moves it alone. */
const PARTS = {
  oracle: 'ORACLE_DIR',
  releases: 'RELEASES_CACHE_DIR',
  cross: 'OCCN_CROSS_CACHE',
  bench: 'BENCH_CACHE_DIR',
  fuzz: 'OCCN_FUZZ_CACHE',
}

function cacheRoot(env = process.env, platform = process.platform) {
  if (env.OCCN_CACHE_DIR) return path.resolve(env.OCCN_CACHE_DIR)
  if (env.XDG_CACHE_HOME) return path.join(path.resolve(env.XDG_CACHE_HOME), 'openclaw-context-native')
  const home = os.homedir()
  const base =
    platform === 'darwin'
      ? path.join(home, 'Library', 'Caches')
      : platform === 'win32'
        ? env.LOCALAPPDATA || path.join(home, 'AppData', 'Local')
        : path.join(home, '.cache')
  return path.join(base, 'openclaw-context-native')
}

/** The folder of one part (`oracle`, `releases`, `cross`, `bench`, `fuzz`): its own variable, else under the root. */
function cacheDir(part, env = process.env) {
  const variable = PARTS[part]
  if (!variable) throw new Error(`unknown cache part ${part}`)
  return env[variable] ? path.resolve(env[variable]) : path.join(cacheRoot(env), part)
}

module.exports = { cacheRoot, cacheDir, PARTS }

if (require.main === module) process.stdout.write(`${cacheDir(process.argv[2] || 'oracle')}\n`)
