#!/usr/bin/env bash
# Runs the README's test command (scripts/test.sh, under CI=true) on a bare Debian 12 root, as a new machine
# would be: mmdebstrap --variant=apt, plus only what installing Swift itself needs (the toolchain's own
# prerequisites, as swift.org lists them for Debian 12), and this machine's toolchain in /opt/swift, mounted
# read-only. Everything else the suite needs must come from scripts/setup.sh. As root; takes about a quarter
# of an hour on 2 cores.
#
#   scripts/bare-root-test.sh [--keep]    (--keep leaves the root directory for a look afterwards)
#
# The root shares this machine's network (a chroot), so the suite's own rules hold: its avahi-daemon is
# confined to lo and its network-namespace hosts are blocked in the root namespace first. apt and pip fetch
# from Debian's archive and PyPI.
set -euo pipefail
cd "$(dirname "$0")/.."

keep=false
[ "${1:-}" = --keep ] && keep=true
[ "$(id -u)" -eq 0 ] || { echo "bare-root-test.sh: needs root" >&2; exit 77; }
command -v mmdebstrap >/dev/null || { echo "bare-root-test.sh: needs mmdebstrap" >&2; exit 77; }
[ -x /opt/swift/usr/bin/swift ] || { echo "bare-root-test.sh: needs a Swift toolchain in /opt/swift" >&2; exit 77; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tictactoe-bare-root.XXXXXX")
root=$work/root
mounted=()
cleanup() {
  local status=$?
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
  if $keep; then echo "bare-root-test.sh: the root is kept in $root" >&2; else rm -rf "$work"; fi
  exit "$status"
}
trap cleanup EXIT

# What the Swift toolchain itself needs on Debian 12 (not the game: that is scripts/setup.sh's job).
swift_needs=binutils,gcc,git,libc6-dev,libcurl4-openssl-dev,libedit2,libgcc-12-dev,libpython3-dev,libsqlite3-0
swift_needs+=,libstdc++-12-dev,libxml2-dev,libz3-dev,pkg-config,tzdata,zlib1g-dev,uuid-dev
echo "bare-root-test.sh: making the root (mmdebstrap --variant=apt, with Swift's prerequisites)"
mmdebstrap --quiet --variant=apt --include="$swift_needs" bookworm "$root" http://deb.debian.org/debian

# The root is a mount point of its own, so that `unshare -m` works inside it (PLATFORM.md).
mount --bind "$root" "$root" && mounted+=("$root")
mount -t proc proc "$root/proc" && mounted+=("$root/proc")
mount -t sysfs sysfs "$root/sys" && mounted+=("$root/sys")
mount --bind /dev "$root/dev" && mounted+=("$root/dev")
mount --bind /dev/pts "$root/dev/pts" && mounted+=("$root/dev/pts")
mkdir -p "$root/opt/swift"
mount --bind -o ro /opt/swift "$root/opt/swift" && mounted+=("$root/opt/swift")
cp /etc/resolv.conf "$root/etc/resolv.conf"
# This machine's own network settings, which a new machine of its kind has too: local CA certificates (an
# egress proxy's; ca-certificates adds them to the store when setup.sh installs it) and pip's configuration
# (pip checks against certifi, not the system store, unless told).
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  mkdir -p "$root/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
fi
[ ! -f /etc/pip.conf ] || cp /etc/pip.conf "$root/etc/pip.conf"
# No service starts in the root: it shares this machine's network, and the avahi-daemon that setup.sh installs
# would otherwise start with Debian's configuration and announce on every interface. (The suite starts its
# own, confined to lo.)
printf '#!/bin/sh\n# bare-root-test.sh: no service starts here (the root shares the network).\nexit 101\n' \
  >"$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"

# The committed tree, as a fresh clone has it.
mkdir -p "$root/work/tictactoe"
git archive HEAD | tar -x -C "$root/work/tictactoe"

echo "bare-root-test.sh: CI=true ./scripts/test.sh in the root"
chroot "$root" env -i PATH=/opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  HOME=/root LANG=C.UTF-8 TERM=xterm CI=true bash -c 'cd /work/tictactoe && ./scripts/test.sh'
echo "bare-root-test.sh: passed"
