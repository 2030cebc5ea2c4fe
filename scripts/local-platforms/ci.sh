#!/usr/bin/env bash
# CI's platform step (one line in .ci/run): every download, every target's
# build, each platform's tests, each timed ("[platforms …] <step>: N s" lines).
# The packages are checked afterwards by scripts/pack-check.sh.
source "$(dirname "$0")/lib.sh"
timed "downloads" bash "$kit_dir/fetch.sh"
# Every target but linux-x64-gnu: CI's linux-x64-gnu binary is the host build `npm test` made (the
# release profile, napi-rs's glibc 2.17 toolchain; the glibc step read it), which the platform
# tests do not run and scripts/pack-check.sh packs from the checkout's root. The kit's own build
# of it was used by nothing and cost 1 to 2.5 minutes of a run.
timed "build:all" bash "$kit_dir/build-all.sh" linux-x64-musl linux-arm64-gnu linux-arm64-musl \
  darwin-arm64 darwin-x64 win32-x64-gnu wasm32-wasip1
timed "test:platforms" bash "$kit_dir/test-platforms.sh"
