# npm with a scratch HOME and npm cache, so that nothing touches the user's ~/.openclaw, npm
# settings or cache: the one way the scripts run npm.
#
# Sourced (setup-bench.sh, cross/lib.sh and through it setup-oracle.sh):
#   npm_scratch [--node NODE] NPM_ARGS…  HOME=$scratch_home (set by the caller), npm cache
#                                         ${scratch_cache:-$scratch_home/.npm}; --node: npm runs
#                                         on that node binary (for engines that want a newer one)
#   package_version NODE PACKAGE_DIR     the version of an installed package (nothing if none)
# Run (setup-releases.js):
#   bash dev/npm-scratch.sh HOME CACHE [--node NODE] NPM_ARGS…
#
# npm finds its global npmrc next to the node it runs on: on a Node from a cache it would miss
# the system one (registry, CA file), so it is looked up here, on the caller's Node, and named.
global_npmrc="$(npm config get globalconfig 2>/dev/null || true)"

npm_scratch() {
  local env=(HOME="$scratch_home" npm_config_cache="${scratch_cache:-$scratch_home/.npm}")
  if [[ "${1:-}" == --node ]]; then
    env+=(PATH="$(dirname -- "$2"):$PATH")
    shift 2
  fi
  [[ -n "$global_npmrc" && -f "$global_npmrc" ]] && env+=(npm_config_globalconfig="$global_npmrc")
  env "${env[@]}" npm --no-audit --no-fund --no-update-notifier --loglevel=error "$@"
}

package_version() {
  [[ -f "$2/package.json" ]] || return 0
  "$1" -e 'process.stdout.write(String(require(process.argv[1]).version || ""))' "$2/package.json" 2>/dev/null || true
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  set -euo pipefail
  (($# >= 2)) || { echo "usage: bash dev/npm-scratch.sh HOME CACHE [--node NODE] NPM_ARGS…" >&2; exit 2; }
  scratch_home="$1" scratch_cache="$2"
  shift 2
  npm_scratch "$@"
fi
