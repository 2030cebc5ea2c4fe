#!/usr/bin/env bash
# Prepares the peers `npm run bench` compares against, in cache folders:
#   - Node 22, Node 24 and openclaw@2026.7.2-beta.4 (the buggy original), via scripts/setup-oracle.sh;
#   - openclaw@2026.9.6 (the upstream fix: budgetCompactionSummary), in <bench cache>/openclaw-2026.9,
#     installed with the Node 24 from setup-oracle (its engines want Node >= 24.16).
# Only the npm registry is used. Idempotent: finished steps are skipped.
#
# Usage: scripts/setup-bench.sh      (caches: $BENCH_CACHE_DIR and $ORACLE_DIR, else the bench and
#                                     oracle folders of scripts/cache-dir.sh, outside the checkout)
# Prints, on stdout, the lines NODE22=, NODE24=, OPENCLAW_DIR= (2026.7) and OPENCLAW_2026_9_DIR=.
# A failure of the 2026.9 step is not fatal (stderr says why; OPENCLAW_2026_9_DIR= is left empty):
# the bench then runs without that peer.
set -euo pipefail

OPENCLAW_PEER_VERSION="2026.9.6"

script_dir="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"
repo_dir="$(cd -- "$script_dir/.." && pwd)"
# shellcheck source=cache-dir.sh
source "$script_dir/cache-dir.sh"
cache_dir="$(occn_cache_dir bench)"
mkdir -p "$cache_dir"
cache_dir="$(cd -- "$cache_dir" && pwd)"

log() { printf 'setup-bench: %s\n' "$*" >&2; }

# --- Node 22/24 and openclaw 2026.7 (setup-oracle prints NODE22=, NODE24=, OPENCLAW_DIR=) --------
oracle_out="$(bash "$script_dir/setup-oracle.sh")"
printf '%s\n' "$oracle_out"
node24="$(printf '%s\n' "$oracle_out" | sed -n 's/^NODE24=//p')"
[[ -x "$node24" ]] || { log "setup-oracle gave no Node 24"; printf 'OPENCLAW_2026_9_DIR=\n'; exit 0; }

# --- openclaw 2026.9.6 ---------------------------------------------------------------------------
peer_root="$cache_dir/openclaw-2026.9"
peer_pkg="$peer_root/node_modules/openclaw"
# A scratch HOME and npm cache, as in setup-oracle: nothing touches the user's ~/.openclaw or npm cache.
scratch_home="$cache_dir/home"
mkdir -p "$scratch_home"
# shellcheck source=npm-scratch.sh
source "$script_dir/npm-scratch.sh"

installed_version() { package_version "$node24" "$peer_pkg"; }

if [[ "$(installed_version)" == "$OPENCLAW_PEER_VERSION" ]] && [[ -d "$peer_pkg/dist" ]]; then
  log "openclaw@$OPENCLAW_PEER_VERSION already installed"
else
  log "installing openclaw@$OPENCLAW_PEER_VERSION (~330 packages, ~400 MB) with $("$node24" --version)"
  mkdir -p "$peer_root"
  # Unlike 2026.7.2-beta.4, 2026.9.6's pinned dependencies are all published: no overrides.
  cat >"$peer_root/package.json" <<JSON
{
  "name": "openclaw-bench-peer",
  "private": true,
  "description": "openclaw@$OPENCLAW_PEER_VERSION (upstream's fix), installed by scripts/setup-bench.sh as a benchmark peer"
}
JSON
  rm -f "$peer_root/package-lock.json"
  # --ignore-scripts: the postinstall would write ~/.openclaw state. Exact version: a range
  # could pick a later release with another API.
  if ! (cd "$peer_root" && npm_scratch --node "$node24" install \
      "openclaw@$OPENCLAW_PEER_VERSION" --save-exact --ignore-scripts) >&2; then
    log "npm install openclaw@$OPENCLAW_PEER_VERSION failed: the bench runs without it"
    printf 'OPENCLAW_2026_9_DIR=\n'
    exit 0
  fi
  [[ "$(installed_version)" == "$OPENCLAW_PEER_VERSION" ]] || {
    log "install did not produce openclaw@$OPENCLAW_PEER_VERSION: the bench runs without it"
    printf 'OPENCLAW_2026_9_DIR=\n'
    exit 0
  }
fi

# The function is not exported: its chunk (a content-hashed name) publishes it through the same
# `testing` global as 2026.7 when VITEST is set at import time. Check that it is still there.
# (A definition at a line start. Not `grep -F $'\nfunction …'`: grep splits its pattern at
# newlines, and the empty first line matches every file. -s -q: a glob that matched no file
# is no error once a line is found.)
if ! grep -q -s -E '^function budgetCompactionSummary\(' "$peer_pkg"/dist/*.mjs "$peer_pkg"/dist/*.js; then
  log "no dist chunk of openclaw@$OPENCLAW_PEER_VERSION defines budgetCompactionSummary: the bench runs without it"
  printf 'OPENCLAW_2026_9_DIR=\n'
  exit 0
fi

log "ready"
printf 'OPENCLAW_2026_9_DIR=%s\n' "$peer_pkg"
