import TestSupport
import Testing

@testable import GameCore

/// The standard board's table of perfect choices (`PerfectTable`) against the solver, on every position a game
/// can reach: the table must give exactly the moves `perfect` chose before it existed, and each must keep the
/// best result the side to move can force.
@Suite struct PerfectTableTests {
  /// Every position reachable from the empty 3×3 board by legal play, each once (5,478 of them, games over
  /// included).
  static func reachable() -> [Game] {
    var seen = Set<Board>()
    var found: [Game] = []
    var stack = [Game(rules: .standard)]
    while let game = stack.popLast() {
      guard seen.insert(game.board).inserted else { continue }
      found.append(game)
      guard !game.isOver else { continue }
      for position in game.legalMoves {
        var next = game
        try? next.play(position)
        stack.append(next)
      }
    }
    return found
  }

  /// The cells where `mark` would complete a line now, found by playing each (not by the search's own reading).
  static func completing(_ game: Game, for mark: Mark) -> Set<Position> {
    var cells = Set<Position>()
    for position in game.board.emptyPositions {
      var board = game.board
      board.set(mark, at: position)
      if board.winningLine(through: position) != nil { cells.insert(position) }
    }
    return cells
  }

  @Test func everyReachablePositionHasTheSolversChoices() throws {
    let games = Self.reachable()
    #expect(games.count == 5_478)
    var looked = 0
    for game in games {
      let choices = PerfectTable.choices(in: game)
      guard !game.isOver else {
        #expect(choices == nil, "a game over has no move: \(game.history)")
        continue
      }
      looked += 1
      let found = try #require(choices)
      let table = Set(found.moves)
      let wins = Self.completing(game, for: game.turn)
      let threats = Self.completing(game, for: game.turn.opponent)
      let solver = try #require(AIPlayer.perfectMoves(in: game))
      let expected = !wins.isEmpty ? wins : threats.count == 1 ? threats : Set(solver)
      #expect(table == expected && found.moves.count == table.count, "after \(game.history)")
      // The one block is played without a random draw, any other choice with one; the solver's moves keep its
      // order, so a seeded game draws the same move as before the table.
      #expect(found.drawn == (!wins.isEmpty || threats.count != 1), "after \(game.history)")
      if wins.isEmpty && threats.count != 1 { #expect(found.moves == solver, "after \(game.history)") }
      // Whatever the table offers keeps the value the solver gives the position.
      let value = try #require(AIPlayer.solvedValue(of: game))
      for position in table {
        var next = game
        try next.play(position)
        #expect(AIPlayer.solvedValue(of: next) == -value, "\(position) after \(game.history)")
      }
    }
    #expect(looked == 4_520)
  }

  @Test func theComputerPlaysOnlyTheTablesChoicesAndEachOfThem() throws {
    let ai = AIPlayer(level: .perfect)
    var random = SeededGenerator(seed: 27)
    // X in a corner: O's only move that does not lose is the centre.
    let corner = try Game(rules: .standard, moves: [Position(row: 0, column: 0)])
    for _ in 0..<50 { #expect(ai.chooseMove(in: corner, using: &random) == Position(row: 1, column: 1)) }
    // The empty board: every first move draws, so all nine are offered and each comes up.
    let empty = Game(rules: .standard)
    let offered = try #require(PerfectTable.choices(in: empty))
    #expect(offered.moves.count == 9 && offered.drawn)
    var played = Set<Position>()
    for _ in 0..<500 { played.insert(try #require(ai.chooseMove(in: empty, using: &random))) }
    #expect(played.count == 9)
  }

  @Test func otherBoardsHaveNoTable() throws {
    #expect(PerfectTable.choices(in: Game(rules: try Rules(size: 4, k: 3))) == nil)
    #expect(PerfectTable.choices(in: Game(rules: try Rules(size: 5, k: 4))) == nil)
  }
}
