# Pinned downloads, for every script that fetches something (the local platform kit,
# setup-oracle.sh): the download cache, the fetchers (every download is checked against a
# pinned sha256 in pins.sh, debs against apt's signed indexes), logging with timings.
# Sourced; sets $cache.
#
# OCCN_CROSS_CACHE overrides the cache (default: cache-dir.sh's cross folder, outside the
# checkout); it holds only what can be fetched again: deleting it costs a re-download.
set -euo pipefail

dev_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=cache-dir.sh
source "$dev_dir/cache-dir.sh"
cache="$(occn_cache_dir cross)"
mkdir -p "$cache/dl"
# shellcheck source=pins.sh
source "$dev_dir/pins.sh"
# shellcheck source=npm-scratch.sh
source "$dev_dir/npm-scratch.sh"

log() { printf '[%s %s] %s\n' "${log_tag:-download}" "$(date +%H:%M:%S)" "$*" >&2; }
die() { printf '[%s] error: %s\n' "${log_tag:-download}" "$*" >&2; exit 1; }

# timed LABEL CMD...: runs CMD and logs how long it took (CI reads these).
timed() {
  local label="$1" start=$SECONDS status=0
  shift
  "$@" || status=$?
  log "$label: $((SECONDS - start)) s$([[ $status -eq 0 ]] || echo " (FAILED, exit $status)")"
  return "$status"
}

check_sha256() { # FILE SHA256
  local got
  got="$(sha256sum "$1" | cut -d' ' -f1)"
  [[ "$got" == "$2" ]] || die "checksum mismatch for $1: expected $2, got $got (a pin in dev/pins.sh is stale or the download is corrupt)"
}

# A private apt: its own sources, lists and cache under $cache/apt, reading
# Debian's signed indexes. The system's apt state is not touched.
apt_private() {
  local dir="$cache/apt"
  if [[ ! -f "$dir/apt.conf" ]]; then
    mkdir -p "$dir"/{state/lists/partial,cache/archives/partial,etc/sources.list.d,etc/preferences.d,etc/apt.conf.d}
    touch "$dir/state/status"
    local opts="arch=amd64,arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg"
    printf 'deb [%s] %s %s main\n' "$opts" "$DEBIAN_MIRROR" trixie "$opts" "$DEBIAN_MIRROR" trixie-backports \
      "$opts" "$DEBIAN_MIRROR" bookworm > "$dir/etc/sources.list"
    cat > "$dir/apt.conf" <<CONF
Dir::State "$dir/state";
Dir::State::status "$dir/state/status";
Dir::Cache "$dir/cache";
Dir::Etc::SourceList "$dir/etc/sources.list";
Dir::Etc::SourceParts "$dir/etc/sources.list.d";
Dir::Etc::Preferences "$dir/etc/preferences";
Dir::Etc::PreferencesParts "$dir/etc/preferences.d";
Dir::Etc::Parts "$dir/etc/apt.conf.d";
APT::Architecture "amd64";
APT::Architectures { "amd64"; "arm64"; };
Acquire::Languages "none";
APT::Sandbox::User "root";
CONF
  fi
  if [[ ! -f "$dir/updated" ]]; then
    APT_CONFIG="$dir/apt.conf" apt-get -q update >&2 || die "apt-get update (private config $dir/apt.conf) failed"
    touch "$dir/updated"
  fi
  APT_CONFIG="$dir/apt.conf" "$@"
}

# fetch_deb NAME[:ARCH]=VERSION: the .deb into $cache/dl; prints its path.
# apt-get download checks it against the signed Packages index.
fetch_deb() {
  local spec="$1" name="${1%%=*}" version="${1#*=}" arch=amd64 file
  [[ "$name" == *:* ]] && { arch="${name#*:}"; name="${name%%:*}"; }
  # apt names it NAME_VERSION_ARCH.deb, ':' in VERSION as %3a, ARCH 'all' for some.
  local base="${name}_${version//:/%3a}"
  file="$(compgen -G "$cache/dl/${base}_${arch}.deb" || compgen -G "$cache/dl/${base}_all.deb" || true)"
  if [[ -z "$file" ]]; then
    log "fetching deb $spec"
    (cd "$cache/dl" && apt_private apt-get -q download "$spec" >&2) ||
      die "cannot download $spec from Debian (pinned in dev/pins.sh; the suite may have moved on)"
    file="$(compgen -G "$cache/dl/${base}_${arch}.deb" || compgen -G "$cache/dl/${base}_all.deb" || true)"
  fi
  [[ -n "$file" ]] || die "apt-get download $spec did not produce $cache/dl/${base}_${arch}.deb"
  printf '%s\n' "$file"
}

# extract_deb DEB DIR: unpacks the deb's files under DIR (no maintainer scripts).
extract_deb() { mkdir -p "$2" && dpkg-deb -x "$1" "$2"; }

# fetch_npm SPEC SHA256: `npm pack` of SPEC into $cache/dl; prints the tarball path.
# npm runs with a scratch HOME and npm cache under $cache/npm-home (npm-scratch.sh).
fetch_npm() {
  local spec="$1" sha="$2" name file
  name="$(printf '%s' "$spec" | sed -e 's/^@//' -e 's|/|-|' -e 's/@/-/')"
  file="$cache/dl/$name.tgz"
  if [[ ! -f "$file" ]]; then
    log "fetching npm $spec"
    local tmp
    tmp="$(mktemp -d "$cache/dl/.npm.XXXXXX")"
    (cd "$tmp" && scratch_home="$cache/npm-home" npm_scratch pack "$spec" >/dev/null) || die "npm pack $spec failed"
    mv "$tmp"/*.tgz "$file.part" && rmdir "$tmp"
    check_sha256 "$file.part" "$sha"
    mv "$file.part" "$file"
  fi
  check_sha256 "$file" "$sha"
  printf '%s\n' "$file"
}

# fetch_pypi NAME==VERSION PLATFORM SHA256: one wheel into $cache/dl; prints its path.
fetch_pypi() {
  local spec="$1" platform="$2" sha="$3" dir="$cache/dl/pypi-${1/==/-}-$2" file
  if ! compgen -G "$dir/*.whl" >/dev/null; then
    log "fetching PyPI $spec ($platform)"
    rm -rf "$dir.part" && mkdir -p "$dir.part"
    python3 -m pip download -q --no-deps --only-binary=:all: --platform "$platform" \
      --python-version 3.11 -d "$dir.part" "$spec" >&2 || die "pip download $spec ($platform) failed"
    rm -rf "$dir" && mv "$dir.part" "$dir"
  fi
  file="$(compgen -G "$dir/*.whl" | head -n 1)"
  check_sha256 "$file" "$sha"
  printf '%s\n' "$file"
}

# unpack_once ARCHIVE DIR CMD...: runs CMD (which unpacks ARCHIVE into DIR)
# unless DIR was completed before for this very archive.
unpack_once() {
  local archive="$1" dir="$2" stamp
  shift 2
  stamp="$(sha256sum "$archive" | cut -c1-16)"
  [[ -f "$dir/.unpacked-$stamp" ]] && return 0
  rm -rf "$dir" && mkdir -p "$dir"
  "$@"
  touch "$dir/.unpacked-$stamp"
}
