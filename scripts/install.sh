#!/usr/bin/env bash
# Builds tictactoe for release and installs it with its man page, shell completions and documentation, for
# systems without the Debian package (scripts/package-deb.sh uses this too, with Debian's places).
#
#   scripts/install.sh [--prefix DIR] [--destdir DIR] [--bindir DIR] [--zsh-dir DIR] [--binary FILE]
#   scripts/install.sh --uninstall [--prefix DIR] [--bindir DIR] [--zsh-dir DIR]
#
#   --prefix DIR   where it goes (default /usr/local): DIR/bin/tictactoe, DIR/share/man/man6/tictactoe.6.gz,
#                  DIR/share/bash-completion/completions/tictactoe, DIR/share/zsh/site-functions/_tictactoe,
#                  DIR/share/fish/vendor_completions.d/tictactoe.fish, DIR/share/doc/tictactoe/
#   --destdir DIR  stage the files under DIR instead (DIR/PREFIX/...), as packagers do
#   --bindir DIR   the binary's directory (default PREFIX/bin; the Debian package uses /usr/games)
#   --zsh-dir DIR  the zsh completion's directory (default PREFIX/share/zsh/site-functions)
#   --binary FILE  install this binary instead of building one
#   --uninstall    remove exactly the files an install with the same options put there (a player's own files,
#                  under ~/.config, ~/.local/share and ~/.local/state, are theirs and stay)
#
# The build links the Swift standard library statically: the binary needs only Debian's (or the system's)
# OpenSSL, ncursesw and Avahi DNS-SD compatibility libraries, not the Swift toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."

prefix=/usr/local destdir="" bindir="" zshdir="" binary="" uninstall=false
while (($#)); do
  case $1 in
    --prefix) prefix=$2; shift 2 ;;
    --destdir) destdir=$2; shift 2 ;;
    --bindir) bindir=$2; shift 2 ;;
    --zsh-dir) zshdir=$2; shift 2 ;;
    --binary) binary=$2; shift 2 ;;
    --uninstall) uninstall=true; shift ;;
    -h | --help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option $1 (try --help)" >&2; exit 64 ;;
  esac
done
case $prefix in /*) ;; *) echo "install.sh: --prefix must be an absolute path, not $prefix" >&2; exit 64 ;; esac
bindir=${bindir:-$prefix/bin}
zshdir=${zshdir:-$prefix/share/zsh/site-functions}
mandir=$prefix/share/man/man6
bashdir=$prefix/share/bash-completion/completions
fishdir=$prefix/share/fish/vendor_completions.d
docdir=$prefix/share/doc/tictactoe

# Every file installed, relative to the root: what --uninstall removes.
files=("$bindir/tictactoe" "$mandir/tictactoe.6.gz" "$bashdir/tictactoe" "$zshdir/_tictactoe"
  "$fishdir/tictactoe.fish" "$docdir/README.md.gz" "$docdir/copyright")

if $uninstall; then
  for file in "${files[@]}"; do
    if [ -e "$destdir$file" ]; then rm -f "$destdir$file" && echo "removed $destdir$file"; fi
  done
  rmdir "$destdir$docdir" 2>/dev/null || true
  exit 0
fi

if [ -z "$binary" ]; then
  # Hardened as Debian's dpkg-buildflags would (PIE is the toolchain's default): relro and bind now, and the C
  # parts (the shims' inline functions) stack-protected. _FORTIFY_SOURCE cannot be given to the C importer: the
  # glibc headers then differ between clang modules ("'realpath' has different definitions in different
  # modules"). No RUNPATH: nothing is loaded from beside the binary.
  swift build -c release --product tictactoe --static-swift-stdlib --disable-local-rpath --scratch-path .build/install \
    -Xlinker -z -Xlinker relro -Xlinker -z -Xlinker now -Xcc -fstack-protector-strong >&2
  binary=.build/install/release/tictactoe
fi

install -d -m 0755 "$destdir$bindir"
install -m 0755 "$binary" "$destdir$bindir/tictactoe"
# What Debian's dh_strip does: no symbol tables, no .comment or .note sections (the Swift metadata stays).
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$destdir$bindir/tictactoe"
install -d -m 0755 "$destdir$mandir"
gzip -9n <Assets/tictactoe.6 >"$destdir$mandir/tictactoe.6.gz"
chmod 0644 "$destdir$mandir/tictactoe.6.gz"
for shell in bash zsh fish; do
  case $shell in
    bash) file=$bashdir/tictactoe ;;
    zsh) file=$zshdir/_tictactoe ;;
    fish) file=$fishdir/tictactoe.fish ;;
  esac
  install -d -m 0755 "$destdir$(dirname "$file")"
  "$destdir$bindir/tictactoe" completions "$shell" >"$destdir$file"
  chmod 0644 "$destdir$file"
done
install -d -m 0755 "$destdir$docdir"
gzip -9n <README.md >"$destdir$docdir/README.md.gz"
chmod 0644 "$destdir$docdir/README.md.gz"
install -m 0644 Assets/debian/copyright "$destdir$docdir/copyright"
for file in "${files[@]}"; do echo "installed $destdir$file"; done
