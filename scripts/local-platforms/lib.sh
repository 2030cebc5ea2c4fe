# Sourced by the scripts of the local platform kit (scripts/local-platforms/): where the kit
# and the checkout are, and the pinned downloads (dev/pinned-downloads.sh: the cache, the
# fetchers, log/die/timed, whose lines read "[platforms …]").
set -euo pipefail

kit_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo_root="$(cd "$kit_dir/../.." && pwd)"
log_tag=platforms
# shellcheck source=../../dev/pinned-downloads.sh
source "$repo_root/dev/pinned-downloads.sh"
