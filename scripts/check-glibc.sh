#!/usr/bin/env bash
# Fail if a shared object needs a glibc newer than a given version.
#   scripts/check-glibc.sh <file.node> <max-version>   e.g. ... addon.node 2.17
# Reads the dynamic symbol table with `objdump -T` (binutils) and compares every
# GLIBC_x.y[.z] symbol version it references with <max-version> (sort -V).
set -euo pipefail

if [[ $# -ne 2 ]]; then
  echo "usage: $0 <file.node> <max-glibc-version>" >&2
  exit 2
fi
file="$1"
max="$2"
[[ "$max" =~ ^[0-9]+(\.[0-9]+)+$ ]] || { echo "check-glibc: bad version '$max' (want e.g. 2.17)" >&2; exit 2; }
[[ -f "$file" ]] || { echo "check-glibc: $file: no such file" >&2; exit 2; }
command -v objdump >/dev/null || { echo "check-glibc: objdump not found (apt-get install binutils)" >&2; exit 2; }

table="$(objdump -T "$file")" # exits non-zero (set -e) if it is not an ELF shared object

versions="$(grep -oE 'GLIBC_[0-9]+(\.[0-9]+)+' <<<"$table" | sed 's/^GLIBC_//' | sort -Vu || true)"
if [[ -z "$versions" ]]; then
  echo "check-glibc: $file references no GLIBC_ symbol versions: not a glibc build?" >&2
  exit 1
fi
highest="$(tail -n1 <<<"$versions")"

too_new=()
while read -r v; do
  # v > max  <=>  v != max and v sorts last
  if [[ "$v" != "$max" && "$(printf '%s\n%s\n' "$max" "$v" | sort -V | tail -n1)" == "$v" ]]; then
    too_new+=("$v")
  fi
done <<<"$versions"

if grep -q 'GLIBC_PRIVATE' <<<"$table"; then
  echo "check-glibc: $file uses GLIBC_PRIVATE symbols:" >&2
  grep 'GLIBC_PRIVATE' <<<"$table" | awk '{print "  " $NF}' >&2
  exit 1
fi

if ((${#too_new[@]})); then
  echo "check-glibc: $file needs GLIBC_$highest, more than the allowed GLIBC_$max. Symbols:" >&2
  for v in "${too_new[@]}"; do
    grep -E "GLIBC_${v//./\\.}([^0-9.]|$)" <<<"$table" | awk -v v="$v" '{print "  GLIBC_" v "  " $NF}' >&2
  done
  exit 1
fi
echo "check-glibc: $file needs at most GLIBC_$highest (limit GLIBC_$max): ok"
