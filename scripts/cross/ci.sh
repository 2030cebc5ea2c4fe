#!/usr/bin/env bash
# CI's platform step (one line in .ci/run): every download, every target's
# build, each platform's tests, each timed ("[cross …] <step>: N s" lines).
# The packages are checked afterwards by scripts/pack-check.sh.
source "$(dirname "$0")/lib.sh"
timed "downloads" bash "$cross_dir/fetch.sh"
timed "build:all" bash "$cross_dir/build-all.sh"
timed "test:platforms" bash "$cross_dir/test-platforms.sh"
