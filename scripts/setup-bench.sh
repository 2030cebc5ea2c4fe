#!/usr/bin/env bash
# Prepares the peers `npm run bench` compares against, in cache folders:
#   - Node 22, Node 24 and openclaw@2026.7.2-beta.4 (the buggy original), via scripts/setup-oracle.sh;
#   - openclaw@2026.9.6 (the upstream fix: budgetCompactionSummary): the oracle's second release,
#     which setup-oracle.sh installs (once, for the bench and the plugin's specs alike).
# Only the npm registry is used. Idempotent: finished steps are skipped.
#
# Usage: scripts/setup-bench.sh      (cache: $ORACLE_DIR, else dev/cache-dir.sh's oracle
#                                     folder, outside the checkout)
# Prints, on stdout, the lines NODE22=, NODE24=, OPENCLAW_DIR= (2026.7) and OPENCLAW_2026_9_DIR=.
# A failure of the 2026.9 step is not fatal (stderr says why; OPENCLAW_2026_9_DIR= is left empty):
# the bench then runs without that peer.
set -euo pipefail

script_dir="$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd)"

log() { printf 'setup-bench: %s\n' "$*" >&2; }

# --- Node 22/24 and openclaw 2026.7 (setup-oracle prints NODE22=, NODE24=, OPENCLAW_DIR=) --------
oracle_out="$(bash "$script_dir/setup-oracle.sh")"
printf '%s\n' "$oracle_out"
node24="$(printf '%s\n' "$oracle_out" | sed -n 's/^NODE24=//p')"
[[ -x "$node24" ]] || { log "setup-oracle gave no Node 24"; printf 'OPENCLAW_2026_9_DIR=\n'; exit 0; }

# --- openclaw 2026.9.6: the oracle's second release (setup-oracle installs it once) -------------
peer_pkg="$(printf '%s\n' "$oracle_out" | sed -n 's/^OPENCLAW_NEXT_DIR=//p')"
[[ -d "$peer_pkg/dist" ]] || { log "setup-oracle gave no openclaw 2026.9: the bench runs without it"; printf 'OPENCLAW_2026_9_DIR=\n'; exit 0; }

# The function is not exported: its chunk (a content-hashed name) publishes it through the same
# `testing` global as 2026.7 when VITEST is set at import time. Check that it is still there.
# (A definition at a line start. Not `grep -F $'\nfunction …'`: grep splits its pattern at
# newlines, and the empty first line matches every file. -s -q: a glob that matched no file
# is no error once a line is found.)
if ! grep -q -s -E '^function budgetCompactionSummary\(' "$peer_pkg"/dist/*.mjs "$peer_pkg"/dist/*.js; then
  log "no dist chunk of openclaw@2026.9 defines budgetCompactionSummary: the bench runs without it"
  printf 'OPENCLAW_2026_9_DIR=\n'
  exit 0
fi

log "ready"
printf 'OPENCLAW_2026_9_DIR=%s\n' "$peer_pkg"
