#!/usr/bin/env bash
# `npm run build:all [-- PLATFORM...]`: builds the addon for every platform of
# package.json's napi.targets on a Linux x64 machine, from the registries
# alone (see dev/pins.sh for every download). Each binary lands in
# target/platforms/ under the name the loader and npm/<platform> expect.
#
#   linux-x64-gnu     napi-rs's glibc 2.17 toolchain (as `npm run build`)
#   linux-x64-musl    zig (cargo-zigbuild), std built from source
#   linux-arm64-gnu   napi-rs's aarch64 glibc 2.17 toolchain, std from source
#   linux-arm64-musl  zig, std from source
#   darwin-arm64/x64  zig, std from source, macOS 11.0 minimum
#   win32-x64-gnu     x86_64-pc-windows-gnu by zig: the local stand-in of win32-x64-msvc for the
#                     Wine run (no MSVC here); the published win32-x64-msvc binary is the release
#                     workflow's MSVC build
#   wasm32-wasip1     rust-lld and Debian's wasi-libc, std from source
source "$(dirname "$0")/lib.sh"
source "$kit_dir/toolchain.sh"

out="$repo_root/target/platforms"
mkdir -p "$out"
all=(linux-x64-gnu linux-x64-musl linux-arm64-gnu linux-arm64-musl darwin-arm64 darwin-x64 win32-x64-gnu wasm32-wasip1)
platforms=("$@")
[[ ${#platforms[@]} -gt 0 ]] || platforms=("${all[@]}")
napi="$repo_root/node_modules/.bin/napi"
[[ -x "$napi" ]] || die "run npm install first (no $napi)"
[[ "$(uname -sm)" == "Linux x86_64" ]] || die "build:all runs on Linux x86_64 (this is $(uname -sm))"

# Cross builds keep their own target dir: the everyday host build stays incremental.
export CARGO_TARGET_DIR="$repo_root/target/cross"
# The kit's binaries are for its tests and the packaging check; the published ones are the
# release workflow's (.github/workflows/CI.yml, Cargo.toml's fat LTO in one codegen unit). Thin
# LTO over 16 units builds the same code at the same opt-level in less time (a release build of
# the addon for the host, under load: 149 -> 134 s; the binary 3.9 -> 4.4 MB).
export CARGO_PROFILE_RELEASE_LTO=thin CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16

# napi build for TRIPLE into a scratch dir; moves the artifact to $out/NAME.
napi_build() { # TRIPLE ARTIFACT_GLOB NAME [napi options...] [-- cargo options]
  local triple="$1" glob="$2" name="$3" scratch
  shift 3
  scratch="$(mktemp -d "$out/.build.XXXXXX")"
  (cd "$repo_root" && "$napi" build --platform --release --target "$triple" --output-dir "$scratch" "$@") >&2 ||
    { rm -rf "$scratch"; return 1; }
  local artifact
  artifact="$(compgen -G "$scratch/$glob" | head -n 1)" || true
  [[ -n "$artifact" ]] || { rm -rf "$scratch"; die "napi build --target $triple produced no $glob"; }
  mv "$artifact" "$out/$name"
  # The WASI build also writes its JS glue; keep what the package ships.
  for extra in "$scratch"/openclaw-context-native.wasip1*; do
    [[ -e "$extra" ]] && mv "$extra" "$out/"
  done
  rm -rf "$scratch"
  log "built $out/$name ($(du -k "$out/$name" | cut -f1) KiB)"
  # OCCN_PRUNE_CROSS=1 (CI): the target's build folder (its std and crates, 0.5-1 GB) removed
  # once its binary is out: the eight would otherwise hold several GB of a shared disk at once.
  if [[ "${OCCN_PRUNE_CROSS:-0}" == 1 ]]; then rm -rf "${CARGO_TARGET_DIR:?}/$triple"; fi
}

aarch64_napi_cross() {
  # The CLI pins toolchain 1.0.0 (package.json overrides) but the registry has
  # the aarch64 one only as 1.0.3: unpack it where the CLI looks for 1.0.0.
  local dir="$HOME/.napi-rs/cross-toolchain/1.0.0/aarch64-unknown-linux-gnu" tgz
  [[ -f "$dir/package.json" ]] && return 0
  tgz="$(fetch_npm "${AARCH64_TOOLCHAIN_NPM[@]}")"
  local tmp
  tmp="$(mktemp -d "$cache/.aarch64-tc.XXXXXX")"
  tar xzf "$tgz" -C "$tmp"
  mkdir -p "$dir.part"
  tar xJf "$tmp/package/aarch64-unknown-linux-gnu.tar.xz" -C "$dir.part"
  cp "$tmp/package/package.json" "$dir.part/"
  rm -rf "$tmp" "$dir"
  mv "$dir.part" "$dir"
}

# An import library for node.exe, made from its own napi_*/node_api_* exports:
# napi-build's windows-gnu setup links `-lnode` from LIBNODE_PATH.
libnode_for_windows() {
  local dir="$cache/libnode-win-x64" node_exe
  source "$kit_dir/runtimes.sh"
  node_exe="$(win_node)"
  if [[ "$(cat "$dir/.from" 2>/dev/null)" != "${NODE_WIN_NPM[0]}" ]]; then
    rm -rf "$dir" && mkdir -p "$dir"
    { printf 'LIBRARY node.exe\nEXPORTS\n'; node "$kit_dir/pe-exports.js" "$node_exe" napi_ node_api_; } > "$dir/node.def"
    zig dlltool -d "$dir/node.def" -l "$dir/libnode.a" -m i386:x86-64 >&2 || die "zig dlltool could not make libnode.a"
    # napi-build checks that libnode.dll exists; zig's linker takes libnode.a.
    cp "$dir/libnode.a" "$dir/libnode.dll"
    printf '%s' "${NODE_WIN_NPM[0]}" > "$dir/.from"
  fi
  export LIBNODE_PATH="$dir"
}

# A `cargo` for napi build whose `build` is cargo-zigbuild's (zig links).
zigbuild_as_cargo() {
  local wrapper="$cache/zig/bin/cargo-through-zigbuild"
  printf '#!/bin/sh\nunset CARGO\nif [ "$1" = build ]; then shift; exec cargo-zigbuild zigbuild "$@"; fi\nexec cargo "$@"\n' > "$wrapper"
  chmod +x "$wrapper"
  printf '%s\n' "$wrapper"
}

build_one() {
  local platform="$1" std=(-Zbuild-std=std,panic_abort)
  case "$platform" in
    linux-x64-gnu)
      napi_build x86_64-unknown-linux-gnu '*.node' openclaw-context-native.linux-x64-gnu.node --use-napi-cross ;;
    linux-x64-musl)
      cross_toolchain && cross_zig
      napi_build x86_64-unknown-linux-musl '*.node' openclaw-context-native.linux-x64-musl.node -x -- "${std[@]}" ;;
    linux-arm64-gnu)
      cross_toolchain && aarch64_napi_cross
      napi_build aarch64-unknown-linux-gnu '*.node' openclaw-context-native.linux-arm64-gnu.node --use-napi-cross -- "${std[@]}" ;;
    linux-arm64-musl)
      cross_toolchain && cross_zig
      napi_build aarch64-unknown-linux-musl '*.node' openclaw-context-native.linux-arm64-musl.node -x -- "${std[@]}" ;;
    darwin-arm64 | darwin-x64)
      cross_toolchain && cross_zig
      local triple=aarch64-apple-darwin
      [[ "$platform" == darwin-x64 ]] && triple=x86_64-apple-darwin
      MACOSX_DEPLOYMENT_TARGET=11.0 napi_build "$triple" '*.node' "openclaw-context-native.$platform.node" -x -- "${std[@]}" ;;
    win32-x64-gnu)
      cross_toolchain && cross_zig && libnode_for_windows
      # The CLI's -x is for MSVC only (cargo-xwin): run cargo-zigbuild as its cargo.
      CARGO="$(zigbuild_as_cargo)" napi_build x86_64-pc-windows-gnu '*.node' openclaw-context-native.win32-x64-gnu.node -- "${std[@]}" ;;
    wasm32-wasip1)
      cross_toolchain
      napi_build wasm32-wasip1 '*.wasm32-wasip1.wasm' openclaw-context-native.wasm32-wasip1.wasm -- "${std[@]}" ;;
    *) die "unknown platform $platform (known: ${all[*]})" ;;
  esac
}

# A build cache keyed by everything a binary is made from: the Rust sources and manifests, the
# napi config, the kit's build scripts and pins, and rustc (not the kit's test scripts: a change
# to how a platform is tested builds nothing again). A second run on the same inputs (a fresh
# clone of the same commit, as CI makes) copies the binaries instead of building them again.
# OCCN_BUILD_CACHE=0 always builds.
build_key() {
  local files kit=scripts/local-platforms
  files="$(cd "$repo_root" && git ls-files --cached --others --exclude-standard -- \
    Cargo.toml Cargo.lock build.rs package.json src crates/core/Cargo.toml crates/core/src \
    crates/shape-derive/Cargo.toml crates/shape-derive/src \
    "$kit/build-all.sh" "$kit/lib.sh" "$kit/toolchain.sh" "$kit/runtimes.sh" "$kit/pe-exports.js" \
    dev/pins.sh dev/pinned-downloads.sh | sort)"
  { rustc -vV; (cd "$repo_root" && printf '%s\n' "$files" | xargs -r sha256sum); } | sha256sum | cut -c1-32
}
builds="$cache/builds"
key="$(build_key)"
# Older keys are kept 14 days (a few MB each).
find "$builds" -mindepth 1 -maxdepth 1 -type d -mtime +14 -exec rm -rf {} + 2>/dev/null || true

# The files one platform's build leaves in $out.
outputs_of() {
  case "$1" in
    wasm32-wasip1) (cd "$out" && ls openclaw-context-native.wasm32-wasip1.wasm openclaw-context-native.wasip1* 2>/dev/null) ;;
    *) echo "openclaw-context-native.$1.node" ;;
  esac
}

cached_build() {
  local platform="$1" stamp="$builds/$key/$1.done" file
  if [[ "${OCCN_BUILD_CACHE:-1}" != 0 && -f "$stamp" ]]; then
    while IFS= read -r file; do cp "$builds/$key/$file" "$out/$file"; done < "$stamp"
    log "$platform: from the build cache ($key)"
    return
  fi
  (build_one "$platform") || return
  mkdir -p "$builds/$key"
  outputs_of "$platform" > "$stamp.part"
  while IFS= read -r file; do cp "$out/$file" "$builds/$key/$file"; done < "$stamp.part"
  mv "$stamp.part" "$stamp"
}

# Each in a subshell: one target's failure (die) leaves the others to build.
build_isolated() { (cached_build "$1"); }
failed=()
for platform in "${platforms[@]}"; do
  timed "build $platform" build_isolated "$platform" || failed+=("$platform")
done
ls -l "$out" >&2
[[ ${#failed[@]} -eq 0 ]] || die "could not build: ${failed[*]}"
