#!/usr/bin/env bash
# Fetches (once) every pinned download of build:all and test:platforms into
# the cache, so that CI can time the downloads apart from the builds. The
# other scripts fetch what they need themselves; this only front-loads it (Debian's wine64
# too, installed when missing).
source "$(dirname "$0")/lib.sh"
version="$(rustc --version | awk '{print $2}')"
[[ -n "${RUST_SRC_DEB[$version]:-}" ]] || die "no Debian rust-src is pinned for rustc $version (dev/pins.sh has: ${!RUST_SRC_DEB[*]})"
for deb in "${RUST_SRC_DEB[$version]}" "$WASI_LIBC_DEB" "$MUSL_DEB" "$MUSL_ARM64_DEB" "${ARM64_GLIBC_DEBS[@]}" "$QEMU_USER_DEB" "$PATCHELF_DEB"; do
  fetch_deb "$deb" >/dev/null
done
for npm_pin in AARCH64_TOOLCHAIN_NPM NODE_WIN_NPM NODE_ARM64_NPM UNRS_NPM_X64_MUSL UNRS_NPM_ARM64_MUSL UNRS_NPM_ARM64_GNU UNRS_NPM_WIN32_X64; do
  ref="$npm_pin[@]"
  fetch_npm "${!ref}" >/dev/null
done
for wheel_pin in ZIG_WHEEL ZIGBUILD_WHEEL NODE_MUSL_X64_WHEEL NODE_MUSL_ARM64_WHEEL; do
  ref="$wheel_pin[@]"
  fetch_pypi "${!ref}" >/dev/null
done
source "$kit_dir/runtimes.sh"
ensure_wine
log "all downloads in $cache/dl ($(du -sh "$cache/dl" | cut -f1))"
