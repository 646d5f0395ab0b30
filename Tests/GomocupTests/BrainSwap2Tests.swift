import GameCore
import Gomocup
import Testing

/// SWAP2BOARD as the protocol asks it: with 0 stones the brain places three, with 3 it answers SWAP, one move or
/// two stones, with 5 SWAP or a move; the board it keeps afterwards; and every malformed question.
@Suite("Gomocup brain: SWAP2BOARD")
struct BrainSwap2Tests {
  static func p(_ x: Int, _ y: Int) -> Position { Position(row: y, column: x) }
  static let three = ["7,7", "8,7", "8,8"]
  static let five = three + ["6,6", "9,9"]

  /// A started machine asked SWAP2BOARD with `cells`, and the opening it asks to be answered.
  static func asked(_ cells: [String], size: Int = 15, turn: Int = 30_000) throws -> (BrainMachine, Swap2, Int) {
    var machine = BrainMachineTests.started(size)
    #expect(BrainMachineTests.run(["INFO timeout_turn \(turn)", "SWAP2BOARD"] + cells, machine: &machine) == [])
    let outputs = machine.receive("DONE")
    guard outputs.count == 1, case .swap2(let opening, let milliseconds) = outputs[0] else {
      Issue.record("no Swap2 question: \(outputs)")
      throw CancellationError()
    }
    return (machine, opening, milliseconds)
  }

  @Test("no stones: the brain is the first player and answers its three stones on one line")
  func placesThree() throws {
    var (machine, opening, milliseconds) = try Self.asked([])
    #expect(opening.step == .placeThree && opening.actor == .first && milliseconds > 0)
    let answer = machine.answered([.stone(Self.p(7, 7)), .stone(Self.p(9, 6)), .stone(Self.p(6, 8))])
    #expect(answer == [.reply("7,7 9,6 6,8")])
    // The colours are not settled: nothing is kept, and the brain takes the next question.
    #expect(machine.stones.isEmpty)
    #expect(machine.receive("ABOUT").count == 1)
  }

  @Test("three stones, SWAP: the brain takes black and keeps black's stones as its own")
  func threeSwap() throws {
    var (machine, opening, _) = try Self.asked(Self.three)
    #expect(opening.step == .secondChooses && opening.actor == .second)
    #expect(opening.game.board[Self.p(8, 7)] == .o && opening.game.board[Self.p(8, 8)] == .x)
    #expect(machine.answered([.choice(.black)]) == [.reply("SWAP")])
    #expect(machine.stones.own == [Self.p(7, 7), Self.p(8, 8)] && machine.stones.opponent == [Self.p(8, 7)])
    // White (the opponent) plays the fourth stone; the brain, black, is asked for the fifth.
    let search = try #require(BrainMachineTests.search(machine.receive("TURN 0,0")))
    #expect(search.0.history.count == 4 && search.0.turn == .x)
  }

  @Test("three stones, one move: the brain takes white and places the fourth stone")
  func threeWhite() throws {
    var (machine, _, _) = try Self.asked(Self.three)
    #expect(machine.answered([.choice(.white), .stone(Self.p(9, 8))]) == [.reply("9,8")])
    #expect(machine.stones.own == [Self.p(8, 7), Self.p(9, 8)])
    #expect(machine.stones.opponent == [Self.p(7, 7), Self.p(8, 8)])
    let search = try #require(BrainMachineTests.search(machine.receive("TURN 0,0")))
    #expect(search.0.history.count == 5 && search.0.turn == .o && search.0.board[Self.p(0, 0)] == .x)
  }

  @Test("three stones, two more: the brain answers both cells and keeps nothing")
  func threePlaceTwo() throws {
    var (machine, _, _) = try Self.asked(Self.three)
    let answer = machine.answered([.choice(.placeTwo), .stone(Self.p(1, 2)), .stone(Self.p(3, 4))])
    #expect(answer == [.reply("1,2 3,4")])
    #expect(machine.stones.isEmpty)
  }

  @Test("five stones: SWAP takes black, a move takes white")
  func five() throws {
    var (machine, opening, _) = try Self.asked(Self.five)
    #expect(opening.step == .firstChooses && opening.actor == .first)
    #expect(opening.game.board[Self.p(6, 6)] == .o && opening.game.board[Self.p(9, 9)] == .x)
    #expect(machine.answered([.choice(.black)]) == [.reply("SWAP")])
    #expect(machine.stones.own.count == 3 && machine.stones.opponent.count == 2)
    var (white, _, _) = try Self.asked(Self.five)
    #expect(white.answered([.choice(.white), .stone(Self.p(10, 10))]) == [.reply("10,10")])
    #expect(white.stones.own == [Self.p(8, 7), Self.p(6, 6), Self.p(10, 10)])
    #expect(white.stones.opponent.count == 3)
  }

  @Test("wrong questions: other counts, cells off the board, twice or malformed, small boards, no DONE")
  func refused() throws {
    for cells in [["7,7"], ["7,7", "8,8"], Array(Self.five.prefix(4)), Self.five + ["1,1"]] {
      var machine = BrainMachineTests.started()
      _ = BrainMachineTests.run(["SWAP2BOARD"] + cells, machine: &machine)
      #expect(BrainMachineTests.isError(machine.receive("DONE"), containing: "0, 3 or 5"), "\(cells)")
    }
    for (cells, words) in [
      (["7,7", "15,7", "8,8"], "off the board"), (["7,7", "7,7", "8,8"], "given twice"),
      (["7,7", "8,8,1", "9,9"], "not a cell"), (["7,7", "\u{1B}[2J", "9,9"], "not a cell"),
    ] {
      var machine = BrainMachineTests.started()
      _ = BrainMachineTests.run(["SWAP2BOARD"] + cells, machine: &machine)
      let outputs = machine.receive("DONE")
      #expect(BrainMachineTests.isError(outputs, containing: words), "\(cells): \(outputs)")
      #expect(!BrainMachineTests.replies(outputs)[0].contains("\u{1B}"))
    }
    var small = BrainMachineTests.started(8)
    _ = BrainMachineTests.run(["SWAP2BOARD"], machine: &small)
    #expect(BrainMachineTests.isError(small.receive("DONE"), containing: "at least 9×9"))
    var endless = BrainMachineTests.started()
    let outputs = BrainMachineTests.run(["SWAP2BOARD"] + Array(repeating: "1,1", count: 14), machine: &endless)
    #expect(BrainMachineTests.isError(outputs, containing: "no DONE"))
    #expect(BrainMachineTests.search(endless.receive("BEGIN")) != nil)
  }

  @Test("while the answer is chosen, lines are refused and a move's answer is ignored")
  func whileAnswering() throws {
    var (machine, _, _) = try Self.asked(Self.three)
    #expect(BrainMachineTests.isError(machine.receive("TURN 1,1"), containing: "being chosen"))
    #expect(machine.chose(Self.p(1, 1)) == [])
    #expect(machine.answered([.choice(.black)]) == [.reply("SWAP")])
    #expect(machine.answered([.choice(.black)]) == [])
  }

  @Test("the computer's own answers, each within its time and legal")
  func computerAnswers() throws {
    var rng = SystemRandomNumberGenerator()
    for cells in [[], Self.three, Self.five] {
      var (machine, opening, milliseconds) = try Self.asked(cells, turn: 300)
      #expect(milliseconds == 220)
      let start = ContinuousClock.now
      let actions = Swap2Computer(budget: .milliseconds(milliseconds)).answer(to: opening, using: &rng)
      let took = ContinuousClock.now - start
      #expect(took < .milliseconds(milliseconds) + .milliseconds(50), "\(cells.count) stones: \(took)")
      let reply = BrainMachineTests.replies(machine.answered(actions))
      #expect(reply.count == 1 && !reply[0].hasPrefix("ERROR"), "\(reply)")
    }
  }
}
