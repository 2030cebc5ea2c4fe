# Sourced after lib.sh. `cross_toolchain` makes (once) a copy of the
# installed Rust toolchain that can build std for other targets: rustup cannot
# download targets here, so std is built from source (`-Zbuild-std`) with
# Debian's rust-src of exactly rustc's version. Sets CROSS_TC (its root) and
# puts its bin/ first on PATH.

cross_toolchain() {
  local version sysroot deb tc src
  version="$(rustc --version | awk '{print $2}')"
  deb="${RUST_SRC_DEB[$version]:-}"
  [[ -n "$deb" ]] || die "no Debian rust-src is pinned for rustc $version (dev/pins.sh has: ${!RUST_SRC_DEB[*]}). -Zbuild-std needs the std source of exactly this rustc: install one of those toolchains or pin the matching rust-src."
  sysroot="$(rustc --print sysroot)"
  tc="$cache/toolchain-$version"
  if [[ ! -f "$tc/.complete" ]]; then
    log "toolchain: copying $sysroot and adding std source $deb"
    deb="$(fetch_deb "$deb")"
    rm -rf "$tc" "$tc.part"
    # Hard links where the cache shares the file system (fast, no space).
    cp -al "$sysroot" "$tc.part" 2>/dev/null || cp -a "$sysroot" "$tc.part"
    src="$(mktemp -d "$cache/.rust-src.XXXXXX")"
    dpkg-deb -x "$deb" "$src"
    local lib="$src/usr/src/rustc-$version/library"
    [[ -f "$lib/Cargo.lock" ]] || die "$deb has no usr/src/rustc-$version/library/Cargo.lock: not the std source of rustc $version"
    mkdir -p "$tc.part/lib/rustlib/src/rust"
    rm -rf "$tc.part/lib/rustlib/src/rust/library"
    # Debian's vendor/ is not needed: cargo takes std's dependencies from crates.io.
    rm -rf "$lib/vendor"
    mv "$lib" "$tc.part/lib/rustlib/src/rust/library"
    cp "$src/usr/src/rustc-$version/Cargo.lock" "$tc.part/lib/rustlib/src/rust/Cargo.lock"
    rm -rf "$src"
    # wasm32-wasip1 links wasi-libc, which rustup would ship as self-contained.
    local wasi
    wasi="$(fetch_deb "$WASI_LIBC_DEB")"
    src="$(mktemp -d "$cache/.wasi-libc.XXXXXX")"
    dpkg-deb -x "$wasi" "$src"
    mkdir -p "$tc.part/lib/rustlib/wasm32-wasip1/lib/self-contained"
    cp "$src"/usr/lib/wasm32-wasi/*.{a,o} "$tc.part/lib/rustlib/wasm32-wasip1/lib/self-contained/"
    rm -rf "$src"
    touch "$tc.part/.complete"
    mv "$tc.part" "$tc"
  fi
  [[ "$("$tc/bin/rustc" --version)" == "$(rustc --version)" ]] || die "$tc/bin/rustc is not $(rustc --version)"
  CROSS_TC="$tc"
  export PATH="$tc/bin:$PATH"
  # rust-objcopy (which strips Apple targets' binaries off macOS) finds its libLLVM here.
  export LD_LIBRARY_PATH="$tc/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  unset RUSTUP_TOOLCHAIN
  # std from source is built with the nightly-only -Zbuild-std on this stable rustc.
  export RUSTC_BOOTSTRAP=1
}

# `cross_zig`: zig and cargo-zigbuild (from PyPI wheels) on PATH, for
# `napi build -x` (the macOS and musl targets link with zig's lld and libcs).
cross_zig() {
  local zig zigbuild dir="$cache/zig"
  zig="$(fetch_pypi "${ZIG_WHEEL[@]}")"
  zigbuild="$(fetch_pypi "${ZIGBUILD_WHEEL[@]}")"
  unpack_once "$zig" "$dir/ziglang" python3 -m zipfile -e "$zig" "$dir/ziglang"
  unpack_once "$zigbuild" "$dir/zigbuild" python3 -m zipfile -e "$zigbuild" "$dir/zigbuild"
  mkdir -p "$dir/bin"
  chmod +x "$dir/ziglang/ziglang/zig" "$dir"/zigbuild/*.data/scripts/cargo-zigbuild
  ln -sf "$dir/ziglang/ziglang/zig" "$dir/bin/zig"
  ln -sf "$(compgen -G "$dir/zigbuild/*.data/scripts/cargo-zigbuild")" "$dir/bin/cargo-zigbuild"
  export PATH="$dir/bin:$PATH"
  zig version >/dev/null || die "zig from ${ZIG_WHEEL[0]} does not run"
}
