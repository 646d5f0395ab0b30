import GameCore
import Gomocup
import Testing

/// The brain's side of the protocol: every line a manager may send, and many it should not.
@Suite("Gomocup brain state machine")
struct BrainMachineTests {
  static let about = BrainMachine.About(name: "tictactoe", version: "9.9")

  /// A machine after `lines`, its outputs in order.
  static func run(_ lines: [String], machine: inout BrainMachine) -> [BrainMachine.Output] {
    lines.flatMap { machine.receive($0) }
  }

  static func replies(_ outputs: [BrainMachine.Output]) -> [String] {
    outputs.compactMap { if case .reply(let line) = $0 { line } else { nil } }
  }

  static func started(_ size: Int = 15) -> BrainMachine {
    var machine = BrainMachine(about: about)
    #expect(machine.receive("START \(size)") == [.reply("OK")])
    return machine
  }

  /// The search asked for, or nil.
  static func search(_ outputs: [BrainMachine.Output]) -> (Game, Int)? {
    for output in outputs { if case .search(let game, let ms) = output { return (game, ms) } }
    return nil
  }

  static func isError(_ outputs: [BrainMachine.Output], containing words: String = "") -> Bool {
    outputs.count == 1
      && replies(outputs).first.map { $0.hasPrefix("ERROR ") && (words.isEmpty || $0.contains(words)) } == true
  }

  @Test("START takes 5 to 15, with LF, CRLF, spaces and any case; 20, 4, 0 and words get ERROR")
  func startSizes() throws {
    for size in [5, 9, 15] {
      var machine = BrainMachine(about: Self.about)
      #expect(machine.receive("START \(size)\r\n") == [.reply("OK")])
      #expect(machine.rules?.rows == size && machine.rules?.columns == size && machine.rules?.k == 5)
    }
    var lower = BrainMachine(about: Self.about)
    #expect(lower.receive("  start   7  ") == [.reply("OK")])
    for bad in [
      "START 20", "START 16", "START 4", "START 0", "START", "START x", "START -5", "START 15,15",
      "START 99999999999999999999",
    ] {
      var machine = BrainMachine(about: Self.about)
      #expect(Self.isError(machine.receive(bad)), "\(bad)")
      #expect(machine.rules == nil, "\(bad)")
      // No board: a move cannot be asked for.
      #expect(Self.isError(machine.receive("BEGIN"), containing: "START"), "\(bad)")
    }
    var twenty = BrainMachine(about: Self.about)
    #expect(
      twenty.receive("START 20") == [
        .reply("ERROR a 20x20 board is not supported: five in a row is played on boards from 5 to 15 on a side")
      ])
  }

  @Test("RECTSTART sets a width and a height; sides off 5...15 are refused")
  func rectstart() throws {
    var machine = BrainMachine(about: Self.about)
    #expect(machine.receive("RECTSTART 12,7") == [.reply("OK")])
    #expect(machine.rules?.columns == 12 && machine.rules?.rows == 7)
    let outputs = machine.receive("TURN 11,6")
    let (game, _) = try #require(Self.search(outputs))
    #expect(game.board[Position(row: 6, column: 11)] == .x)
    for bad in ["RECTSTART 20,10", "RECTSTART 10,4", "RECTSTART 10", "RECTSTART 10,10,10", "RECTSTART ,"] {
      var other = BrainMachine(about: Self.about)
      #expect(Self.isError(other.receive(bad)), "\(bad)")
    }
  }

  @Test("BEGIN asks for a search on an empty board; the answer is X,Y with the column first")
  func begin() throws {
    var machine = Self.started()
    let outputs = machine.receive("BEGIN")
    let (game, _) = try #require(Self.search(outputs))
    #expect(game.history.isEmpty && game.turn == .x)
    #expect(machine.chose(Position(row: 3, column: 9)) == [.reply("9,3")])
    #expect(machine.stones.own == [Position(row: 3, column: 9)])
    // A second answer to the same search is nothing.
    #expect(machine.chose(Position(row: 4, column: 9)) == [])
  }

  @Test("TURN plays the opponent's stone and asks for the brain's; the brain is O when the opponent began")
  func turn() throws {
    var machine = Self.started()
    let (game, _) = try #require(Self.search(machine.receive("TURN 7,7")))
    #expect(game.board[Position(row: 7, column: 7)] == .x && game.turn == .o)
    _ = machine.chose(Position(row: 8, column: 8))
    let (next, _) = try #require(Self.search(machine.receive("TURN 0,14")))
    #expect(next.history == [Position(row: 7, column: 7), Position(row: 8, column: 8), Position(row: 14, column: 0)])
  }

  @Test("TURN off the board, on a taken cell, malformed, or while searching: ERROR, and the board unchanged")
  func badTurns() throws {
    var machine = Self.started(9)
    _ = machine.receive("TURN 4,4")
    // Searching: any line but END is answered with ERROR and changes nothing.
    #expect(Self.isError(machine.receive("TURN 1,1"), containing: "being chosen"))
    _ = machine.chose(Position(row: 0, column: 0))
    for bad in [
      "TURN 9,0", "TURN 0,9", "TURN 4,4", "TURN 0,0", "TURN", "TURN 1", "TURN 1,2,3", "TURN a,b",
      "TURN -1,2", "TURN 1;2", "TURN 1,,2", "TURN 1234567890,1",
    ] {
      #expect(Self.isError(machine.receive(bad)), "\(bad)")
    }
    #expect(machine.stones.opponent == [Position(row: 4, column: 4)])
    #expect(machine.stones.own == [Position(row: 0, column: 0)])
    #expect(Self.search(machine.receive("TURN 1, 2")) != nil)  // spaces around a number are fine
  }

  @Test("BOARD ... DONE sets the stones, own and opponent's, and asks for a move")
  func board() throws {
    var machine = Self.started()
    #expect(Self.run(["BOARD", "7,7,2", "8,8,1", "6,6,2"], machine: &machine) == [])
    let (game, _) = try #require(Self.search(machine.receive("DONE")))
    #expect(game.turn == .o)
    #expect(game.board[Position(row: 7, column: 7)] == .x && game.board[Position(row: 6, column: 6)] == .x)
    #expect(game.board[Position(row: 8, column: 8)] == .o)
    // After the answer, TURN goes on from there.
    _ = machine.chose(Position(row: 0, column: 0))
    let (next, _) = try #require(Self.search(machine.receive("TURN 1,1")))
    #expect(next.history.count == 5)
  }

  @Test("under renju a BOARD is read as given, fouls not judged on the way; the search's game is renju")
  func renjuBoard() throws {
    var machine = BrainMachine(about: Self.about)
    #expect(Self.run(["INFO rule 4", "START 15"], machine: &machine) == [.reply("OK")])
    // The opponent moved first (X): f8, g8, h10, h9 and, last in this order, h8, which would be a double three
    // played after the others. Another order makes it fair, and a manager's BOARD need not give the order played.
    let x = ["5,7,2", "6,7,2", "7,5,2", "7,6,2", "7,7,2"]
    let o = ["0,0,1", "2,0,1", "4,0,1", "6,0,1"]
    let lines = ["BOARD"] + zip(x, o).flatMap { [$0, $1] } + [x[4]]
    #expect(Self.run(lines, machine: &machine) == [])
    let (game, _) = try #require(Self.search(machine.receive("DONE")))
    #expect(game.rules.variant == .renju)
    #expect(game.turn == .o && game.board[Position(row: 7, column: 7)] == .x)
  }

  @Test("BOARD with a bad line is refused at DONE, once, and the old board is kept")
  func badBoards() throws {
    let bad: [[String]] = [
      ["15,0,1"], ["0,15,1"], ["1,1,1", "1,1,2"], ["1,1,4"], ["1,1,0"], ["1,1,3"], ["1,1"], ["x,y,z"], ["1,1,1,1"],
      ["1,1,1", "2,2,1"],  // the brain to move with more stones than the opponent
      ["0,0,2", "1,0,2", "2,0,2"],  // two more for the opponent
      ["0,0,2", "1,0,2", "2,0,2", "3,0,2", "4,0,2", "0,5,1", "1,5,1", "2,5,1", "3,5,1"],  // five already
      [String(repeating: "9", count: 2000)],
    ]
    for lines in bad {
      var machine = Self.started()
      _ = machine.receive("TURN 3,3")
      _ = machine.chose(Position(row: 4, column: 4))
      let before = machine.stones
      #expect(Self.run(["BOARD"] + lines, machine: &machine) == [], "\(lines)")
      #expect(Self.isError(machine.receive("DONE"), containing: ""), "\(lines)")
      #expect(machine.stones == before, "\(lines)")
      // And the machine still works.
      #expect(Self.search(machine.receive("TURN 10,10")) != nil, "\(lines)")
    }
  }

  @Test("a BOARD that never ends is cut off after a board's worth of lines")
  func endlessBoard() throws {
    var machine = Self.started(5)
    _ = machine.receive("BOARD")
    var outputs: [BrainMachine.Output] = []
    for _ in 0..<100 { outputs += machine.receive("0,0,1") }
    // 25 cells and 8 more lines are read as the board; then the ERROR, and the lines after it are commands.
    #expect(Self.replies(outputs).first?.contains("no DONE") == true)
    #expect(Self.replies(outputs).count == 100 - 33)
    #expect(Self.replies(outputs).dropFirst().allSatisfy { $0.hasPrefix("UNKNOWN ") })
  }

  @Test("END ends at once, even in a BOARD, and nothing after it is answered")
  func end() throws {
    var machine = Self.started()
    _ = machine.receive("BOARD")
    #expect(machine.receive("END") == [.end])
    #expect(machine.hasEnded)
    #expect(machine.receive("BEGIN") == [])
  }

  @Test("TAKEBACK removes a stone of either side; a cell with none, or off the board, gets ERROR")
  func takeback() throws {
    var machine = Self.started()
    _ = machine.receive("TURN 7,7")
    _ = machine.chose(Position(row: 8, column: 8))
    #expect(machine.receive("TAKEBACK 8,8") == [.reply("OK")])
    #expect(machine.stones.own.isEmpty)
    #expect(Self.isError(machine.receive("TAKEBACK 8,8"), containing: "no stone"))
    #expect(Self.isError(machine.receive("TAKEBACK 3,3"), containing: "no stone"))
    #expect(Self.isError(machine.receive("TAKEBACK 30,3"), containing: "off the board"))
    #expect(Self.isError(machine.receive("TAKEBACK"), containing: "not a cell"))
    #expect(machine.receive("TAKEBACK 7,7") == [.reply("OK")])
    #expect(machine.stones.isEmpty)
  }

  @Test("RESTART empties the board; BEGIN on a board with stones is refused")
  func restart() throws {
    var machine = Self.started()
    _ = machine.receive("TURN 7,7")
    _ = machine.chose(Position(row: 8, column: 8))
    #expect(Self.isError(machine.receive("BEGIN"), containing: "RESTART"))
    #expect(machine.receive("RESTART") == [.reply("OK")])
    #expect(machine.stones.isEmpty)
    #expect(Self.search(machine.receive("BEGIN")) != nil)
  }

  @Test("INFO sets the time; unknown keys are ignored; rules 0, 1 and 4 are played, others and small memory get ERROR")
  func info() throws {
    var machine = BrainMachine(about: Self.about)
    #expect(
      Self.run(
        [
          "INFO timeout_turn 1000", "INFO TIMEOUT_MATCH 60000", "INFO evaluate 1,1", "INFO folder /tmp",
          "INFO thread_num 4", "INFO game_type 1", "INFO rule 0", "INFO max_memory 0",
          "INFO max_memory 83886080",
        ], machine: &machine) == [])
    #expect(machine.limits.turnMilliseconds == 1000 && machine.limits.matchMilliseconds == 60000)
    #expect(machine.limits.memoryBytes == 83_886_080)
    for rule in [2, 8, 5, 3, 12] {
      #expect(Self.isError(machine.receive("INFO rule \(rule)"), containing: "rule \(rule) is not supported"))
    }
    #expect(machine.rule == 0)
    for (rule, variant) in [(1, RuleVariant.exactFive), (4, .renju), (0, .freestyle)] {
      #expect(machine.receive("INFO rule \(rule)") == [])
      #expect(machine.rule == rule)
      _ = machine.receive("START 15")
      #expect(machine.rules?.variant == variant)
    }
    #expect(Self.isError(machine.receive("INFO max_memory 1000000"), containing: "max_memory"))
    #expect(Self.isError(machine.receive("INFO timeout_turn soon"), containing: "timeout_turn"))
    #expect(Self.isError(machine.receive("INFO timeout_turn -5")))
    #expect(machine.limits.turnMilliseconds == 1000)
  }

  @Test("the search's time: timeout_turn less a margin, a share of time_left, and fast for timeout_turn 0")
  func searchTime() throws {
    var machine = Self.started()
    _ = machine.receive("INFO timeout_turn 1000")
    let (_, ms) = try #require(Self.search(machine.receive("BEGIN")))
    #expect(ms == 900)
    _ = machine.chose(Position(row: 7, column: 7))
    _ = machine.receive("INFO time_left 3000")
    let (_, share) = try #require(Self.search(machine.receive("TURN 0,0")))
    // 223 empty cells: a 30th of 3000 ms, less its 80 ms margin.
    #expect(share == 20)
    _ = machine.chose(Position(row: 7, column: 8))
    _ = machine.receive("INFO time_left 100000000")
    _ = machine.receive("INFO timeout_turn 0")
    let (_, fast) = try #require(Self.search(machine.receive("TURN 0,1")))
    #expect(fast == BrainLimits.fastestMilliseconds)
    var limits = BrainLimits()
    limits.turnMilliseconds = 30_000
    #expect(limits.searchMilliseconds(emptyCells: 200) == 27_000)
    limits.leftMilliseconds = 10
    #expect(limits.searchMilliseconds(emptyCells: 200) == 1)
  }

  @Test("a won or full board gets ERROR, not a search")
  func gameOver() throws {
    var machine = Self.started(5)
    for (x, y) in [(0, 0), (1, 0), (2, 0), (3, 0)] {
      _ = machine.receive("TURN \(x),\(y)")
      _ = machine.chose(Position(row: 4, column: x))
    }
    #expect(Self.isError(machine.receive("TURN 4,0"), containing: "the opponent already has five"))
    #expect(machine.stones.opponent.count == 4)
  }

  @Test("SWAP2BOARD is read to DONE (BrainSwap2Tests); unknown commands get UNKNOWN")
  func swap2AndUnknown() throws {
    var machine = Self.started()
    #expect(Self.run(["SWAP2BOARD", "7,7", "7,8"], machine: &machine) == [])
    #expect(Self.isError(machine.receive("DONE"), containing: "0, 3 or 5"))
    #expect(machine.stones.isEmpty)
    let unknown = Self.replies(machine.receive("YXNBEST 3"))
    #expect(unknown.count == 1 && unknown[0].hasPrefix("UNKNOWN "))
    #expect(Self.replies(machine.receive("\u{1B}[2J")).first?.hasPrefix("UNKNOWN ") == true)
    #expect(machine.receive("") == [] && machine.receive("\r\n") == [] && machine.receive("   ") == [])
  }

  @Test("a line over the limit is refused whole; ABOUT names the brain")
  func longLinesAndAbout() throws {
    var machine = Self.started()
    let long = "TURN 1,1" + String(repeating: " ", count: ProtocolText.lineLimit)
    #expect(Self.isError(machine.receive(long), containing: "longer than"))
    #expect(machine.stones.isEmpty)
    #expect(
      machine.receive("ABOUT") == [.reply("name=\"tictactoe\", version=\"9.9\", author=\"the tictactoe authors\"")])
  }

  @Test("every reply is one line: no CR, LF or control character, whatever the manager sent")
  func repliesAreOneLine() throws {
    var machine = Self.started()
    let nasty = [
      "TURN 1\r,2", "INFO rule \u{0}", "\u{7F}", "TAKEBACK \n", "START \u{1B}]2;x\u{07}", "BOARD", "1\r,1,1",
      "DONE",
    ]
    for line in nasty {
      for reply in Self.replies(machine.receive(line)) {
        #expect(!reply.unicodeScalars.contains { $0.value < 0x20 && $0 != "\t" }, "\(reply)")
      }
    }
  }
}
