#!/usr/bin/env bash
# Runs every cargo-fuzz target for a bounded time on its corpus (CI), or for
# a number of executions: scripts/fuzz.sh [SECONDS_EACH=30] [-- extra libFuzzer flags]
# Installs cargo-fuzz from crates.io when missing. Targets build with -s none
# (no sanitizer), which the stable toolchain supports.
#
# The coverage corpus a run grows is kept outside the checkout, in the cache's fuzz part
# (dev/cache-dir.sh: $OCCN_FUZZ_CACHE, else ~/.cache/openclaw-context-native/fuzz): corpus/<target>.
# Each run reads the committed seeds (fuzz/seeds/<target>: a few inputs, and every input a run
# ever failed on) beside it, read-only; libFuzzer writes what it finds into the cache's folder, so
# a first run starts from the seeds and later runs go on from where the earlier ones stopped.
# A failing input is left under fuzz/artifacts/<target>/: fix it, then commit it to
# fuzz/seeds/<target>/ as crash-<sha1> (crates/core/tests/fuzz_seeds.rs replays it in cargo test).
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
# shellcheck source=../dev/cache-dir.sh
source ../dev/cache-dir.sh
corpus="$(occn_cache_dir fuzz)/corpus"
seconds="${1:-30}"
shift || true
[[ "${1:-}" == "--" ]] && shift
if ! cargo fuzz --version >/dev/null 2>&1; then
  cargo install cargo-fuzz --version 0.13.2 --locked
fi
cargo fuzz build -s none
# Each libFuzzer run is one process on one core: FUZZ_JOBS (default 2) targets at a time, each
# with its own log, whose summary lines are printed when the run ends.
jobs="${FUZZ_JOBS:-2}"
logs="$(mktemp -d)"
trap 'rm -rf "$logs"' EXIT

fuzz_one() { # TARGET: its run's own exit status decides (a crash, timeout, leak or OOM is non-zero)
  local target="$1" status=0
  shift
  mkdir -p "$corpus/$target"
  cargo fuzz run -s none "$target" "$corpus/$target" "seeds/$target" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 "$@" > "$logs/$target.log" 2>&1 || status=$?
  {
    echo "== fuzz $target (${seconds}s; corpus $corpus/$target: $(find "$corpus/$target" -type f | wc -l) inputs)"
    # grep only shortens the log; finding no line to show is no failure.
    grep -E "^(Done|stat::number_of_executed_units)|panicked|ERROR|SUMMARY" "$logs/$target.log" || true
  } >&2
  if [[ "$status" != 0 ]]; then
    echo "fuzz: $target exited with status $status" >&2
    return 1
  fi
  # A crash leaves its input under artifacts/: fail the run.
  if compgen -G "artifacts/$target/crash-*" >/dev/null || compgen -G "artifacts/$target/oom-*" >/dev/null; then
    echo "fuzz: $target found a failing input:" >&2
    ls "artifacts/$target" >&2
    return 1
  fi
}

failed=0
running=0
for target in $(cargo fuzz list); do
  if (( running >= jobs )); then
    wait -n || failed=1
    running=$((running - 1))
  fi
  fuzz_one "$target" "$@" &
  running=$((running + 1))
done
while (( running > 0 )); do
  wait -n || failed=1
  running=$((running - 1))
done
exit "$failed"
