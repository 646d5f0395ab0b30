#!/bin/sh
# Makes a cached venv for each outside engine the strength benchmark plays (PyPI packages, each in a venv of its
# own: several of them install a top-level module named `gomoku`), and prints the value of
# TICTACTOE_STRENGTH_ENGINES that names them ("NAME|COMMAND WORDS;..."), each run through a brain adapter in
# scripts/strength/ written for the benchmark. Progress goes to stderr.
set -eu
cd "$(dirname "$0")/.."
base="$PWD/.build/strength-engines"
mkdir -p "$base"
venv() { # venv NAME PACKAGE==VERSION: the venv's python, made on first use
  if [ ! -x "$base/$1/bin/python" ] || ! "$base/$1/bin/python" -c "import sys" 2>/dev/null; then
    echo "setup-strength: making a venv for $2" >&2
    python3 -m venv "$base/$1" >&2
    "$base/$1/bin/pip" install -q "$2" >&2
  fi
  echo "$base/$1/bin/python"
}
gomokubench=$(venv gomokubench gomokubench==0.1.10)
pygomoku=$(venv pygomoku pygomoku==1.0.0)
terminal=$(venv gomoku-terminal gomoku-terminal==1.0.2)
threats=$(venv gomoku-threat-space gomoku==0.1.0)
s="$PWD/scripts/strength"
printf '%s' "gomoku 0.1.0 (threat-space search)|$threats $s/gomoku_threat_space_brain.py"
printf '%s' ";gomokubench 0.1.10 (standard: depth 2, 10 candidates)|$gomokubench $s/gomokubench_brain.py standard"
printf '%s' ";gomoku-terminal 1.0.2 (GomokuAI hard: minimax)|$terminal $s/gomoku_terminal_brain.py hard"
printf '%s' ";pygomoku 1.0.0 (AlphaBetaHeuristic, depth 1)|$pygomoku $s/pygomoku_brain.py 1"
echo
