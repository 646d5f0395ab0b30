#!/bin/sh
# Builds the benchmark and the game in release mode and prints the table of figures (docs/BENCHMARKS.md
# explains them).
# Usage: scripts/bench.sh [--private-network] [--smoke] [--only GROUP,...] [--idle-seconds S] [--openings N]
#   [--strength-parts PART,...] [--move-ms MS]
#   --smoke: a few iterations of everything, to check that it still runs.
#   --only: those groups only; the avahi-daemon, the packaged binary and the strength engines are set up only
#   for groups that use them (`--only bot,abuse,watch` needs none of them).
# Discovery is measured against an avahi-daemon: this starts one confined to the loopback interface (or uses the
# one already running) and stops only what it started.
set -eu
cd "$(dirname "$0")/.."
# --private-network (as root): run everything in a network namespace with only loopback and a mount namespace
# with its own /run/dbus, so the D-Bus system bus and avahi-daemon are the benchmark's own: nothing else on the
# machine (other programs browsing or advertising) can wake the game during the idle windows or disturb
# discovery. Without it the machine's bus and daemon are used when they run.
if [ "${1:-}" = "--private-network" ]; then
  shift
  mkdir -p /run/dbus /run/avahi-daemon
  exec unshare --net --mount sh -c \
    'ip link set lo up && mount -t tmpfs tmpfs /run/dbus && mount -t tmpfs tmpfs /run/avahi-daemon && exec "$0" "$@"' \
    "$0" "$@"
fi
swift build -c release
# The groups asked for (all when there is no --only): what they do not need is not set up.
only=""
previous=""
for argument in "$@"; do
  if [ "$previous" = "--only" ]; then only=",$argument,"; fi
  previous=$argument
done
wants() { [ -z "$only" ] || case "$only" in *",$1,"*) true ;; *) false ;; esac; }
# Groups that run no lobby and no advertising host, or keep theirs off the bus: they need no avahi-daemon.
needs_avahi=false
for group in idle first-frame discovery dead-peer junk package relay; do
  if wants "$group"; then needs_avahi=true; fi
done
if [ "$needs_avahi" = true ]; then
  avahi_dir=.build/bench-avahi
  scripts/avahi-test-daemon.sh start "$avahi_dir" >&2
  trap 'scripts/avahi-test-daemon.sh stop "$avahi_dir" >&2' EXIT
fi
trap 'exit 130' INT TERM
# The binary the Debian package installs (static standard library, stripped), for the package rows.
if wants package; then
  scripts/install.sh --prefix /usr --destdir .build/bench-packaged --bindir /usr/games >/dev/null
  export TICTACTOE_PACKAGED_BIN="$PWD/.build/bench-packaged/usr/games/tictactoe"
fi
# The outside engines of the strength group (PyPI packages in cached venvs, run through brain adapters).
if wants strength; then
  TICTACTOE_STRENGTH_ENGINES="$(scripts/setup-strength.sh)"
  export TICTACTOE_STRENGTH_ENGINES
fi
"$(swift build -c release --show-bin-path)/tictactoe-bench" "$@"
