#!/bin/bash
# Measures an ordinary host (`host --accept-new --ui plain`) under a flood from 127.0.0.10-249 (issue 25, item 6):
# the time a real joiner takes to see "game 1:", the host's peak memory (VmHWM) and its log's size.
#   scripts/host-flood.sh pending [COUNT]   the benchmark's abuse client: COUNT (500) connections that finish TLS
#                                           and never say hello, opened again as soon as they are dropped
#   scripts/host-flood.sh silent [PER]      scripts/silent-flood.py: PER (32) silent connections per address
# TICTACTOE and BENCH name the binaries (default .build/debug/...); WAIT the seconds before the joiner (3);
# ROLE=bot floods the practice bot (`host --bot easy --accept-new`) instead.
set -u
KIND=${1:-pending}; N=${2:-}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${TICTACTOE:-$ROOT/.build/debug/tictactoe}; BENCH=${BENCH:-$ROOT/.build/debug/tictactoe-bench}
D=$(mktemp -d); J=$(mktemp -d)
mkfifo "$D/in" "$J/in"
sleep 60 > "$D/in" & HOLD1=$!
sleep 60 > "$J/in" & HOLD2=$!
if [ "${ROLE:-host}" = bot ]; then AS=(--bot easy); else AS=(--ui plain --keep-hosting); fi
XDG_DATA_HOME=$D/data XDG_STATE_HOME=$D/state XDG_CONFIG_HOME=$D/config HOME=$D \
  "$BIN" host "${AS[@]}" --port 0 --bind 127.0.0.1 --accept-new < "$D/in" > "$D/out" 2> "$D/err" &
HP=$!
for _ in $(seq 100); do grep -q " on port " "$D/out" && break; sleep 0.1; done
PORT=$(grep -o " on port [0-9]*" "$D/out" | grep -o "[0-9]*$")
if [ "$KIND" = silent ]; then
  python3 "$ROOT/scripts/silent-flood.py" "$PORT" "${N:-32}" 25 > "$D/flood" & FP=$!
else
  timeout 25 "$BENCH" --abuse-probe pending "$PORT" "${N:-500}" > "$D/flood" & FP=$!
fi
sleep "${WAIT:-3}"
T0=$(date +%s.%N)
XDG_DATA_HOME=$J/data XDG_STATE_HOME=$J/state XDG_CONFIG_HOME=$J/config HOME=$J \
  "$BIN" join "127.0.0.1:$PORT" --ui plain --accept-new --name joy < "$J/in" > "$J/out" 2> "$J/err" &
JP=$!
for _ in $(seq 400); do grep -q "game 1:" "$J/out" && break; kill -0 $JP 2>/dev/null || break; sleep 0.1; done
T1=$(date +%s.%N)
if grep -q "game 1:" "$J/out"; then echo "joiner in after $(echo "$T1 - $T0" | bc) s"; else echo "joiner not in: $(tail -n 1 "$J/err")"; fi
wait $FP
LOG=$D/state/tictactoe/tictactoe.log
echo "host: $(grep VmHWM /proc/$HP/status), log $(stat -c %s "$LOG") bytes"
kill $JP $HP $HOLD1 $HOLD2 2>/dev/null
sleep 0.5; rm -rf "$D" "$J"
