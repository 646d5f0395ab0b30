import GameCore
import Testing

@testable import TerminalUI

/// A renju game drawn because X, to move, has only forbidden cells left: the full screen and plain mode say why,
/// not just "Draw." as if the board were full.
@Suite struct RenjuDrawScreenTests {
  /// The 7×7 position of GameCoreTests' RenjuOnlyForbiddenTests: one empty cell, d4, an overline for X.
  static let rows = ["OXXOXOX", "XOOOXOX", "OXOXOOO", "XXX.XXX", "XOXOXOO", "OOXXXOX", "OXOXOOO"]

  static func drawn() throws -> Game {
    var x: [Position] = []
    var o: [Position] = []
    for (row, text) in rows.enumerated() {
      for (column, mark) in text.enumerated() where mark != "." {
        (mark == "X" ? { x.append($0) } : { o.append($0) })(Position(row: row, column: column))
      }
    }
    return try Game(rules: try Rules(size: 7, k: 5, variant: .renju), position: zip(x, o).flatMap { [$0, $1] })
  }

  @Test func theScreenAndPlainModeSayWhyItIsADraw() throws {
    let game = try Self.drawn()
    #expect(game.outcome == .draw)
    var ui = Screens.ui(80, 24, .ascii, size: 7, k: 5)
    _ = ui.handle(.down)
    _ = ui.handle(.enter)  // two players on this keyboard
    ui.state.match?.game = game
    #expect(Screens.text(ui).contains("Draw: every empty cell is forbidden to X (renju)."), "\(Screens.text(ui))")
    var plain = PlainSession(opponent: .hotseat, rules: game.rules, humanMark: .x)
    plain.game = try Game(rules: game.rules, position: Array(game.history.dropLast()))
    let said = plain.handle(line: PlainSession.moveName(try #require(game.history.last), rules: game.rules))
    #expect(said.hasSuffix("result: draw (every empty cell is forbidden to X under renju)\n"), "\(said)")
  }
}
