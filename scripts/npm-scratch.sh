# Sourced by setup-oracle.sh and setup-bench.sh: `npm_scratch ARGS…` runs npm
# with a scratch HOME and npm cache ($scratch_home, set by the caller), so
# nothing touches the user's ~/.openclaw or npm cache; `package_version NODE
# PACKAGE_DIR` prints the version of an installed package (nothing if none).
#
# npm finds its global npmrc next to the running node: under a Node from the
# cache it would miss the system one (registry, CA file), so name it explicitly.
global_npmrc="$(npm config get globalconfig 2>/dev/null || true)"

npm_scratch() {
  local env=(HOME="$scratch_home" npm_config_cache="$scratch_home/.npm")
  [[ -n "$global_npmrc" && -f "$global_npmrc" ]] && env+=(npm_config_globalconfig="$global_npmrc")
  env "${env[@]}" npm --no-audit --no-fund --no-update-notifier --loglevel=error "$@"
}

package_version() {
  [[ -f "$2/package.json" ]] || return 0
  "$1" -e 'process.stdout.write(String(require(process.argv[1]).version || ""))' "$2/package.json" 2>/dev/null || true
}
