# Sourced: occn_cache_dir PART prints the cache folder of one part (oracle, releases, cross,
# bench, fuzz), by cache-dir.js's rule (its own variable, else $OCCN_CACHE_DIR, else
# $XDG_CACHE_HOME or ~/.cache, + /openclaw-context-native/PART). Outside the checkout, so that a
# fresh clone reuses what an earlier one downloaded.
occn_cache_dir() {
  local override
  case "$1" in
    oracle) override="${ORACLE_DIR:-}" ;;
    releases) override="${RELEASES_CACHE_DIR:-}" ;;
    cross) override="${OCCN_CROSS_CACHE:-}" ;;
    bench) override="${BENCH_CACHE_DIR:-}" ;;
    fuzz) override="${OCCN_FUZZ_CACHE:-}" ;;
    *) echo "occn_cache_dir: unknown part $1" >&2; return 1 ;;
  esac
  if [[ -n "$override" ]]; then printf '%s\n' "$override"; return; fi
  if [[ -n "${OCCN_CACHE_DIR:-}" ]]; then printf '%s/%s\n' "$OCCN_CACHE_DIR" "$1"; return; fi
  local base="${XDG_CACHE_HOME:-}"
  if [[ -z "$base" ]]; then
    case "$(uname -s)" in
      Darwin) base="$HOME/Library/Caches" ;;
      *) base="$HOME/.cache" ;;
    esac
  fi
  printf '%s/openclaw-context-native/%s\n' "$base" "$1"
}
