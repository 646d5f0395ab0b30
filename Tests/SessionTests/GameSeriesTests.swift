import GameCore
import SessionTestSupport
import Testing

@testable import Session

/// The games of a match and their score, without a session around them.
@Suite struct GameSeriesTests {
  private func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }

  /// X wins along the top row, (0, 0), (0, 1), (0, 2), O playing below; X is the peer when `xIsPeer`.
  private func topRowForX(_ series: inout GameSeries, xIsPeer: Bool) throws {
    for (x, o) in [(p(0, 0), p(1, 0)), (p(0, 1), p(1, 1))] {
      try series.play(x, byPeer: xIsPeer)
      try series.play(o, byPeer: !xIsPeer)
    }
    try series.play(p(0, 2), byPeer: xIsPeer)
  }

  @Test func gamesAreNumberedAndTheFirstPlayerAlternates() {
    var series = GameSeries(rules: .standard)
    #expect(series.gameNumber == 0 && series.myMark == nil && series.game == nil)
    #expect(series.startGame(firstMark: .o) == .o)
    #expect(series.gameNumber == 1 && series.game == Game(rules: .standard))
    #expect(series.startGame(firstMark: .o) == .x)
    #expect(series.startGame(firstMark: .o) == .o)
    #expect(series.gameNumber == 3 && series.myMark == .o)
  }

  @Test func aNewGameClearsTheOffersAndTheLastResult() {
    var series = GameSeries(rules: .standard)
    _ = series.startGame(firstMark: .x)
    series.end(.draw)
    series.offerRematch()
    series.peerOffersRematch()
    #expect(series.rematchOfferedByMe && series.rematchOfferedByPeer && series.lastResult == .draw)
    _ = series.startGame(firstMark: .x)
    #expect(!series.rematchOfferedByMe && !series.rematchOfferedByPeer && series.lastResult == nil)
  }

  @Test func movesAreThisPlayersOrThePeersAndTheBoardEndsTheGame() throws {
    var series = GameSeries(rules: .standard)
    #expect(throws: MoveError.gameOver) { try series.play(p(0, 0), byPeer: false) }
    _ = series.startGame(firstMark: .x)
    #expect(throws: MoveError.self) { try series.play(p(0, 0), byPeer: true) }  // not the peer's turn
    try series.play(p(0, 0), byPeer: false)
    #expect(series.game?.history == [p(0, 0)] && series.game?.turn == .o)
    #expect(series.finishIfOver() == nil && series.lastResult == nil)
    try series.play(p(1, 0), byPeer: true)
    try series.play(p(0, 1), byPeer: false)
    try series.play(p(1, 1), byPeer: true)
    try series.play(p(0, 2), byPeer: false)
    #expect(series.finishIfOver() == .line(winner: .x))
    #expect(series.lastResult == .line(winner: .x) && series.score == NetSession.Score(wins: 1, losses: 0, draws: 0))
  }

  @Test func resultsAndLeftGamesAreCountedFromThisPlayersSide() {
    var series = GameSeries(rules: .standard)
    _ = series.startGame(firstMark: .x)
    series.end(.resigned(loser: .x))
    series.end(.abandoned(loser: .o))
    series.end(.draw)
    series.end(.line(winner: .o))
    #expect(series.score == NetSession.Score(wins: 1, losses: 2, draws: 1))
    series.gameLeft(byMe: true)
    #expect(series.score == NetSession.Score(wins: 1, losses: 3, draws: 1))
    series.gameLeft(byMe: false)
    #expect(series.score == NetSession.Score(wins: 2, losses: 3, draws: 1))
  }

  /// Both resigned at once: each side turns its win by resignation into a draw.
  @Test func crossedResignationsMakeADraw() {
    var series = GameSeries(rules: .standard)
    _ = series.startGame(firstMark: .x)
    series.end(.resigned(loser: .x))  // this player resigned; then the peer's resignation arrives
    #expect(series.resignationCrossed() == .draw)
    #expect(series.lastResult == .draw && series.score == NetSession.Score(wins: 0, losses: 0, draws: 1))
  }

  /// This player's winning move crossed the peer's resignation: the peer never saw the move, so the game is
  /// the peer's resignation on both sides.
  @Test func aGameEndingMoveThatCrossedAResignationBecomesTheResignation() throws {
    var series = GameSeries(rules: .standard)
    _ = series.startGame(firstMark: .x)
    try topRowForX(&series, xIsPeer: false)
    #expect(series.finishIfOver() == .line(winner: .x))
    #expect(series.resignationCrossed() == .resigned(loser: .o))
    #expect(series.score == NetSession.Score(wins: 1, losses: 0, draws: 0))
  }

  /// The peer's own move ended the game (it saw that), or the peer already resigned: nothing changes.
  @Test func aResignationAfterThePeersOwnEndChangesNothing() throws {
    var series = GameSeries(rules: .standard)
    _ = series.startGame(firstMark: .o)  // the peer is X and wins with the last move
    try topRowForX(&series, xIsPeer: true)
    #expect(series.finishIfOver() == .line(winner: .x))
    #expect(series.resignationCrossed() == nil)
    series.end(.resigned(loser: .x))
    #expect(series.resignationCrossed() == nil)
    #expect(series.score == NetSession.Score(wins: 1, losses: 1, draws: 0))
  }

  /// During a game the digest covers the moves; between games only the number counts.
  @Test func theGameHeldIsItsNumberItsPlyAndADigestOfTheMoves() throws {
    var series = GameSeries(rules: .standard)
    _ = series.startGame(firstMark: .x)
    let fresh = series.holding(playing: true, sha256: testHash)
    try series.play(p(1, 1), byPeer: false)
    let moved = series.holding(playing: true, sha256: testHash)
    #expect(fresh.game == 1 && fresh.ply == 0 && moved.game == 1 && moved.ply == 1)
    #expect(fresh.digest != moved.digest)
    var other = GameSeries(rules: .standard)
    _ = other.startGame(firstMark: .x)
    try other.play(p(0, 0), byPeer: false)
    #expect(other.holding(playing: true, sha256: testHash).digest != moved.digest)
    // Between games the boards may differ (rule 6): the digests do not.
    let between = series.holding(playing: false, sha256: testHash)
    #expect(between.ply == 0 && between.digest == other.holding(playing: false, sha256: testHash).digest)
    #expect(between.digest != fresh.digest)
  }
}
