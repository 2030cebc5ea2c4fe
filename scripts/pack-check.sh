#!/usr/bin/env bash
# Packaging check: pack the root package and npm/linux-x64-gnu (with the
# built .node), install both tarballs offline into a fresh folder with no
# Rust toolchain on the PATH, and require() the package as a user would.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
binary="openclaw-context-native.linux-x64-gnu.node"
[[ -f "$binary" ]] || { echo "pack-check: $binary is missing: run npm run build first" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$binary" npm/linux-x64-gnu/
(cd npm/linux-x64-gnu && npm pack --silent --pack-destination "$work" >/dev/null)
rm -f "npm/linux-x64-gnu/$binary"
npm pack --silent --pack-destination "$work" >/dev/null
ls -l "$work"/*.tgz

consumer="$work/consumer"
mkdir -p "$consumer"
cd "$consumer"
echo '{ "name": "consumer", "private": true }' > package.json
node_dir="$(dirname "$(command -v node)")"
# No cargo, no rustc: only node/npm's folder and the system's.
clean_path="$node_dir:/usr/bin:/bin"
if PATH="$clean_path" command -v cargo >/dev/null; then
  echo "pack-check: cargo is still on the clean PATH ($clean_path)" >&2
  exit 1
fi
PATH="$clean_path" npm install --offline --no-audit --no-fund --cache "$work/empty-cache" \
  "$work"/openclaw-context-native-0.1.0.tgz "$work"/openclaw-context-native-linux-x64-gnu-0.1.0.tgz >/dev/null
PATH="$clean_path" node -e '
  const native = require("openclaw-context-native")
  if (native.__napiBindingTarget !== "native") throw new Error("not the native binding")
  const out = native.capCompactionSummaryPreservingSuffix("## Decisions\n- a", "\n\n- b", 16000)
  if (out !== "## Decisions\n- a\n\n- b") throw new Error("unexpected output " + JSON.stringify(out))
  for (const name of ["capCompactionSummary", "capCompactionSummaryPreservingSuffix", "capCompactionSummaryReport"])
    if (typeof native[name] !== "function") throw new Error("missing export " + name)
  console.log("pack-check: installed offline without Rust and loaded the native binding")
'
# The command-line tool comes with the package.
PATH="$clean_path" ./node_modules/.bin/openclaw-context --help >/dev/null
# A folder without OpenClaw: exit 1 with the reason (any other failure, e.g. a module the
# package left out, must not count as the expected one).
code=0
said="$(PATH="$clean_path" ./node_modules/.bin/openclaw-context patch --check "$work/no-openclaw-here" 2>&1)" || code=$?
if [[ "$code" != 1 || "$said" != "openclaw-context: $work/no-openclaw-here does not exist" ]]; then
  echo "pack-check: patch --check on a folder without OpenClaw: exit $code, said: $said" >&2
  exit 1
fi
echo "pack-check: the openclaw-context command runs"
