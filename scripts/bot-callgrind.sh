#!/bin/bash
# The practice bot's cost per answered move counted, not timed: the bot runs under callgrind (valgrind) in the
# benchmark's bot group with 1,000 games, counting nothing until the ramp-up is over and then SECONDS seconds:
# the rest of the saturated run and the paced one, which under valgrind is saturation too (its 1,000 games offer
# about 5,000 moves a second, and the bot under valgrind answers about 700). It prints instructions, simulated
# first-level and last-level cache misses (a 2 MiB last level, as one core's L2 here) and allocations, per
# answered move. Counts move by a few per cent between runs (how games batch), where the timed benchmark moves by
# more than ten: use it to compare two builds' work, and the timed one for their time.
#
#   scripts/bot-callgrind.sh [SECONDS]     (default 12, at most 14; needs valgrind)
#   BOT_BINARY=/some/tictactoe scripts/bot-callgrind.sh     counts that build of the bot instead of this tree's
#
# Writes callgrind's file to /tmp/bot-callgrind.out for callgrind_annotate. BENCHMARKS.md, 2026-12-05.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-12}
# The paced run ends about 15 s after the ramp-up, and the benchmark stops the bot.
[ "$seconds" -ge 1 ] && [ "$seconds" -le 14 ] || { echo "SECONDS must be from 1 to 14" >&2; exit 1; }
command -v valgrind > /dev/null || { echo "valgrind is not installed: sudo apt-get install valgrind" >&2; exit 1; }
[ -n "${BOT_BINARY:-}" ] || swift build -c release --product tictactoe > /dev/null
swift build -c release --product tictactoe-bench > /dev/null
work=$(mktemp -d /tmp/bot-callgrind-XXXXXX)
bench=""
benchdir=""
cleanup() {
  # The servers the benchmark runs now: the bot under valgrind, or (after a long count) the next one it started.
  local servers="${bot:-}" dirs="$benchdir" pid home
  if [ -n "$bench" ]; then
    for pid in $(pgrep -P "$bench" || true); do
      servers="$servers $pid"
      home=$(tr '\0' '\n' < "/proc/$pid/environ" 2> /dev/null | sed -n 's/^HOME=//p' || true)
      dirs="$dirs $home"
    done
    kill "$bench" 2> /dev/null || true
  fi
  for pid in $servers; do
    # The bot says goodbye to its games on SIGTERM, slowly under valgrind: given 10 s, then killed.
    kill "$pid" 2> /dev/null || true
    for _ in $(seq 1 100); do
      kill -0 "$pid" 2> /dev/null || break
      sleep 0.1
    done
    kill -9 "$pid" 2> /dev/null || true
  done
  # A benchmark stopped half way leaves its servers' directories (each server's HOME).
  for home in $dirs; do
    case "$home" in /tmp/tictactoe-bench-*) rm -rf "$home" ;; esac
  done
  rm -rf "$work"
}
trap cleanup EXIT
cp .build/release/tictactoe-bench "$work/"
cp "${BOT_BINARY:-.build/release/tictactoe}" "$work/tictactoe.real"
# The benchmark starts the bot beside itself: this one runs it under callgrind, counting nothing until told.
cat > "$work/tictactoe" << EOF
#!/bin/bash
export USER=bench LOGNAME=bench
exec valgrind --tool=callgrind --instr-atstart=no --vgdb=yes --vgdb-prefix=$work/vgdb --cache-sim=yes \
  --LL=2097152,16,64 --callgrind-out-file=$work/callgrind.out "$work/tictactoe.real" "\$@"
EOF
chmod +x "$work/tictactoe"
"$work/tictactoe-bench" --only bot > "$work/bench.out" 2> "$work/bench.err" &
bench=$!
bot=""
for _ in $(seq 1 600); do
  bot=$(pgrep -P "$bench" -f valgrind | head -1 || true)
  [ -n "$bot" ] && break
  sleep 0.2
done
[ -n "$bot" ] || { echo "the benchmark did not start the bot" >&2; exit 1; }
benchdir=$(tr '\0' '\n' < "/proc/$bot/environ" | sed -n 's/^HOME=//p')
# The ramp-up is over when the bot holds a descriptor for each of the 1,000 games; then 3 s more for the last
# handshakes.
for _ in $(seq 1 1800); do
  [ "$(ls "/proc/$bot/fd" 2> /dev/null | wc -l)" -ge 1005 ] && break
  sleep 0.1
done
sleep 3
export USER=bench LOGNAME=bench
control() {
  callgrind_control --vgdb-prefix="$work/vgdb" "$@" "$bot" > /dev/null 2>&1 || {
    echo "callgrind_control $* failed: the bot under valgrind is gone; the benchmark said:" >&2
    cat "$work/bench.err" >&2
    exit 1
  }
}
control -i on
sleep "$seconds"
control -i off
control -d
sleep 1
file=$(ls "$work"/callgrind.out.* 2> /dev/null | head -1 || true)
[ -n "$file" ] || { echo "callgrind wrote no counts" >&2; exit 1; }
cp "$file" /tmp/bot-callgrind.out
python3 - /tmp/bot-callgrind.out << 'EOF'
import re, sys
names, calls, fn, callee = {}, {}, None, None
totals = None
for line in open(sys.argv[1]):
    if line.startswith("events:"):
        events = line.split()[1:]
    elif line.startswith("summary:") or line.startswith("totals:"):
        totals = dict(zip(events, map(int, line.split()[1:])))
    m = re.match(r"^(c?fn)=\((\d+)\)(?: (.*))?", line)
    if m:
        if m.group(3):
            names[m.group(2)] = m.group(3)
        callee = m.group(2) if m.group(1) == "cfn" else None
        continue
    m = re.match(r"^calls=(\d+)", line)
    if m and callee:
        calls[callee] = calls.get(callee, 0) + int(m.group(1))
def count(pattern):
    return sum(n for key, n in calls.items() if re.search(pattern, names.get(key, "")))
# The bot's moves: NetSession.play(_:now:), once for each move it answers with.
moves = count(r"^\$s7Session03NetA0V4play_3now")
if not totals or moves == 0:
    sys.exit("no moves were counted: was the bot busy?")
print(f"answered moves counted: {moves}")
for event, label in [("Ir", "instructions"), ("D1mr", "first-level read misses"), ("DLmr", "last-level read misses (2 MiB)")]:
    print(f"{label} per move: {totals[event] / moves:,.0f}")
print(f"allocations per move (swift_slowAlloc and OpenSSL's): {(count(r'^swift_slowAlloc$') + count(r'^CRYPTO_malloc$')) / moves:.1f}")
EOF
