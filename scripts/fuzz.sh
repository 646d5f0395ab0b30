#!/usr/bin/env bash
# Builds the libFuzzer targets in Fuzz/ and runs each for RUNS executions (default 1000000); see Fuzz/README.md.
# Prints one line per target and exits non-zero if any target crashed. A crash input is copied into the
# target's FuzzCorpus directory, where the regression tests (swift test --filter FuzzRegression) replay it.
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS="${1:-1000000}"
case "$RUNS" in '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [RUNS]" >&2; exit 64 ;; esac

OUT=.build/fuzz
MODULES="$OUT/modules"
FLAGS=(-O -sanitize=fuzzer -parse-as-library -swift-version 6 -package-name tictactoe)
WIRE_CORPUS=Tests/WireProtocolTests/FuzzCorpus
mkdir -p "$MODULES"

# A library module the targets import (GameCore, WireProtocol, UntrustedText), built as a static archive.
library() {
  local name=$1
  shift
  swiftc "${FLAGS[@]}" -module-name "$name" -I "$MODULES" -emit-library -static \
    -emit-module -emit-module-path "$MODULES/$name.swiftmodule" -o "$MODULES/lib$name.a" "$@"
}

# A target: the module under test compiled together with its harness.
target() {
  local name=$1 module=$2
  shift 2
  swiftc "${FLAGS[@]}" -module-name "$module" -I "$MODULES" -L "$MODULES" -o "$OUT/$name" \
    Fuzz/Invariant.swift "$@"
}

echo "building into $OUT/ ..." >&2
library ExplainedErrors Sources/ExplainedErrors/*.swift
library GameCore -lExplainedErrors Sources/GameCore/*.swift
library UntrustedText Sources/UntrustedText/*.swift
library WireProtocol -lGameCore -lUntrustedText -lExplainedErrors Sources/WireProtocol/*.swift
target frame-codec FrameCodecFuzz Fuzz/FrameCodecTarget.swift Sources/WireProtocol/*.swift -lGameCore -lUntrustedText \
  -lExplainedErrors
target message-decode MessageDecodeFuzz Fuzz/MessageDecodeTarget.swift Sources/WireProtocol/*.swift -lGameCore \
  -lUntrustedText -lExplainedErrors
target hello-negotiation HelloNegotiationFuzz Fuzz/HelloNegotiationTarget.swift Sources/Session/*.swift \
  -lWireProtocol -lGameCore -lUntrustedText -lExplainedErrors
# Known peers are PeerTrust's, which is pure.
target known-peers KnownPeersFuzz Fuzz/KnownPeersTarget.swift -lUntrustedText -lExplainedErrors Sources/PeerTrust/*.swift
# PCP answers: the codec alone.
target pcp-response PCPResponseFuzz Fuzz/PCPResponseTarget.swift Sources/PortMapping/PCPMessage.swift \
  -lExplainedErrors
# Invites and what they use (Digest's SHA-256 is OpenSSL's; fingerprints and base64 are PeerTrust's; a relay's
# token is TransitRelay's).
library PeerTrust -lUntrustedText -lExplainedErrors Sources/PeerTrust/*.swift
library TransitRelay -lUntrustedText Sources/TransitRelay/*.swift
target invite InviteFuzz Fuzz/InviteTarget.swift -I Sources/COpenSSL -lssl -lcrypto -lUntrustedText -lPeerTrust \
  -lTransitRelay -lExplainedErrors Sources/Security/{Invite,InviteRelay,NumericAddress,Digest}.swift

# The SGF reader of game records, with the GameCore it replays moves on.
target sgf-record SGFRecordFuzz Fuzz/SGFRecordTarget.swift Sources/GameRecords/*.swift -lGameCore -lExplainedErrors

# The regression inputs of each target. Inputs named bug-* reproduce known bugs not fixed yet: they are left out of
# the seeds so that the rest of the target is still explored (the fuzzer may well find the same bug again).
corpus_of() {
  case "$1" in
    known-peers) echo Tests/SecurityTests/FuzzCorpus ;;
    sgf-record) echo Tests/GameRecordsTests/FuzzCorpus ;;
    invite) echo Tests/SecurityTests/InviteFuzzCorpus ;;
    pcp-response) echo Tests/PortMappingTests/FuzzCorpus ;;
    *) echo "$WIRE_CORPUS/$1" ;;
  esac
}

# Writes a seed from printf escapes (\xHH) into a target's working corpus.
seed() {
  printf '%b' "$3" >"$OUT/corpus-$1/seed-$2"
}

hello='\x00\x1e\x01\x01\x00\x02\x00\x01\x02\x00\x03\x42\x6f\x62\x03\x00\x0f\x74\x69\x63\x74\x61\x63\x74\x6f\x65\x20\x30\x2e\x32\x2e\x30'
welcome='\x00\x12\x02\x01\x00\x02\x00\x01\x02\x00\x01\x03\x03\x00\x01\x03\x04\x00\x01\x03'
move='\x00\x0e\x20\x01\x00\x02\x00\x04\x02\x00\x01\x02\x03\x00\x01\x00'
chat='\x00\x07\x30\x01\x00\x03\x67\x67\x21'
share='\x00\x24\x11\x01\x00\x20'$(printf '\\x%02x' {1..32})
peer='alice SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU 2026-11-01\n'

prepare() {
  local name=$1 dir
  dir=$(corpus_of "$name")
  mkdir -p "$OUT/corpus-$name" "$OUT/artifacts-$name"
  if [ -d "$dir" ]; then
    find "$dir" -maxdepth 1 -type f ! -name 'bug-*' -exec cp {} "$OUT/corpus-$name/" \;
  fi
  case "$name" in
    frame-codec)
      seed "$name" stream "\x00$hello$welcome$move"
      seed "$name" split "\x04\x01\x02\x1f\x00$hello$move"
      ;;
    message-decode)
      seed "$name" welcome "${welcome:8}"
      seed "$name" move "${move:8}"
      seed "$name" chat "${chat:8}"
      ;;
    hello-negotiation)
      # The joiner's side of a whole first game on the host: hello, accepted, coin share, moves.
      seed "$name" accepted "$hello\x00\x01\xf0$share"
      seed "$name" chat "$hello$chat"
      seed "$name" welcome "$hello$welcome"
      ;;
    known-peers)
      seed "$name" peer "# known peers\n\n$peer"
      ;;
    sgf-record)
      seed "$name" game '(;FF[4]GM[4]SZ[3]PB[a]PW[b]RE[B+]TTK[3]TTE[line]\n;B[aa];W[ba];B[ab];W[bb];B[ac])\n'
      seed "$name" other '(;GM[4]SZ[7:5]PB[x\\]y]RE[W+R](;B[aa];W[gd])(;B[bb]))(;GM[4]SZ[15];B[hh])'
      ;;
    pcp-response)
      seed "$name" success '\x02\x81\x00\x00\x00\x00\x02\x58\x00\x00\x10\x00'"$(printf '\\x00%.0s' {1..12})$(printf '\\x%02x' {1..12})"'\x06\x00\x00\x00\x1c\x09\x1c\x0b'"$(printf '\\x00%.0s' {1..10})"'\xff\xff\xc6\x33\x65\x01'
      seed "$name" natpmp '\x00\x81\x00\x01'
      ;;
    invite)
      seed "$name" three "tictactoe:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8@192.0.2.7/7177,2001:db8::7/7177,alice.example/7000+a93f17"
      seed "$name" zone "Invite: tictactoe:--__--__--__--__--__--__--__--__--__--__AQI@fe80::1%eth0/7177+28e130\n"
      seed "$name" relay "tictactoe:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8@192.0.2.7/7177,2001:db8::7/7177,relay:relay.example/4001/ICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ozw9Pj8+5e2398"
      ;;
  esac
}

# Runs one target; prints its line; returns non-zero if it crashed.
run() {
  local name=$1 dir log start seconds runs crashes
  shift
  dir=$(corpus_of "$name")
  prepare "$name"
  log="$OUT/$name.log"
  local before
  before=$(find "$OUT/artifacts-$name" -type f | wc -l)
  start=$(date +%s%N)
  SWIFT_BACKTRACE=enable=no "$OUT/$name" -runs="$RUNS" -timeout=25 -artifact_prefix="$OUT/artifacts-$name/" \
    "$@" "$OUT/corpus-$name" >"$log" 2>&1 || true
  seconds=$((($(date +%s%N) - start + 500000000) / 1000000000))
  runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n 1)
  crashes=0
  # libFuzzer stops at the first crash; keep every new input it wrote (crash-, timeout-, oom-, leak-).
  while read -r written; do
    [ -n "$written" ] || continue
    crashes=$((crashes + 1))
    mkdir -p "$dir"
    local copy=1 existing
    for existing in "$dir"/*; do
      if [ -f "$existing" ] && cmp -s "$existing" "$written"; then copy=0; fi
    done
    if [ "$copy" = 1 ]; then cp "$written" "$dir/"; fi
  done < <(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log")
  if [ -z "$runs" ]; then
    runs="stopped after $(grep -o '^#[0-9][0-9]*' "$log" | tail -n 1 | tr -d '#')"
  fi
  printf '%s: %s runs, %d crashes, %d s\n' "$name" "$runs" "$crashes" "$seconds"
  if [ "$crashes" -gt 0 ]; then
    echo "  see $log; the input is in $dir/" >&2
    return 1
  fi
  [ "$(find "$OUT/artifacts-$name" -type f | wc -l)" = "$before" ]
}

status=0
run frame-codec -max_len=16384 || status=1
run message-decode || status=1
run hello-negotiation || status=1
run known-peers || status=1
run sgf-record || status=1
run invite || status=1
run pcp-response || status=1
exit "$status"
