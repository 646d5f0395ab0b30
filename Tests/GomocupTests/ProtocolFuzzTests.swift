import GameCore
import Gomocup
import TestSupport
import Testing
import UntrustedText

/// Many random lines, made of the protocol's words and junk, through both sides: nothing crashes, every reply is
/// one printable line, and what each side keeps stays consistent with what it said.
@Suite("Gomocup protocol under random lines")
struct ProtocolFuzzTests {
  static let words = [
    "START", "RECTSTART", "BEGIN", "TURN", "BOARD", "DONE", "INFO", "END", "ABOUT", "RESTART", "TAKEBACK",
    "SWAP2BOARD", "timeout_turn", "time_left", "max_memory", "rule", "OK", "ERROR", "MESSAGE", "DEBUG", "UNKNOWN",
    "0", "1", "2", "3", "5", "7", "9", "14", "15", "16", "20", "-1", "99999999999", ",", ",,", "7,7", "1,2,1", "x",
    " ", "\t", "\r", "\u{0}", "\u{1B}[2J", "é", "\u{202E}",
  ]

  static func line(_ random: inout SeededGenerator) -> String {
    (0..<random.below(6)).map { _ in words[random.below(words.count)] }.joined(separator: random.chance(70) ? " " : "")
  }

  static func replies(_ outputs: [BrainMachine.Output]) -> [String] {
    outputs.compactMap { if case .reply(let line) = $0 { line } else { nil } }
  }

  /// A legal answer to the opening, at random: the stones its step asks for, or a choice (with a move for white).
  static func randomAnswer(to opening: Swap2, _ random: inout SeededGenerator) -> [Swap2.Action] {
    var game = opening.game
    func stone() -> Swap2.Action {
      let cell = game.legalMoves[random.below(game.legalMoves.count)]
      try? game.play(cell)
      return .stone(cell)
    }
    switch (opening.step, random.below(3)) {
    case (.placeThree, _): return [stone(), stone(), stone()]
    case (_, 0): return [.choice(.black)]
    case (.secondChooses, 1): return [.choice(.placeTwo), stone(), stone()]
    default: return [.choice(.white), stone()]
    }
  }

  @Test("the brain: one printable line per reply, searches only on a board, and its stones match what it said")
  func brain() {
    var random = SeededGenerator(seed: 28)
    var searches = 0
    var replies = 0
    var swap2s = 0
    for _ in 0..<200 {
      var machine = BrainMachine(about: .init(name: "t", version: "1"))
      if random.chance(80) { _ = machine.receive("START \(5 + random.below(11))") }
      for _ in 0..<200 {
        for output in machine.receive(Self.line(&random)) {
          switch output {
          case .reply(let text):
            replies += 1
            #expect(!text.unicodeScalars.contains(where: VisibleText.isUnsafe), "\(text)")
          case .search(let game, let milliseconds):
            searches += 1
            #expect(machine.rules != nil && !game.isOver && milliseconds >= 1)
            // The game holds exactly the stones the machine keeps, the brain to move.
            #expect(game.history.count == machine.stones.own.count + machine.stones.opponent.count)
            let move = game.legalMoves[random.below(game.legalMoves.count)]
            #expect(machine.chose(move) == [.reply("\(move.column),\(move.row)")])
          case .swap2(let opening, let milliseconds):
            swap2s += 1
            #expect(machine.rules == opening.rules && milliseconds >= 1 && opening.actor != nil)
            let answer = machine.answered(Self.randomAnswer(to: opening, &random))
            #expect(answer.count == 1 && Self.replies(answer).first?.hasPrefix("ERROR") == false, "\(answer)")
          case .end:
            #expect(machine.hasEnded)
          }
        }
        if machine.hasEnded { break }
      }
    }
    // The random lines reached every kind of answer.
    #expect(searches > 50 && replies > 1000, "\(searches) searches, \(replies) replies")
    #expect(swap2s > 0, "no SWAP2BOARD question was reached")
  }

  @Test("the manager: a move is reported only when it is legal on its board, and a fault ends the conversation")
  func manager() throws {
    var random = SeededGenerator(seed: 5)
    var moves = 0
    var faults: Set<String> = []
    for _ in 0..<300 {
      var conversation = EngineConversation(rules: try Rules(size: 5 + random.below(11), k: 5))
      var over = false
      if random.chance(90) { #expect(conversation.read("OK") == .ready) }
      for _ in 0..<100 {
        if !conversation.isWaiting, !over, !conversation.game.isOver, random.chance(90) {
          if !conversation.game.history.isEmpty || random.chance(50),
            let move = conversation.game.legalMoves.randomElement(using: &random)
          {
            try conversation.opponentMoved(move)
          }
          if !conversation.game.isOver { _ = conversation.askForMove() }
        }
        let before = conversation.game
        let size = conversation.game.rules.rows + 2
        let text =
          random.chance(60)
          ? "\(random.below(size)),\(random.below(size))"
          : random.chance(40) ? "MESSAGE \(Self.line(&random))" : Self.line(&random)
        switch conversation.read(text) {
        case .moved(let position):
          moves += 1
          #expect(!over)
          #expect(before.board[position] == nil && before.rules.contains(position))
          #expect(conversation.game.history == before.history + [position])
        case .forfeit(let fault):
          faults.insert(fault.code)
          #expect(!over)
          #expect(!fault.description.unicodeScalars.contains { $0.value < 0x20 })
          over = true
        case .ready:
          #expect(!over)
        case .said:
          #expect(conversation.game == before)
        case .swap2, .noSwap2:
          Issue.record("a Swap2 answer when none was asked for: \(text)")
        }
      }
    }
    #expect(moves > 20, "\(moves) moves")
    #expect(faults.isSuperset(of: ["engine.garbage", "engine.illegal-move", "engine.unasked"]), "\(faults)")
  }
}
