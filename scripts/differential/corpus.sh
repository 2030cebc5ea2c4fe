#!/usr/bin/env bash
# The fuzz targets' outputs on their corpora, as digests, to
# compare two versions of the core:
#
#   scripts/differential/corpus.sh OUT_DIR [COMMIT]
#
# builds the targets prompt, summary, log_line, tail_reader and cap (of COMMIT's
# tree when given, else of this checkout), runs each once over every input of
# its coverage corpus in the cache (scripts/fuzz.sh grows it) and of this
# checkout's fuzz/seeds/<target> (libFuzzer -runs=0) with
# OCCN_FUZZ_DIGEST set, and writes OUT_DIR/<target>.digest: one sorted line
# per input, `<hash of the input> <hash of the output>`. Then
# `diff -r OUT_A OUT_B` shows every input whose output changed. COMMIT must
# have the digest hook (fuzz/fuzz_targets/digest.rs) in each target (cap got
# it after the others: an older COMMIT gives an empty cap.digest).
# FUZZ_TARGET_DIR (builds, kept between runs) defaults to .cache/differential-fuzz.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$(mkdir -p "$1" && cd "$1" && pwd)"
commit="${2:-}"
target_dir="${FUZZ_TARGET_DIR:-$root/.cache/differential-fuzz}"
cargo fuzz --version >/dev/null 2>&1 || cargo install cargo-fuzz --version 0.13.2 --locked
# shellcheck source=../../dev/cache-dir.sh
source "$root/dev/cache-dir.sh"
corpus="$(occn_cache_dir fuzz)/corpus"

src="$root"
if [[ -n "$commit" ]]; then
  src="$(mktemp -d)"
  trap 'rm -rf "$src"' EXIT
  # crates/core and fuzz only, under a bare workspace manifest (cargo fuzz
  # wants one above fuzz/; the real one would pull in the addon's sources).
  git -C "$root" archive "$commit" crates fuzz | tar -x -C "$src"
  printf '[workspace]\nmembers = ["crates/core"]\nresolver = "2"\n' >"$src/Cargo.toml"
fi
cd "$src/fuzz"
for target in prompt summary log_line tail_reader cap; do
  cargo fuzz build -s none --target-dir "$target_dir" "$target"
  rm -f "$out/$target.digest.raw"
  mkdir -p "$corpus/$target"
  OCCN_FUZZ_DIGEST="$out/$target.digest.raw" cargo fuzz run -s none --target-dir "$target_dir" "$target" "$corpus/$target" "$root/fuzz/seeds/$target" -- \
    -runs=0 -rss_limit_mb=2048 >/dev/null 2>&1
  sort -u "$out/$target.digest.raw" >"$out/$target.digest"
  rm -f "$out/$target.digest.raw"
  echo "$target: $(wc -l <"$out/$target.digest") inputs ($(find "$corpus/$target" "$root/fuzz/seeds/$target" -type f | wc -l) corpus and seed files)"
done
