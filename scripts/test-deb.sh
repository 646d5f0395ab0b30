#!/usr/bin/env bash
# Tests the Debian package as a player meets it, on a bare Debian 12 root with no Swift (mmdebstrap
# --variant=apt, in a chroot): builds the package (and an older one from the same binary), checks it with
# lintian, then in the root installs the older one with apt-get (which pulls the dependencies), plays, upgrades
# to the newer one over it, plays again with the player's files from before, completes in bash, and purges.
#
#   scripts/test-deb.sh [--keep]      (root; --keep leaves the root directory for a look afterwards)
#
# Network: apt-get in the root fetches from Debian's archive (the one place a test goes off the machine); the
# games run on 127.0.0.1. The chroot shares this machine's network, so nothing may start a daemon there: a
# policy-rc.d refuses every service start, and the package's Recommends (avahi-daemon) is not installed (apt is
# asked what it would install instead). Without an avahi-daemon the game says LAN discovery is unavailable.
set -euo pipefail
cd "$(dirname "$0")/.."

keep=false
[ "${1:-}" = --keep ] && keep=true
[ "$(id -u)" -eq 0 ] || { echo "test-deb.sh: needs root (mmdebstrap and chroot)" >&2; exit 77; }
for tool in mmdebstrap lintian dpkg-shlibdeps; do
  command -v "$tool" >/dev/null || { echo "test-deb.sh: needs $tool (scripts/setup.sh installs it)" >&2; exit 77; }
done

work=$(mktemp -d "${TMPDIR:-/tmp}/tictactoe-deb-test.XXXXXX")
root=$work/root
mounted=()
cleanup() {
  local status=$?
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
  if $keep; then echo "test-deb.sh: the root is kept in $root" >&2; else rm -rf "$work"; fi
  exit "$status"
}
trap cleanup EXIT
step() { echo "test-deb.sh: $*"; }
fail() {
  echo "test-deb.sh: FAILED: $*" >&2
  exit 1
}
# in ROOT-COMMAND...: runs a command in the root as root; as USER: as that player, in their home.
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin:/usr/games LANG=C.UTF-8 "$@"; }
as() {
  local user=$1
  shift
  chroot --userspec="$user:$user" "$root" env -i HOME="/home/$user" USER="$user" LANG=C.UTF-8 \
    PATH=/usr/bin:/bin:/usr/games AVAHI_COMPAT_NOWARN=1 "$@"
}
# as_exec USER COMMAND...: the same in place of the calling (sub)shell, so that `as_exec ... &` gives the
# program's own PID in $! (chroot and env exec it) and a kill reaches the program itself.
as_exec() {
  local user=$1
  shift
  exec chroot --userspec="$user:$user" "$root" env -i HOME="/home/$user" USER="$user" LANG=C.UTF-8 \
    PATH=/usr/bin:/bin:/usr/games AVAHI_COMPAT_NOWARN=1 "$@"
}

step "building the package and an older one from the same binary"
new=$(scripts/package-deb.sh --output "$work/dist")
version=$(dpkg-deb -f "$new" Version)
old=$(scripts/package-deb.sh --output "$work/dist" --binary .build/install/release/tictactoe --version "$version~older1")
dpkg --compare-versions "$version~older1" lt "$version" || fail "the older package is not older"

step "lintian"
lintian --fail-on error,warning "$new" || fail "lintian found errors or warnings"

step "checking the binary: stripped, no RUNPATH, hardened, no Swift library needed"
dpkg-deb -x "$new" "$work/contents"
binary=$work/contents/usr/games/tictactoe
file "$binary" | grep -q 'stripped' && ! file "$binary" | grep -q 'not stripped' || fail "the binary is not stripped"
! readelf -d "$binary" | grep -qE 'RUNPATH|RPATH' || fail "the binary has a RUNPATH"
readelf -d "$binary" | grep -q 'BIND_NOW' || fail "the binary is not linked with -z now"
readelf -l "$binary" | grep -q 'GNU_RELRO' || fail "the binary has no RELRO segment"
readelf -h "$binary" | grep -q 'DYN (Position-Independent' || fail "the binary is not PIE"
! readelf -d "$binary" | grep -qi 'swift' || fail "the binary needs a Swift library"

step "scripts/install.sh --prefix and --uninstall"
prefix=$work/prefix
scripts/install.sh --prefix "$prefix" --binary .build/install/release/tictactoe >"$work/install.log"
for file in bin/tictactoe share/man/man6/tictactoe.6.gz share/bash-completion/completions/tictactoe \
  share/zsh/site-functions/_tictactoe share/fish/vendor_completions.d/tictactoe.fish \
  share/doc/tictactoe/README.md.gz share/doc/tictactoe/copyright; do
  [ -f "$prefix/$file" ] || fail "install.sh did not install $file"
done
[ "$("$prefix/bin/tictactoe" --version)" = "tictactoe $version" ] || fail "the installed binary's --version"
scripts/install.sh --uninstall --prefix "$prefix" >/dev/null
left=$(find "$prefix" -type f)
[ -z "$left" ] || fail "install.sh --uninstall left $left"

step "making a bare Debian 12 root (mmdebstrap --variant=apt)"
mmdebstrap --quiet --variant=apt bookworm "$root" http://deb.debian.org/debian
mount -t proc proc "$root/proc" && mounted+=("$root/proc")
mount --bind /dev "$root/dev" && mounted+=("$root/dev")
mount --bind /dev/pts "$root/dev/pts" && mounted+=("$root/dev/pts")
cp /etc/resolv.conf "$root/etc/resolv.conf"
printf '#!/bin/sh\n# test-deb.sh: no service starts in this chroot (it shares the machine'"'"'s network).\nexit 101\n' \
  >"$root/usr/sbin/policy-rc.d"
chmod 0755 "$root/usr/sbin/policy-rc.d"
[ ! -e "$root/opt/swift" ] && ! in_root sh -c 'command -v swift' >/dev/null || fail "the root has Swift"
in_root useradd --create-home --shell /bin/bash player
in_root useradd --create-home --shell /bin/bash friend

step "apt-get install ./$(basename "$old") (the older package)"
cp "$old" "$new" "$root/tmp/"
in_root apt-get update -q >"$work/apt-update.log" || { cat "$work/apt-update.log"; fail "apt-get update"; }
in_root apt-get install --simulate "/tmp/$(basename "$old")" | grep -q '^Inst avahi-daemon' ||
  fail "apt would not install the recommended avahi-daemon"
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
  "/tmp/$(basename "$old")" >"$work/apt-install.log" || { cat "$work/apt-install.log"; fail "apt-get install"; }
in_root dpkg -s libssl3 libncursesw6 libavahi-compat-libdnssd1 >/dev/null || fail "a dependency was not pulled in"
! in_root ldd /usr/games/tictactoe | grep -q 'not found' || fail "a library the binary needs is missing"
[ "$(as player tictactoe --version)" = "tictactoe $version" ] || fail "tictactoe --version"

step "the practice bot's systemd unit: installed, and disabled"
unit=/lib/systemd/system/tictactoe-bot.service
[ -f "$root$unit" ] || fail "the package did not install $unit"
cmp -s "$root$unit" Assets/debian/tictactoe-bot.service || fail "$unit is not Assets/debian/tictactoe-bot.service"
in_root dpkg -S "$unit" | grep -q '^tictactoe:' || fail "$unit does not belong to the package"
[ -z "$(find "$root/etc/systemd" -name 'tictactoe-bot.service' 2>/dev/null)" ] || fail "the unit was enabled"

step "a plain game against the computer"
printf '1\n2\n3\n4\n5\n6\n7\n8\n9\n' | as player tictactoe play --ui plain --ai easy >"$work/play.out" ||
  fail "the plain game (status $?): $(tail -3 "$work/play.out")"
grep -qE '^result: (X wins|O wins|draw)$' "$work/play.out" || fail "the plain game has no result"

# join_bot ARGS...: a practice bot (friend) on 127.0.0.1, joined by the player in plain mode with every cell as
# input, then `quit` once the match line appears; prints the joiner's output.
join_bot() {
  local port=$1 output=$work/join-$1.out
  shift
  as_exec friend tictactoe host --bot easy --port "$port" --bind 127.0.0.1 --accept-new >"$work/bot-$port.out" 2>&1 &
  local bot=$!
  for _ in $(seq 100); do grep -q '^Key: ' "$work/bot-$port.out" && break; sleep 0.1; done
  : >"$output"
  {
    printf '1\n2\n3\n4\n5\n6\n7\n8\n9\n'
    for _ in $(seq 200); do grep -q '^match: ' "$output" && break; sleep 0.1; done
    echo quit
  } | as player timeout 60 tictactoe join "127.0.0.1:$port" --ui plain "$@" >"$output" 2>&1 || true
  kill -TERM "$bot"
  wait "$bot" || fail "the bot did not stop cleanly on SIGTERM (status $?): $(tail -3 "$work/bot-$port.out")"
  grep -q '^match: ' "$output" ||
    fail "the networked game did not finish: $(tail -5 "$output"); the host said: $(tail -5 "$work/bot-$port.out")"
  cat "$output"
}

step "a host (the practice bot) and a join over loopback, trusting on first use"
join_bot 47177 --accept-new >/dev/null
fingerprint=$(as player tictactoe identity show | head -1)
[ -s "$root/home/player/.local/share/tictactoe/known_peers" ] || fail "the joiner did not remember the host"

step "upgrading to $version over the older package"
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
  "/tmp/$(basename "$new")" >"$work/apt-upgrade.log" || { cat "$work/apt-upgrade.log"; fail "the upgrade"; }
[ "$(in_root dpkg-query -W -f '${Version}' tictactoe)" = "$version" ] || fail "the upgrade did not install $version"
[ "$(as player tictactoe identity show | head -1)" = "$fingerprint" ] || fail "the identity changed on upgrade"
step "the same host again, now known: joined without --accept-new"
join_bot 47178 | grep -q 'opponent: friend' || fail "the known host was not let in after the upgrade"

step "man 6 tictactoe"
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends man-db bash-completion \
  >"$work/apt-tools.log" || { cat "$work/apt-tools.log"; fail "installing man-db and bash-completion"; }
as player man -P cat 6 tictactoe 2>/dev/null | grep -q 'completions SHELL' || fail "man 6 tictactoe"

step "bash completes tictactoe ho<TAB> to host (bash-completion loading the installed script; h is host or help)"
completed=$(as player bash --norc --noprofile -c '
  source /usr/share/bash-completion/bash_completion
  _completion_loader tictactoe
  function=$(complete -p tictactoe | sed -n "s/.*-F \([^ ]*\) .*/\1/p")
  COMP_WORDS=(tictactoe ho); COMP_CWORD=1; COMPREPLY=()
  "$function" tictactoe ho tictactoe
  echo "${COMPREPLY[*]}"')
[ "$completed" = host ] || fail "bash completed tictactoe ho to \"$completed\""

step "apt-get purge removes every file the package installed and leaves the player's"
in_root dpkg-query -L tictactoe >"$work/files"
in_root env DEBIAN_FRONTEND=noninteractive apt-get purge -y -q tictactoe >"$work/apt-purge.log" ||
  fail "apt-get purge"
while read -r path; do
  [ -f "$root$path" ] && fail "$path is left after the purge"
done <"$work/files"
[ ! -e "$root/usr/share/doc/tictactoe" ] || fail "/usr/share/doc/tictactoe is left after the purge"
for file in identity/identity.crt identity/identity.key known_peers; do
  [ -e "$root/home/player/.local/share/tictactoe/$file" ] || fail "the player's $file went with the package"
done
step "passed"
