#!/usr/bin/env bash
# Shows that the AI tests catch a wrong AI: applies one mutation at a time to a COPY of GameCore (the checkout is
# never touched), runs the AI tests against it, and fails unless every test named for that mutation fails.
# The unmutated copy must pass first, so a failure is the mutation's and not the copy's.
#
# The copy is a package of its own holding GameCore, Tests/Support/Core (TestSupport) and Tests/GameCoreTests
# (the AI tests need nothing else), built in a temporary directory that is removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

work="$(mktemp -d "${TMPDIR:-/tmp}/tictactoe-mutants.XXXXXX")"
# SwiftPM also leaves lock files named after the scratch path beside it.
trap 'rm -rf "$work"; rm -f "$(dirname "$work")/${work//\//_}_"*.lock' EXIT
mkdir -p "$work/Sources" "$work/Tests/Support"
cp -R Sources/GameCore Sources/ExplainedErrors "$work/Sources/"
cp -R Tests/GameCoreTests "$work/Tests/"
cp -R Tests/Support/Core "$work/Tests/Support/"
cat >"$work/Package.swift" <<'EOF'
// swift-tools-version:6.0
import PackageDescription

let optimised: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
  name: "tictactoe-mutant",
  targets: [
    .target(name: "ExplainedErrors"),
    .target(name: "GameCore", dependencies: ["ExplainedErrors"], swiftSettings: optimised),
    .target(name: "TestSupport", dependencies: ["GameCore"], path: "Tests/Support/Core", swiftSettings: optimised),
    .testTarget(name: "GameCoreTests", dependencies: ["GameCore", "TestSupport"], exclude: ["RenjuFouls.txt"]),
  ],
  swiftLanguageModes: [.v6]
)
EOF

every_ai_test='AITests|MoveBookTests|ThreatSearchTests|ThreatPlanTests'
# The 3×3 proofs and the solver check, without the 4×4 proofs (most of the time).
ai_tests_3x3='AITests/(solverAgrees|everyPerfectMove|perfectPlayerKeepsTheBestResultOn3x3)|MoveBookTests'
log="$work/test.log"

# run_tests FILTER: builds the copy and runs the tests FILTER selects; the output goes to $log. Returns swift
# test's status.
run_tests() {
  local filter=$1
  started=$SECONDS
  swift build --package-path "$work" --build-tests >"$work/build.log" 2>&1 || {
    cat "$work/build.log" >&2
    echo "mutation-check: the copy does not build" >&2
    exit 1
  }
  swift test --package-path "$work" --skip-build --filter "$filter" >"$log" 2>&1
}

# mutate FILE OLD NEW: replaces the one occurrence of OLD in the copy's FILE by NEW (fails if it is not there
# exactly once, so a mutation that no longer applies is noticed instead of passing as "caught").
mutate() {
  OLD="$2" NEW="$3" perl -0pi -e '$n = s/\Q$ENV{OLD}\E/$ENV{NEW}/g; die "mutation did not apply\n" unless $n == 1' \
    "$work/$1"
}

restore() { cp "Sources/GameCore/$(basename "$1")" "$work/$1"; }

failures=0
# expect_caught NAME PATTERN...: for each PATTERN (an extended regular expression), a failure of a matching test
# (with its arguments, for parameterised cases) must be in $log.
expect_caught() {
  local name=$1 missed=()
  shift
  for pattern in "$@"; do
    grep -Eq "^✘ Test $pattern" "$log" || missed+=("$pattern")
  done
  local failed
  failed=$(grep -E '^✘ Test .* (recorded an issue|failed after)' "$log" | grep -v '^✘ Test run with' | sed -E 's/^✘ Test ([^ (]*).*/\1/' | sort -u |
    tr '\n' ' ')
  if ((${#missed[@]})); then
    echo "mutation-check: NOT caught: $name (still passing: ${missed[*]})" >&2
    failures=$((failures + 1))
  else
    echo "mutation-check: caught after $((SECONDS - started)) s: $name; failed: $failed"
  fi
}

if ! run_tests "$every_ai_test"; then
  cat "$log" >&2
  echo "mutation-check: the AI tests fail on the unmutated copy" >&2
  exit 1
fi
echo "mutation-check: the unmutated copy passes ($((SECONDS - started)) s)"

# Each case of the proofs that play the real AI (both sides on 3×3, with and without a book; k = 3 and 4, both
# sides, on 4×4) must fail for a wrong move.
every_perfect_player_case=(
  'perfectPlayerKeepsTheBestResultOn3x3.*side → X' 'perfectPlayerKeepsTheBestResultOn3x3.*side → O'
  'aPerfectPlayerWithABookKeepsTheBestResultOn3x3.*side → X' 'aPerfectPlayerWithABookKeepsTheBestResultOn3x3.*side → O'
  'perfectPlayerKeepsTheBestResultOn4x4.*k → 3, side → X' 'perfectPlayerKeepsTheBestResultOn4x4.*k → 3, side → O'
  'perfectPlayerKeepsTheBestResultOn4x4.*k → 4, side → X' 'perfectPlayerKeepsTheBestResultOn4x4.*k → 4, side → O'
)

# 1. The perfect AI answers a cell off the board (before its 3×3 table is looked at).
mutate Sources/GameCore/AIPlayer.swift \
  '    if level == .perfect, let choices = PerfectTable.choices(in: game) {' \
  '    if level == .perfect, game.board.rules.k > 0 { return Position(row: 99, column: 99) }
    if level == .perfect, let choices = PerfectTable.choices(in: game) {'
run_tests "$every_ai_test" || true
expect_caught "an illegal move (row 99, column 99)" \
  "${every_perfect_player_case[@]}"
restore Sources/GameCore/AIPlayer.swift

# 2. The perfect AI still takes a win and blocks a single threat, but otherwise plays any legal move: on 4×4
#    (its search), and on 3×3 (the table of its choices, `PerfectTable`, which the practice bot looks moves up in).
mutate Sources/GameCore/AIPlayer.swift \
  'if let moves = book?.perfectMoves(in: game) ?? AIPlayer.perfectMoves(in: game),' \
  'if let moves = Optional(game.legalMoves),'
run_tests "$every_ai_test" || true
expect_caught "a random legal move instead of a perfect one on 4×4" \
  "${every_perfect_player_case[@]:4}"
restore Sources/GameCore/AIPlayer.swift
mutate Sources/GameCore/PerfectTable.swift \
  'return .init(moves: perfectMoves(in: game) ?? [], drawn: true)' \
  'return .init(moves: game.legalMoves, drawn: true)'
run_tests "$every_ai_test" || true
expect_caught "a random legal move instead of a perfect one on 3×3" \
  "${every_perfect_player_case[@]:0:4}"
restore Sources/GameCore/PerfectTable.swift

# 3. The solver misjudges one position: X in the top-left corner, O beside it, X to move (a win for X) is
#    scored as a loss (table key 9: two bits a cell, X = 1 at cell 0, O = 2 at cell 1). A 3×3 position, so the
#    3×3 tests are the ones that must catch it.
mutate Sources/GameCore/ExactSolver.swift \
  '    let bound: Bound = best <= alphaIn' \
  '    if key == 9 { best = -best }
    let bound: Bound = best <= alphaIn'
run_tests "$ai_tests_3x3" || true
expect_caught "a solver that misjudges one position" \
  'solverAgreesWithTheReferenceOnEvery3x3Position' 'everyPerfectMoveKeepsTheBestResultOn3x3.*side → O' \
  'perfectPlayerKeepsTheBestResultOn3x3.*side → O' 'aPerfectPlayerWithABookKeepsTheBestResultOn3x3.*side → O'
restore Sources/GameCore/ExactSolver.swift

# 4. The threat search lets the attacker ignore the defender's four: any four of its own is tried instead of
#    only the one that blocks it.
mutate Sources/GameCore/ThreatSearch.swift \
  'candidates = board.fourMoves(for: mark).contains { $0.cell == threat } ? [threat] : []' \
  'candidates = board.fourMoves(for: mark).map(\.cell)'
run_tests 'ThreatSearchTests' || true
expect_caught "a threat search that ignores the defender's counter-four" 'aSequenceBrokenByACounterFourIsNoWin'
restore Sources/GameCore/ThreatSearch.swift

# 5. A single four is taken for a win.
mutate Sources/GameCore/ThreatSearch.swift 'if made.count >= 2 {' 'if made.count >= 1 {'
run_tests 'ThreatSearchTests' || true
expect_caught "a single four taken for a win" 'aWinInThreeFoursIsFoundAndNothingShorterIsClaimed' \
  'kOtherThanFiveIsHandled' 'randomPositionsAgreeWithBruteForce'
restore Sources/GameCore/ThreatSearch.swift

# 6. The windows that end on the last column are forgotten.
mutate Sources/GameCore/ThreatSearch.swift \
  'guard endRow < board.rows, endColumn >= 0, endColumn < board.columns else { continue }' \
  'guard endRow < board.rows, endColumn >= 0, endColumn < board.columns - 1 else { continue }'
run_tests 'ThreatSearchTests' || true
expect_caught "the board's last column left out of the windows" 'theCornerAndTheEdges'
restore Sources/GameCore/ThreatSearch.swift

# 7. The defence keeps the moves that do NOT stop the opponent's win by fours.
mutate Sources/GameCore/ThreatPlan.swift \
  'if stops(&search, opponent: opponent, threats: depth, deadline: defenceDeadline) { stopping.append(cell) }' \
  'if !stops(&search, opponent: opponent, threats: depth, deadline: defenceDeadline) { stopping.append(cell) }'
run_tests 'ThreatSearchTests' || true
expect_caught "a defence that keeps the moves that lose" 'theOnlyDefenceIsFoundAndPlayed'
restore Sources/GameCore/ThreatPlan.swift

# 8. Against the opponent's win by threats (VCT), the moves shown to lose to it are kept too.
mutate Sources/GameCore/ThreatPlan.swift 'if !lost { kept.append(cell) }' 'kept.append(cell)'
run_tests 'ThreatPlanTests' || true
expect_caught "a refusal that keeps the moves shown to lose" 'onlyTheMovesShownToLoseAreRefused' \
  'aMoveThatWalksIntoTheOpponentsWinByThreatsIsRefused'
restore Sources/GameCore/ThreatPlan.swift

if ((failures)); then
  echo "mutation-check: $failures mutations not caught" >&2
  exit 1
fi
echo "mutation-check: every mutation caught"
