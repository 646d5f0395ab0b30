#!/bin/sh
# Makes the perfect level's table of early plies for 5×5 with 4 in a row (Sources/GameCore/ExactOpenings5x5.swift):
# every position it can meet on its own turn in the first 7 plies, playing first or second, solved by LineSolver.
# Took 2.2 s of CPU here (docs/ENGINES.md); the table holds 1,930 positions.
set -eu
cd "$(dirname "$0")/.."
swift build -c release --product tictactoe-bench
out=Sources/GameCore/ExactOpenings5x5.swift
.build/release/tictactoe-bench --make-exact-openings 5 5 4 7 fiveByFiveFour > "$out.new"
mv "$out.new" "$out"
echo "wrote $out"
