#!/usr/bin/env bash
# CI's platform step (one line in .ci/run): every download, every target's
# build, each platform's tests, each timed ("[platforms …] <step>: N s" lines).
# The packages are checked afterwards by scripts/pack-check.sh.
source "$(dirname "$0")/lib.sh"
timed "downloads" bash "$kit_dir/fetch.sh"
timed "build:all" bash "$kit_dir/build-all.sh"
timed "test:platforms" bash "$kit_dir/test-platforms.sh"
