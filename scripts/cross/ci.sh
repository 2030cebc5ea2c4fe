#!/usr/bin/env bash
# CI's platform step (one line in .ci/run): every download, every target's
# build, each platform's tests, each timed ("[cross …] <step>: N s" lines).
# The packages are checked afterwards by scripts/pack-check.sh.
source "$(dirname "$0")/lib.sh"
timed "downloads" bash "$cross_dir/fetch.sh"
timed "build:all" bash "$cross_dir/build-all.sh"
# win32-x64-msvc under Wine is run by hand (npm run test:platforms -- win32-x64-msvc)
# until its POSIX-only specs are skipped on win32.
timed "test:platforms" bash "$cross_dir/test-platforms.sh" linux-x64-musl linux-arm64-gnu linux-arm64-musl wasm32-wasip1 darwin-arm64 darwin-x64
