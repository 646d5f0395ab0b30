#!/bin/sh
# Builds the benchmark in release mode and prints the table of figures (docs/BENCHMARKS.md explains them).
# Usage: scripts/bench.sh [--smoke]     --smoke: a few iterations of everything, to check that it still runs.
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product tictactoe-bench
swift build -c release --product tictactoe  # the bot host the load benchmark starts
exec "$(swift build -c release --show-bin-path)/tictactoe-bench" "$@"
