#!/usr/bin/env bash
# Prepares the real OpenClaw 2026.7.2-beta.4 dist as a test oracle, in a cache folder:
#   <cache>/node22/bin/node            Node 22 (the dist needs >= 22.22.3; it does not load on 20)
#   <cache>/node24/bin/node            Node 24 (the jest suite also runs on it)
#   <cache>/openclaw-2026.7/node_modules/openclaw
#   <cache>/openclaw-2026.9/node_modules/openclaw   a second release (runs on Node 24), for the
#                                                  plugin's end-to-end specs
# Only the npm registry is used. Idempotent: finished steps are skipped.
#
# Usage: scripts/setup-oracle.sh            (cache: $ORACLE_DIR, else dev/cache-dir.sh's
#                                            oracle folder, outside the checkout)
# Prints, on stdout, the lines  NODE22=<path>, NODE24=<path>, OPENCLAW_DIR=<path> and
# OPENCLAW_NEXT_DIR=<path> (the second release).
set -euo pipefail

# Node 22 and 24: pinned (version and sha256) in dev/pins.sh, fetched by fetch_npm (dev/pinned-downloads.sh).
OPENCLAW_VERSION="2026.7.2-beta.4"
# The newest 2026.x the plugin is tested on as well (its engines want Node >= 24.16).
OPENCLAW_NEXT_VERSION="2026.9.6"

script_dir="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
repo_dir="$(cd -- "$script_dir/.." && pwd)"
# shellcheck source=../dev/cache-dir.sh
source "$script_dir/../dev/cache-dir.sh"
cache_dir="$(occn_cache_dir oracle)"
mkdir -p "$cache_dir"
cache_dir="$(cd -- "$cache_dir" && pwd)"

node_dir="$cache_dir/node22"
node_bin="$node_dir/bin/node"
node24_dir="$cache_dir/node24"
oc_root="$cache_dir/openclaw-2026.7"
oc_pkg="$oc_root/node_modules/openclaw"
# A scratch HOME and npm cache: the package's postinstall (skipped anyway) writes under
# ~/.openclaw, and nothing here should touch the user's own npm settings or cache.
scratch_home="$cache_dir/home"
mkdir -p "$scratch_home"

# The pinned fetchers (fetch_npm checks each tarball's sha256; downloads cached under
# $OCCN_CROSS_CACHE/dl) and npm_scratch. Sourced before `log` so that this script's wins.
# shellcheck source=../dev/pinned-downloads.sh
source "$script_dir/../dev/pinned-downloads.sh"

log() { printf 'setup-oracle: %s\n' "$*" >&2; }

command -v npm >/dev/null || { log "npm not found on PATH"; exit 1; }

# --- Node 22 and 24 --------------------------------------------------------------------
# fetch_node PIN_VAR DIR: the node binary of the pinned npm package (e.g. NODE22_X64_NPM, its
# tarball checked by fetch_npm) into DIR/bin. DIR/.from-<sha> records which checked tarball
# DIR/bin/node came from.
fetch_node() {
  local pin_var="$1[@]" dir="$2"
  local pin=("${!pin_var}")
  local version="${pin[0]##*@}" bin="$dir/bin/node" stamp="$dir/.from-${pin[1]:0:16}" tgz tmp
  tgz="$(fetch_npm "${pin[@]}")"
  if [[ -f "$stamp" && -x "$bin" ]]; then
    log "node v$version already present"
    return
  fi
  tmp="$(mktemp -d "$cache_dir/.node-tmp.XXXXXX")"
  tar xzf "$tgz" -C "$tmp" --strip-components=1 package/bin/node
  [[ "$("$tmp/bin/node" --version)" == "v$version" ]] || { log "node $version does not run"; exit 1; }
  mkdir -p "$dir/bin"
  # A binary from an earlier (unchecked) setup stays if it is this very one; else it is
  # replaced by a rename, so that a test running from the shared cache never finds none.
  cmp -s "$tmp/bin/node" "$bin" || mv -f "$tmp/bin/node" "$bin"
  rm -rf "$tmp"
  touch "$stamp"
}
fetch_node NODE22_X64_NPM "$node_dir"
fetch_node NODE24_X64_NPM "$node24_dir"

# --- openclaw ------------------------------------------------------------------------
installed_version() { package_version "$node_bin" "$oc_pkg"; }

if [[ "$(installed_version)" == "$OPENCLAW_VERSION" ]] && [[ -d "$oc_pkg/dist" ]]; then
  log "openclaw@$OPENCLAW_VERSION already installed"
else
  log "installing openclaw@$OPENCLAW_VERSION (~400 MB)"
  mkdir -p "$oc_root"
  # Two of its pinned dependencies were never published: the overrides point them at the
  # nearest published versions (see the notes on OpenClaw 2026.7).
  cat >"$oc_root/package.json" <<JSON
{
  "name": "openclaw-oracle",
  "private": true,
  "description": "The real OpenClaw dist, installed by scripts/setup-oracle.sh as a test oracle",
  "overrides": {
    "@openclaw/ai@2026.7.2-beta.4": "2026.7.2-beta.5",
    "@openclaw/fs-safe@0.4.4": "0.4.7"
  }
}
JSON
  rm -f "$oc_root/package-lock.json"
  # The package's engines want Node >= 22.22.3: run the system npm on the Node 22 binary.
  (cd "$oc_root" && npm_scratch --node "$node_bin" install \
      "openclaw@$OPENCLAW_VERSION" --save-exact --ignore-scripts) >&2
  [[ "$(installed_version)" == "$OPENCLAW_VERSION" ]] || { log "openclaw install did not produce $OPENCLAW_VERSION"; exit 1; }
fi

# --- the second release --------------------------------------------------------------
next_root="$cache_dir/openclaw-2026.9"
next_pkg="$next_root/node_modules/openclaw"
if [[ "$(package_version "$node_bin" "$next_pkg")" == "$OPENCLAW_NEXT_VERSION" ]] && [[ -d "$next_pkg/dist" ]]; then
  log "openclaw@$OPENCLAW_NEXT_VERSION already installed"
else
  log "installing openclaw@$OPENCLAW_NEXT_VERSION (~450 MB)"
  mkdir -p "$next_root"
  cat >"$next_root/package.json" <<JSON
{
  "name": "openclaw-oracle-next",
  "private": true,
  "description": "A second OpenClaw release for the plugin's end-to-end specs, installed by scripts/setup-oracle.sh"
}
JSON
  rm -f "$next_root/package-lock.json"
  (cd "$next_root" && npm_scratch --node "$node24_dir/bin/node" install \
      "openclaw@$OPENCLAW_NEXT_VERSION" --save-exact --ignore-scripts) >&2
  [[ "$(package_version "$node_bin" "$next_pkg")" == "$OPENCLAW_NEXT_VERSION" ]] || { log "openclaw install did not produce $OPENCLAW_NEXT_VERSION"; exit 1; }
fi

chunk="$(grep -l -F 'function capCompactionSummaryPreservingSuffix(' "$oc_pkg"/dist/*.js 2>/dev/null | head -n 1 || true)"
[[ -n "$chunk" ]] || { log "no dist chunk holds capCompactionSummaryPreservingSuffix"; exit 1; }

log "ready"
printf 'NODE22=%s\n' "$node_bin"
printf 'NODE24=%s\n' "$node24_dir/bin/node"
printf 'OPENCLAW_DIR=%s\n' "$oc_pkg"
printf 'OPENCLAW_NEXT_DIR=%s\n' "$next_pkg"
