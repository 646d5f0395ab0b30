#!/usr/bin/env bash
# Builds tictactoe_VERSION_amd64.deb with dpkg-deb: a release build with the Swift standard library linked
# statically, so the package needs no Swift toolchain, only Debian's libraries (its Depends are computed by
# dpkg-shlibdeps from what the binary links).
#
#   scripts/package-deb.sh [--output DIR] [--version V] [--binary FILE]
#
#   --output DIR   where the .deb goes (default dist/); its path is printed on the last line
#   --version V    the package's version (default: the binary's own, from `tictactoe --version`); a version
#                  other than Assets/debian/changelog's latest gets an entry there saying it is a test build
#   --binary FILE  package this binary (built by scripts/install.sh) instead of building one
#
# The Maintainer is $DEBFULLNAME <$DEBEMAIL> when both are set, else that of Assets/debian/changelog's latest
# entry.
# Needs dpkg-dev (dpkg-shlibdeps, dpkg-parsechangelog) and binutils (strip); lintian checks the result:
#   lintian --fail-on error,warning dist/tictactoe_*_amd64.deb
set -euo pipefail
cd "$(dirname "$0")/.."

output=dist version="" binary=()
while (($#)); do
  case $1 in
    --output) output=$2; shift 2 ;;
    --version) version=$2; shift 2 ;;
    --binary) binary=(--binary "$2"); shift 2 ;;
    -h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "package-deb.sh: unknown option $1 (try --help)" >&2; exit 64 ;;
  esac
done
[ "$(dpkg --print-architecture)" = amd64 ] || { echo "package-deb.sh: builds amd64 only" >&2; exit 69; }

work=$(mktemp -d "${TMPDIR:-/tmp}/tictactoe-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
root=$work/root
scripts/install.sh --prefix /usr --destdir "$root" --bindir /usr/games --zsh-dir /usr/share/zsh/vendor-completions \
  "${binary[@]}" >/dev/null
binary_version=$("$root/usr/games/tictactoe" --version | sed -n 's/^tictactoe //p')
version=${version:-$binary_version}
changelog_version=$(dpkg-parsechangelog -l Assets/debian/changelog -S Version)
maintainer=$(dpkg-parsechangelog -l Assets/debian/changelog -S Maintainer)
if [ -n "${DEBFULLNAME:-}" ] && [ -n "${DEBEMAIL:-}" ]; then maintainer="$DEBFULLNAME <$DEBEMAIL>"; fi

# A native package's changelog: Assets/debian/changelog, with an entry on top for a version it lacks.
doc=$root/usr/share/doc/tictactoe
{
  if [ "$version" != "$changelog_version" ]; then
    printf 'tictactoe (%s) unstable; urgency=medium\n\n' "$version"
    printf '  * A test build of %s, packaged as %s.\n\n' "$binary_version" "$version"
    printf ' -- %s  %s\n\n' "$maintainer" "$(date -R -u)"
  fi
  cat Assets/debian/changelog
} | gzip -9n >"$doc/changelog.gz"
chmod 0644 "$doc/changelog.gz"

# The practice bot's systemd unit (docs/DEPLOY.md), shipped disabled: no maintainer script enables or starts it.
install -d -m 0755 "$root/lib/systemd/system"
install -m 0644 Assets/debian/tictactoe-bot.service "$root/lib/systemd/system/tictactoe-bot.service"

# lintian's overrides, each with its reason beside it.
install -d -m 0755 "$root/usr/share/lintian/overrides"
install -m 0644 Assets/debian/lintian-overrides "$root/usr/share/lintian/overrides/tictactoe"

# Depends from the libraries the binary links, as dpkg-shlibdeps finds their packages.
mkdir -p "$work/shlibs/debian"
printf 'Source: tictactoe\n\nPackage: tictactoe\nArchitecture: amd64\n' >"$work/shlibs/debian/control"
depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O -e "$root/usr/games/tictactoe" 2>/dev/null |
  sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "package-deb.sh: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

mkdir -p "$root/DEBIAN"
cat >"$root/DEBIAN/control" <<EOF
Package: tictactoe
Version: $version
Architecture: amd64
Maintainer: $maintainer
Installed-Size: $(du -k -s --exclude=DEBIAN "$root" | cut -f1)
Depends: $depends
Recommends: avahi-daemon
Section: games
Priority: optional
Description: tic-tac-toe and gomoku in the terminal, over TLS on the LAN or the internet
 Tic-tac-toe and its bigger cousins, boards from 3x3 to 15x15 with three to
 fifteen in a row to win, in a full-screen ncurses interface or line by line:
 against the computer at three levels, two players on one keyboard, or two
 players over the network.
 .
 Network games run over TLS 1.3 with both players' certificates; peers are
 trusted by key (trust on first use, a pinned key, or a CA the players choose)
 and can compare a verification code aloud. Games on the local network are
 found by DNS-SD (Avahi); others are joined by address or host name.
EOF
(cd "$root" && find lib usr -type f -print0 | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

mkdir -p "$output"
deb=$output/tictactoe_${version}_amd64.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
