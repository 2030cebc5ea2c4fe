#!/usr/bin/env bash
# `npm run test:platforms [-- PLATFORM...]`: the tests of each platform's
# binary (from `npm run build:all`, in target/platforms/) where this Linux x64
# machine can run it. Every run includes the platform differential
# (__test__/platform/), compared with linux-x64-gnu's outputs of this run.
#
#   linux-x64-musl    the whole jest suite under a musl Node
#   linux-arm64-gnu   the binary's own specs under qemu-user with the official arm64 Node
#                     (binfmt_misc registered for the run, so specs' child processes run too,
#                     and removed after)
#   linux-arm64-musl  the same with a musl Node
#   win32-x64-gnu     the whole suite under Wine with the official Windows Node (the local
#                     stand-in for win32-x64-msvc, loaded under that name)
#   wasm32-wasip1     the whole suite on Node 24 with the WASI build forced
#   darwin-arm64/x64  not runnable here: the Mach-O is checked (check-macho.js)
#
# Each platform's jest summary is written to target/platforms/results/.
source "$(dirname "$0")/lib.sh"
source "$kit_dir/runtimes.sh"

built="$repo_root/target/platforms"
results="$built/results"
mkdir -p "$results"
all=(linux-x64-musl linux-arm64-gnu linux-arm64-musl win32-x64-gnu wasm32-wasip1 darwin-arm64 darwin-x64)
platforms=("$@")
[[ ${#platforms[@]} -gt 0 ]] || platforms=("${all[@]}")
jest_js="$repo_root/node_modules/jest/bin/jest.js"
expected="$built/expected.jsonl"

# The artifacts a run copies next to index.js (where the loader looks first);
# removed again whatever happens.
placed=()
cleanup_placed() {
  local file
  for file in "${placed[@]}"; do rm -f "$repo_root/$file"; done
  placed=()
}
trap 'cleanup_placed; unhide_host; binfmt_off' EXIT
place() {
  local file
  for file in "$@"; do
    [[ -f "$built/$file" ]] || die "$built/$file is missing: run npm run build:all first"
    cp "$built/$file" "$repo_root/$file"
    placed+=("$file")
  done
}

# The expected outputs: the corpus through linux-x64-gnu, on this machine's Node.
write_expected() {
  [[ -f "$repo_root/openclaw-context-native.linux-x64-gnu.node" ]] || die "run npm run build first (linux-x64-gnu writes the expected outputs)"
  (cd "$repo_root" && OCCN_PLATFORM_WRITE="$expected" node "$jest_js" --ci --silent __test__/platform >/dev/null 2>&1) ||
    die "the differential failed on linux-x64-gnu itself"
  log "expected outputs: $(wc -l < "$expected") cases from linux-x64-gnu"
}

# jest_run PLATFORM NODE... -- JEST_ARGS: runs jest; its summary goes to $results.
jest_run() {
  local platform="$1" node=() status=0
  shift
  while [[ "$1" != "--" ]]; do node+=("$1"); shift; done
  shift
  local summary="$results/$platform.json"
  rm -f "$summary"
  (cd "$repo_root" && OCCN_PLATFORM_EXPECTED="$expected" OCCN_JEST_SUMMARY="$summary" "${node[@]}" "$jest_js" --ci "$@" \
    --reporters=default --reporters="$kit_dir/jest-summary-reporter.js") || status=$?
  if [[ -f "$summary" ]]; then
    node "$kit_dir/summarize.js" "$platform" "$summary" | tee "$results/$platform.txt" >&2
  else
    log "$platform: jest wrote no summary"
    status=1
  fi
  return "$status"
}

# node_first NODE: a PATH with NODE as `node` first, so that what the specs
# start through `env node` (the Python example's CLI) runs the platform's Node.
node_first() {
  local dir="$cache/path-$(printf '%s' "$1" | sha256sum | cut -c1-12)"
  mkdir -p "$dir" && ln -sf "$1" "$dir/node"
  printf '%s:%s\n' "$dir" "$PATH"
}

test_musl_x64() {
  local node node_path
  node="$(musl_node x64)"
  node_path="$(unrs_binding UNRS_NPM_X64_MUSL)"
  place openclaw-context-native.linux-x64-musl.node
  # 20 s per test: the Promise spec's 735 calls took over jest's 5 s here under
  # musl with the machine's two cores loaded 3x over (they pass in 5 s unloaded).
  PATH="$(node_first "$node")" NODE_PATH="$node_path" OCCN_EXPECT_BINDING=openclaw-context-native.linux-x64-musl.node \
    jest_run linux-x64-musl with_musl_ldd "$node" -- --testTimeout=20000 "$@"
}

# binfmt_misc: aarch64 ELF files run through qemu for the length of the run,
# so the Node under test can start child processes (jest workers, the specs'
# children). Kernel state: registered under our own name, removed on exit
# (and binfmt_misc unmounted again if this script mounted it).
binfmt_name="occn-qemu-aarch64"
binfmt_mounted=0
binfmt_on() {
  local qemu="$1" dir=/proc/sys/fs/binfmt_misc
  if [[ ! -f "$dir/register" ]]; then
    mount -t binfmt_misc binfmt_misc "$dir" || die "cannot mount binfmt_misc (needs root)"
    binfmt_mounted=1
  fi
  [[ -e "$dir/$binfmt_name" ]] && echo -1 > "$dir/$binfmt_name"
  # F: the kernel opens qemu now, so it works whatever the caller's mounts.
  printf ':%s:M::\\x7fELF\\x02\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x00\\xb7\\x00:\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\x00\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xfe\\xff\\xff\\xff:%s:F\n' \
    "$binfmt_name" "$qemu" > "$dir/register"
  log "binfmt_misc: registered $binfmt_name -> $qemu"
}
binfmt_off() {
  local dir=/proc/sys/fs/binfmt_misc
  if [[ -e "$dir/$binfmt_name" ]]; then
    echo -1 > "$dir/$binfmt_name"
    log "binfmt_misc: removed $binfmt_name"
  fi
  if [[ "$binfmt_mounted" == 1 ]]; then
    umount "$dir" && binfmt_mounted=0
  fi
}

# The specs of the binary itself: its outputs and errors on every export, and the loader
# choosing it. Both arm64 runs take these only, for time (the whole suite takes 4-6 min under
# qemu, these about 1.5): the rest is the same JavaScript, which the workflows' arm64 runners run
# whole, and what musl changes for it linux-x64-musl's run tests.
binary_specs=('__test__/platform/' '__test__/binding\.' '__test__/compaction\.' '__test__/persistent-chat\.' '__test__/package\.loader\.')

test_arm64() { # gnu|musl
  local libc="$1" qemu node node_path
  qemu="$(qemu_aarch64)"
  if [[ "$libc" == gnu ]]; then
    node="$(arm64_node)"
    node_path="$(unrs_binding UNRS_NPM_ARM64_GNU)"
    # qemu looks up the interpreter and libraries under this prefix.
    export QEMU_LD_PREFIX
    QEMU_LD_PREFIX="$(arm64_glibc_root)"
  else
    node="$(musl_node arm64)"
    node_path="$(unrs_binding UNRS_NPM_ARM64_MUSL)"
  fi
  place "openclaw-context-native.linux-arm64-$libc.node"
  binfmt_on "$qemu"
  local status=0 ldd=()
  [[ "$libc" == musl ]] && ldd=(with_musl_ldd)
  # Emulated, a call takes 10-20x as long: 30 s per test, not 5. qemu-user
  # runs each emulated process on one core; jest.config.js runs two spec
  # files at once, so both cores are busy.
  PATH="$(node_first "$node")" NODE_PATH="$node_path" OCCN_EXPECT_BINDING="openclaw-context-native.linux-arm64-$libc.node" \
    jest_run "linux-arm64-$libc" "${ldd[@]}" "$node" -- --testTimeout=30000 "${binary_specs[@]}" || status=$?
  binfmt_off
  unset QEMU_LD_PREFIX
  return "$status"
}

# The host's own binary, moved aside while a run must not find it; put back whatever happens.
host_binary=openclaw-context-native.linux-x64-gnu.node
hidden="$built/.hidden"
hide_host() { mkdir -p "$hidden" && mv "$repo_root/$host_binary" "$hidden/"; }
unhide_host() { [[ -f "$hidden/$host_binary" ]] && mv "$hidden/$host_binary" "$repo_root/" || true; }

test_wasi() {
  local node24 status=0
  node24="$(cd "$repo_root" && bash scripts/setup-oracle.sh 2>/dev/null | sed -n 's/^NODE24=//p')"
  [[ -x "$node24" ]] || die "no Node 24 from scripts/setup-oracle.sh"
  place openclaw-context-native.wasip1.cjs openclaw-context-native.wasm32-wasip1.wasm
  # 1. The whole suite with no native binary to load: the loader falls back to
  #    WASI, as on a platform without a binary; specs that set
  #    NAPI_RS_NATIVE_LIBRARY_PATH or hide the addon work as they do natively.
  #    @emnapi/core 2 is an ES module: jest loads it through vm modules. WASI is
  #    ~30x slower per call (npm run bench:wasi): 30 s per test, not 5.
  #    Left out: the CLI spec that copies the package's *.node files into a
  #    folder without node_modules (the WASI build needs its runtime packages).
  hide_host
  NODE_OPTIONS="--experimental-vm-modules --no-warnings" OCCN_EXPECT_BINDING=wasm32-wasip1 \
    jest_run wasm32-wasip1 "$node24" -- --testTimeout=30000 -t '^(?!.*the addon missing when the gateway runs).*' "$@" || status=$?
  unhide_host
  # 2. The differential again with the WASI build forced beside a native one
  #    (NAPI_RS_FORCE_WASI=error, set inside jest's test environment only).
  NODE_OPTIONS="--experimental-vm-modules --no-warnings" OCCN_FORCE_WASI=error OCCN_EXPECT_BINDING=wasm32-wasip1 \
    jest_run wasm32-wasip1-forced "$node24" -- __test__/platform --setupFiles "$kit_dir/jest-force-wasi.js" || status=$?
  return "$status"
}

test_darwin() { # darwin-arm64|darwin-x64
  local arch=arm64
  [[ "$1" == darwin-x64 ]] && arch=x86_64
  node "$kit_dir/check-macho.js" "$built/openclaw-context-native.$1.node" "$arch" 11.0 | tee "$results/$1.txt" >&2
  return "${PIPESTATUS[0]}"
}

test_one() {
  case "$1" in
    linux-x64-musl) test_musl_x64 ;;
    linux-arm64-gnu) test_arm64 gnu ;;
    linux-arm64-musl) test_arm64 musl ;;
    win32-x64-gnu) bash "$kit_dir/test-wine.sh" ;;
    wasm32-wasip1) test_wasi ;;
    darwin-arm64 | darwin-x64) test_darwin "$1" ;;
    *) die "unknown platform $1 (known: ${all[*]})" ;;
  esac
}

timed "expected outputs (linux-x64-gnu)" write_expected
failed=()
for platform in "${platforms[@]}"; do
  timed "test $platform" test_one "$platform" || failed+=("$platform")
  cleanup_placed
done
for platform in "${platforms[@]}"; do cat "$results/$platform.txt" >&2 2>/dev/null || true; done
# Failures once more, last: a CI log is read from its tail.
for platform in "${platforms[@]}"; do
  grep -h -E '^  failed: ' "$results/$platform.txt" 2>/dev/null | sed "s/^/$platform:/" >&2 || true
done
[[ ${#failed[@]} -eq 0 ]] || die "failed: ${failed[*]}"
