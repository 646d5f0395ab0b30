#!/bin/sh
# Builds the benchmark and the game in release mode and prints the table of figures (docs/BENCHMARKS.md
# explains them).
# Usage: scripts/bench.sh [--smoke] [--only GROUP,...] [--idle-seconds S]
#   --smoke: a few iterations of everything, to check that it still runs.
# Discovery is measured against an avahi-daemon: this starts one confined to the loopback interface (or uses the
# one already running) and stops only what it started.
set -eu
cd "$(dirname "$0")/.."
swift build -c release
avahi_dir=.build/bench-avahi
scripts/avahi-test-daemon.sh start "$avahi_dir" >&2
trap 'scripts/avahi-test-daemon.sh stop "$avahi_dir" >&2' EXIT
trap 'exit 130' INT TERM
"$(swift build -c release --show-bin-path)/tictactoe-bench" "$@"
