#!/usr/bin/env bash
# Loads the built .node on an older glibc: a Debian 11 (bullseye, glibc 2.31)
# root made with debootstrap from Debian's mirror, chrooted, with this
# machine's Node. Needs root and debootstrap (apt-get install debootstrap).
#   scripts/check-old-glibc.sh [ROOT_DIR=/tmp/occn-bullseye]
set -euo pipefail
cd "$(dirname "$0")/.."
root="${1:-/tmp/occn-bullseye}"
if [[ ! -x "$root/usr/bin/ldd" ]]; then
  debootstrap --variant=minbase bullseye "$root" http://deb.debian.org/debian >/dev/null
fi
mkdir -p "$root/opt/occn" "$root/usr/local/bin"
cp "$(command -v node)" "$root/usr/local/bin/node"
cp index.js package.json openclaw-context-native.linux-x64-gnu.node "$root/opt/occn/"
chroot "$root" ldd --version | head -n 1
chroot "$root" /usr/local/bin/node -e '
  const m = require("/opt/occn/index.js")
  if (m.__napiBindingTarget !== "native") throw new Error("not the native binding")
  const body = "## Decisions\n- keep\n" + "- x\n".repeat(5000)
  const suffix = "\n\n## Recent turns preserved verbatim\n" + "- User: hi\n".repeat(3000)
  const out = m.capCompactionSummaryPreservingSuffix(body, suffix, 16000)
  if (out.length > 16000 || !out.includes("## Decisions")) throw new Error("wrong result")
  console.log(`check-old-glibc: Node ${process.version} loaded the addon and capped ${body.length + suffix.length} -> ${out.length} units`)
' 2>&1 | grep -v "Ignoring extra certs"
