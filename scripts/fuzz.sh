#!/usr/bin/env bash
# Runs every cargo-fuzz target for a bounded time on its corpus (CI), or for
# a number of executions: scripts/fuzz.sh [SECONDS_EACH=30] [-- extra libFuzzer flags]
# Installs cargo-fuzz from crates.io when missing. Targets build with -s none
# (no sanitizer), which the stable toolchain supports.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
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
  mkdir -p "corpus/$target"
  cargo fuzz run -s none "$target" "corpus/$target" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 "$@" > "$logs/$target.log" 2>&1 || status=$?
  {
    echo "== fuzz $target (${seconds}s)"
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
