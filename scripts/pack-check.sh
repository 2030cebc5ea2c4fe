#!/usr/bin/env bash
# Packaging check: the release assembly of the release workflow (.github/workflows/CI.yml, its
# publish job), run on the local kit's binaries, then installs as a user would.
#
#   1. a copy of the root package (what `npm pack` ships) and of npm/<platform>;
#   2. `napi artifacts` moves each binary into its npm/<platform> package;
#   3. `napi prepublish -t npm` publishes the eight platform packages and pins them in the root's
#      optionalDependencies (the repository's package.json has none: this step is the only one
#      that writes them, checked below), then `npm publish --ignore-scripts` publishes the root,
#      all to a registry on 127.0.0.1 (dev/local-registry.js: nothing else is reachable from it);
#   4. the root package is installed into fresh folders with no Rust on the PATH, once per
#      platform flag set: npm itself picks the platform package by os, cpu and libc.
#
#   this machine (linux x64 glibc)   linux-x64-gnu only; loads it; the CLI runs
#   --libc=musl                      linux-x64-musl only; loads it under a musl Node
#                                    (when the local platform kit has one: PACK_CHECK_MUSL=0 skips)
#   --cpu=wasm32                     the WASI build and its runtime only; the loader
#                                    falls back to it (no native binary fits)
#   --cpu=arm64 [--libc=musl], --os=darwin --cpu=arm64|x64, --os=win32 --cpu=x64
#                                    that platform's package only, holding a binary
#                                    of the right format and architecture
#
# Binaries come from target/platforms/ (npm run build:all) and the root's linux-x64-gnu build.
# The win32-x64-msvc package gets the local kit's win32-x64-gnu stand-in (the workflow's holds
# the MSVC build): enough to check that npm picks it and that it is a PE x86_64 binary.
# PACK_CHECK_HOST_ONLY=1 checks linux-x64-gnu alone (a machine without the cross builds).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
version="$(node -p 'require("./package.json").version')"
built="$root/target/platforms"
platforms=(linux-x64-gnu linux-x64-musl linux-arm64-gnu linux-arm64-musl darwin-arm64 darwin-x64 win32-x64-msvc wasm32-wasip1)
[[ "${PACK_CHECK_HOST_ONLY:-0}" == 1 ]] && platforms=(linux-x64-gnu)
napi="$root/node_modules/.bin/napi"

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
mkdir -p "$work/tarballs" "$work/artifacts" "$work/release"

# 1. The package as it ships, and the platform packages' manifests.
npm pack --silent --ignore-scripts --pack-destination "$work" >/dev/null
tar xzf "$work/openclaw-context-native-$version.tgz" -C "$work/release" --strip-components=1
rm "$work/openclaw-context-native-$version.tgz"
mkdir -p "$work/release/npm"
for platform in "${platforms[@]}"; do cp -r "npm/$platform" "$work/release/npm/"; done
if [[ ${#platforms[@]} -eq 1 ]]; then
  # napi reads its targets from the root's manifest: the host's alone.
  node -e '
    const fs = require("fs"), file = process.argv[1], p = JSON.parse(fs.readFileSync(file, "utf8"))
    p.napi.targets = ["x86_64-unknown-linux-gnu"]
    fs.writeFileSync(file, JSON.stringify(p, null, 2) + "\n")
  ' "$work/release/package.json"
fi

# 2. The binaries under the names the loader asks for, as the workflow downloads them.
for platform in "${platforms[@]}"; do
  case "$platform" in
    linux-x64-gnu) cp "$root/$host_binary" "$work/artifacts/" ;;
    win32-x64-msvc)
      [[ -f "$built/openclaw-context-native.win32-x64-gnu.node" ]] || fail "win32: not built (run npm run build:all, or PACK_CHECK_HOST_ONLY=1)"
      cp "$built/openclaw-context-native.win32-x64-gnu.node" "$work/artifacts/openclaw-context-native.win32-x64-msvc.node" ;;
    wasm32-wasip1)
      [[ -f "$built/openclaw-context-native.wasm32-wasip1.wasm" ]] || fail "wasm32-wasip1: not built (run npm run build:all)"
      # With its JS glue, which napi build writes beside it and napi artifacts checks for.
      cp "$built/openclaw-context-native.wasm32-wasip1.wasm" "$built"/openclaw-context-native.wasip1* "$work/artifacts/" ;;
    *)
      [[ -f "$built/openclaw-context-native.$platform.node" ]] || fail "$platform: not built (run npm run build:all, or PACK_CHECK_HOST_ONLY=1)"
      cp "$built/openclaw-context-native.$platform.node" "$work/artifacts/" ;;
  esac
done
(cd "$work/release" && "$napi" artifacts --output-dir "$work/artifacts" --npm-dir npm >&2) || fail "napi artifacts failed"
# What ships is what the build generated and the spec tested: the assembly rewrites no loader.
for file in index.js index.d.ts; do cmp -s "$work/release/$file" "$file" || fail "napi artifacts changed $file"; done

# The WASI package's run-time dependencies, packed from this checkout's
# node_modules (the versions package-lock.json pinned): npm's, not ours, so served as they are.
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

node dev/local-registry.js "$work/tarballs" "$work/port" &
registry_pid=$!
for _ in $(seq 50); do [[ -s "$work/port" ]] && break; sleep 0.1; done
[[ -s "$work/port" ]] || fail "the local registry did not start"
registry="http://127.0.0.1:$(cat "$work/port")"

# 3. Published as the workflow publishes (without provenance: that needs the CI's identity).
printf '//127.0.0.1:%s/:_authToken=local-only\nregistry=%s/\n' "$(cat "$work/port")" "$registry" > "$work/npmrc"
publish_env=(npm_config_userconfig="$work/npmrc" npm_config_registry="$registry/" npm_config_cache="$work/npm-cache" npm_config_provenance=false npm_config_loglevel=warn)
(cd "$work/release" && env "${publish_env[@]}" "$napi" prepublish -t npm --no-gh-release >&2) || fail "napi prepublish failed"
(cd "$work/release" && env "${publish_env[@]}" npm publish --ignore-scripts >/dev/null) || fail "npm publish of the root failed"
# The root as the registry serves it pins each platform package at this version, and nothing else.
published="$(env "${publish_env[@]}" npm view --json "openclaw-context-native@$version" optionalDependencies)"
expected="$(printf '%s\n' "${platforms[@]}" | sort | sed "s/.*/openclaw-context-native-& $version/")"
got="$(node -e 'for (const [k, v] of Object.entries(JSON.parse(process.argv[1] || "{}"))) console.log(k + " " + v)' "$published" | sort)"
[[ "$got" == "$expected" ]] || fail "the published root's optionalDependencies: ${got:-none}; expected: $expected"
ls -l "$work/tarballs"


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
  source scripts/local-platforms/lib.sh
  source scripts/local-platforms/runtimes.sh
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
  got="$(node "$root/scripts/local-platforms/binary-format.js" "$file")"
  [[ "$got" == "$format" ]] || fail "$platform: the package's binary is $got, not $format"
  echo "pack-check: $* : npm installed $platform only ($format)"
}
check_foreign linux-arm64-gnu "ELF aarch64" --cpu=arm64 --libc=glibc
check_foreign linux-arm64-musl "ELF aarch64" --cpu=arm64 --libc=musl
check_foreign darwin-arm64 "Mach-O arm64" --os=darwin --cpu=arm64
check_foreign darwin-x64 "Mach-O x86_64" --os=darwin --cpu=x64
check_foreign win32-x64-msvc "PE x86_64" --os=win32 --cpu=x64
echo "pack-check: (win32-x64-msvc held the local kit's win32-x64-gnu stand-in; the release workflow's holds its MSVC build)"
echo "pack-check: ${#platforms[@]} platform packages and the root package install offline and load where they can run here"
