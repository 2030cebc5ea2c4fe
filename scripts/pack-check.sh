#!/usr/bin/env bash
# Packaging check: pack the root package and every npm/<platform> package
# (with its built binary), serve the tarballs from a registry on 127.0.0.1
# (scripts/cross/local-registry.js: nothing else is reachable from it), and
# install the root package into fresh folders with no Rust on the PATH, as a
# user would: npm itself picks the platform package by os, cpu and libc.
#
#   this machine (linux x64 glibc)   linux-x64-gnu only; loads it; the CLI runs
#   --libc=musl                      linux-x64-musl only; loads it under a musl Node
#                                    (when scripts/cross has one: PACK_CHECK_MUSL=0 skips)
#   --cpu=wasm32                     the WASI build and its runtime only; the loader
#                                    falls back to it (no native binary fits)
#   --cpu=arm64 [--libc=musl], --os=darwin --cpu=arm64|x64, --os=win32 --cpu=x64
#                                    that platform's package only, holding a binary
#                                    of the right format and architecture
#
# Binaries come from target/platforms/ (npm run build:all) and the root's
# linux-x64-gnu build. PACK_CHECK_HOST_ONLY=1 checks linux-x64-gnu alone
# (a machine without the cross builds).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
version="$(node -p 'require("./package.json").version')"
built="$root/target/platforms"
platforms=(linux-x64-gnu linux-x64-musl linux-arm64-gnu linux-arm64-musl darwin-arm64 darwin-x64 win32-x64-msvc wasm32-wasip1)
[[ "${PACK_CHECK_HOST_ONLY:-0}" == 1 ]] && platforms=(linux-x64-gnu)

fail() { echo "pack-check: $*" >&2; exit 1; }
host_binary="openclaw-context-native.linux-x64-gnu.node"
[[ -f "$host_binary" ]] || fail "$host_binary is missing: run npm run build first"

work="$(mktemp -d)"
registry_pid=""
cleanup() {
  [[ -n "$registry_pid" ]] && kill "$registry_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/tarballs"

# Each platform package: a copy of npm/<platform> with its binary, packed.
for platform in "${platforms[@]}"; do
  pkg="$work/pkg/$platform"
  mkdir -p "$pkg"
  cp -r "npm/$platform/." "$pkg/"
  files="$(node -p 'require(process.argv[1]).files.join("\n")' "$pkg/package.json")"
  while IFS= read -r file; do
    source_file="$built/$file"
    [[ "$platform" == linux-x64-gnu ]] && source_file="$root/$file"
    [[ -f "$source_file" ]] || fail "$platform: $file is not built (run npm run build:all, or PACK_CHECK_HOST_ONLY=1)"
    cp "$source_file" "$pkg/"
  done <<< "$files"
  (cd "$pkg" && npm pack --silent --ignore-scripts --pack-destination "$work/tarballs" >/dev/null)
done
npm pack --silent --ignore-scripts --pack-destination "$work/tarballs" >/dev/null
# The WASI package's run-time dependencies, packed from this checkout's
# node_modules (the versions package-lock.json pinned).
if [[ " ${platforms[*]} " == *" wasm32-wasip1 "* ]]; then
  node -e '
    const fs = require("fs"), path = require("path"), seen = new Set()
    // The nearest node_modules/NAME, as require would look, without exports in the way.
    const locate = (name, from) => {
      for (let dir = from; ; dir = path.dirname(dir)) {
        const candidate = path.join(dir, "node_modules", name)
        if (fs.existsSync(path.join(candidate, "package.json"))) return candidate
        if (dir === path.dirname(dir)) throw new Error(`cannot find ${name} from ${from}`)
      }
    }
    const visit = (name, from) => {
      const dir = locate(name, from)
      if (seen.has(dir)) return
      seen.add(dir)
      for (const dep of Object.keys(require(`${dir}/package.json`).dependencies || {})) visit(dep, dir)
    }
    for (const dep of Object.keys(require("./npm/wasm32-wasip1/package.json").dependencies)) visit(dep, process.cwd())
    console.log([...seen].join("\n"))
  ' | while IFS= read -r dir; do npm pack --silent --ignore-scripts --pack-destination "$work/tarballs" "$dir" >/dev/null; done
fi
ls -l "$work/tarballs"

node scripts/cross/local-registry.js "$work/tarballs" "$work/port" &
registry_pid=$!
for _ in $(seq 50); do [[ -s "$work/port" ]] && break; sleep 0.1; done
[[ -s "$work/port" ]] || fail "the local registry did not start"
registry="http://127.0.0.1:$(cat "$work/port")"

node_dir="$(dirname "$(command -v node)")"
# No cargo, no rustc: only node/npm's folder and the system's.
clean_path="$node_dir:/usr/bin:/bin"
if PATH="$clean_path" command -v cargo >/dev/null; then
  fail "cargo is still on the clean PATH ($clean_path)"
fi

# consumer NAME [npm options]: a fresh folder with the root package installed; prints its path.
consumer() {
  local dir="$work/consumer-$1"
  shift
  mkdir -p "$dir"
  echo '{ "name": "consumer", "private": true }' > "$dir/package.json"
  (cd "$dir" && PATH="$clean_path" npm install --no-audit --no-fund --registry "$registry" \
    --cache "$work/npm-cache" "$@" "openclaw-context-native@$version" >/dev/null) || fail "npm install $* failed"
  printf '%s\n' "$dir"
}

# installed DIR: the platform packages npm put in DIR's node_modules.
installed() { (cd "$1/node_modules" && ls -d openclaw-context-native-* 2>/dev/null | sed 's/^openclaw-context-native-//' | tr '\n' ' ' | sed 's/ $//'); }

expect_installed() { # DIR PLATFORM (the only one)
  local got
  got="$(installed "$1")"
  [[ "$got" == "$2" ]] || fail "expected only the $2 package, npm installed: ${got:-none}"
}

# A call whose answer is known, the binding the loader chose, and the .node it opened.
smoke='
  const native = require("openclaw-context-native")
  const out = native.capCompactionSummaryPreservingSuffix("## Decisions\n- a \ud800", "\n\n- b", 16000)
  if (out !== "## Decisions\n- a \ud800\n\n- b") throw new Error("unexpected output " + JSON.stringify(out))
  for (const name of ["capCompactionSummary", "capCompactionSummaryPreservingSuffix", "capCompactionSummaryReport", "readPersistentChatLogEntries", "buildPersistentChatInjectedPrompt", "rebuildPersistentChatContinuitySummary"])
    if (typeof native[name] !== "function") throw new Error("missing export " + name)
  const loaded = (process.report.getReport().sharedObjects || []).filter((f) => f.endsWith(".node")).map((f) => f.split("/node_modules/").pop())
  console.log(native.__napiBindingTarget + " " + loaded.join(","))
'

dir="$(consumer host)"
expect_installed "$dir" linux-x64-gnu
got="$(cd "$dir" && PATH="$clean_path" node -e "$smoke")"
[[ "$got" == "native openclaw-context-native-linux-x64-gnu/openclaw-context-native.linux-x64-gnu.node" ]] || fail "host: loaded $got"
echo "pack-check: linux x64 glibc: npm installed linux-x64-gnu only; the loader opened it"
# The command-line tool comes with the package.
(cd "$dir" && PATH="$clean_path" ./node_modules/.bin/openclaw-context --help >/dev/null)
# A folder without OpenClaw: exit 1 with the reason (any other failure, e.g. a module the
# package left out, must not count as the expected one).
code=0
said="$(cd "$dir" && PATH="$clean_path" ./node_modules/.bin/openclaw-context patch --check "$work/no-openclaw-here" 2>&1)" || code=$?
if [[ "$code" != 1 || "$said" != "openclaw-context: $work/no-openclaw-here does not exist" ]]; then
  fail "patch --check on a folder without OpenClaw: exit $code, said: $said"
fi
echo "pack-check: the openclaw-context command runs"
[[ ${#platforms[@]} -eq 1 ]] && exit 0

dir="$(consumer musl --libc=musl)"
expect_installed "$dir" linux-x64-musl
if [[ "${PACK_CHECK_MUSL:-1}" == 1 ]]; then
  source scripts/cross/lib.sh
  source scripts/cross/runtimes.sh
  musl="$(musl_node x64)"
  got="$(cd "$dir" && with_musl_ldd "$musl" -e "$smoke")"
  [[ "$got" == "native openclaw-context-native-linux-x64-musl/openclaw-context-native.linux-x64-musl.node" ]] || fail "musl: loaded $got"
  echo "pack-check: linux x64 musl: npm installed linux-x64-musl only; a musl Node's loader opened it"
fi

dir="$(consumer wasi --cpu=wasm32)"
expect_installed "$dir" wasm32-wasip1
got="$(cd "$dir" && PATH="$clean_path" node --no-warnings -e "$smoke")"
[[ "$got" == "wasm32-wasip1 " ]] || fail "WASI: loaded $got"
echo "pack-check: no native package: the loader fell back to the WASI build (lone surrogates intact)"

# Foreign platforms: the right package, holding a binary of the right kind.
check_foreign() { # PLATFORM EXPECTED_FORMAT npm-options...
  local platform="$1" format="$2" dir file got
  shift 2
  dir="$(consumer "$platform" "$@")"
  expect_installed "$dir" "$platform"
  file="$dir/node_modules/openclaw-context-native-$platform/openclaw-context-native.$platform.node"
  got="$(node "$root/scripts/cross/binary-format.js" "$file")"
  [[ "$got" == "$format" ]] || fail "$platform: the package's binary is $got, not $format"
  echo "pack-check: $* : npm installed $platform only ($format)"
}
check_foreign linux-arm64-gnu "ELF aarch64" --cpu=arm64 --libc=glibc
check_foreign linux-arm64-musl "ELF aarch64" --cpu=arm64 --libc=musl
check_foreign darwin-arm64 "Mach-O arm64" --os=darwin --cpu=arm64
check_foreign darwin-x64 "Mach-O x86_64" --os=darwin --cpu=x64
check_foreign win32-x64-msvc "PE x86_64" --os=win32 --cpu=x64
echo "pack-check: ${#platforms[@]} platform packages and the root package install offline and load where they can run here"
