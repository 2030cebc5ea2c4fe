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
for target in $(cargo fuzz list); do
  mkdir -p "corpus/$target"
  echo "== fuzz $target (${seconds}s)"
  # The run's own exit status decides (a crash, timeout, leak or OOM is non-zero); grep only
  # shortens the log, and finding no line to show is no failure.
  set +e
  cargo fuzz run -s none "$target" "corpus/$target" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -print_final_stats=1 "$@" 2>&1 |
    grep -E "^(Done|stat::number_of_executed_units)|panicked|ERROR|SUMMARY"
  status="${PIPESTATUS[0]}"
  set -e
  if [[ "$status" != 0 ]]; then
    echo "fuzz: $target exited with status $status" >&2
    exit 1
  fi
  # A crash leaves its input under artifacts/: fail the run.
  if compgen -G "artifacts/$target/crash-*" >/dev/null || compgen -G "artifacts/$target/oom-*" >/dev/null; then
    echo "fuzz: $target found a failing input:" >&2
    ls "artifacts/$target" >&2
    exit 1
  fi
done
