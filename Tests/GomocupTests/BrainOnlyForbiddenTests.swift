import GameCore
import Gomocup
import Testing

/// Under renju, a BOARD that leaves the brain (black, to move) only forbidden cells is a drawn game: the brain
/// says so with ERROR instead of searching, and does not call the board full.
@Suite struct BrainOnlyForbiddenTests {
  /// 7×7, one empty cell (x 3, y 3) where black would make seven in a row; as RenjuOnlyForbiddenTests's.
  static let rows = ["OXXOXOX", "XOOOXOX", "OXOXOOO", "XXX.XXX", "XOXOXOO", "OOXXXOX", "OXOXOOO"]

  /// The BOARD lines: the brain's own stones (1) black, the opponent's (2) white, alternating from black.
  static func boardLines() -> [String] {
    var own: [String] = []
    var theirs: [String] = []
    for (y, text) in rows.enumerated() {
      for (x, mark) in text.enumerated() {
        if mark == "X" { own.append("\(x),\(y),1") }
        if mark == "O" { theirs.append("\(x),\(y),2") }
      }
    }
    return ["BOARD"] + zip(own, theirs).flatMap { [$0, $1] } + ["DONE"]
  }

  @Test func aBoardWithOnlyForbiddenCellsIsADrawNotASearch() {
    var renju = BrainMachine(about: BrainMachineTests.about)
    #expect(BrainMachineTests.run(["INFO rule 4", "START 7"], machine: &renju) == [.reply("OK")])
    let outputs = BrainMachineTests.run(Self.boardLines(), machine: &renju)
    #expect(
      outputs == [.reply("ERROR the game is over: a draw, every empty cell is forbidden to black under renju")],
      "\(outputs)")
    // Freestyle: the same board is an ordinary position, and the brain searches (its only move wins).
    var freestyle = BrainMachineTests.started(7)
    let search = BrainMachineTests.search(BrainMachineTests.run(Self.boardLines(), machine: &freestyle))
    #expect(search?.0.legalMoves == [Position(row: 3, column: 3)])
  }
}
