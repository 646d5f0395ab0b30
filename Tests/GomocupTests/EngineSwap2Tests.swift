import GameCore
import Gomocup
import Testing
import UntrustedText

/// SWAP2BOARD from the manager's side: what is sent for each step of the opening, how each kind of answer is
/// read and checked against the opening, and an engine that does not know the command.
@Suite struct EngineSwap2Tests {
  static func ready() throws -> EngineConversation {
    var conversation = EngineConversation(rules: try Rules(size: 9, k: 5))
    #expect(conversation.read("OK") == .ready)
    return conversation
  }

  /// An opening after `stones` placed by whoever acts, and `choice` if given.
  static func opening(_ stones: [(Int, Int)], choice: Swap2.Choice? = nil, more: [(Int, Int)] = []) throws -> Swap2 {
    var opening = try Swap2(rules: try Rules(size: 9, k: 5))
    for (x, y) in stones { try opening.place(Position(row: y, column: x), by: opening.actor ?? .first) }
    if let choice { try opening.choose(choice, by: opening.actor ?? .second) }
    for (x, y) in more { try opening.place(Position(row: y, column: x), by: opening.actor ?? .second) }
    return opening
  }

  @Test func threeStonesAreAskedForAndPlaced() throws {
    var conversation = try Self.ready()
    #expect(conversation.askSwap2(try Self.opening([])) == ["SWAP2BOARD", "DONE"])
    #expect(conversation.isWaiting)
    #expect(
      conversation.read("4,4 3,3 5,5\r")
        == .swap2([
          .stone(Position(row: 4, column: 4)), .stone(Position(row: 3, column: 3)), .stone(Position(row: 5, column: 5)),
        ]))
    #expect(!conversation.isWaiting)
    #expect(conversation.game.history.count == 3)
  }

  @Test func theSecondPlayersThreeAnswers() throws {
    let three = try Self.opening([(4, 4), (3, 3), (5, 5)])
    var conversation = try Self.ready()
    #expect(conversation.askSwap2(three) == ["SWAP2BOARD", "4,4", "3,3", "5,5", "DONE"])
    #expect(conversation.read("SWAP") == .swap2([.choice(.black)]))
    conversation = try Self.ready()
    _ = conversation.askSwap2(three)
    #expect(conversation.read("6,6") == .swap2([.choice(.white), .stone(Position(row: 6, column: 6))]))
    // The move asked for next tells the whole board: its own stones (white) 1, the other's 2.
    try conversation.opponentMoved(Position(row: 0, column: 0))
    #expect(conversation.askForMove() == ["BOARD", "4,4,2", "3,3,1", "5,5,2", "6,6,1", "0,0,2", "DONE"])
    conversation = try Self.ready()
    _ = conversation.askSwap2(three)
    #expect(
      conversation.read("6,6 2,2")
        == .swap2([.choice(.placeTwo), .stone(Position(row: 6, column: 6)), .stone(Position(row: 2, column: 2))]))
  }

  @Test func theFirstPlayersChoiceAfterFive() throws {
    let five = try Self.opening([(4, 4), (3, 3), (5, 5)], choice: .placeTwo, more: [(6, 6), (2, 2)])
    var conversation = try Self.ready()
    #expect(conversation.askSwap2(five) == ["SWAP2BOARD", "4,4", "3,3", "5,5", "6,6", "2,2", "DONE"])
    #expect(conversation.read("SWAP") == .swap2([.choice(.black)]))
    conversation = try Self.ready()
    _ = conversation.askSwap2(five)
    #expect(conversation.read("1,1") == .swap2([.choice(.white), .stone(Position(row: 1, column: 1))]))
    // Two cells are no answer to five stones.
    conversation = try Self.ready()
    _ = conversation.askSwap2(five)
    #expect(conversation.read("1,1 0,0") == .forfeit(.garbage("1,1 0,0")))
  }

  @Test func wrongAnswersForfeit() throws {
    let three = try Self.opening([(4, 4), (3, 3), (5, 5)])
    for (line, fault) in [
      ("4,4", EngineFault.illegal(x: 4, y: 4, .occupied(Position(row: 4, column: 4), by: .x))),
      ("9,0", .illegal(x: 9, y: 0, .outOfRange(Position(row: 0, column: 9), try Rules(size: 9, k: 5)))),
      ("\u{1b}[2J", .garbage("\u{1b}[2J")), ("1,1 2,2 3,3", .garbage("1,1 2,2 3,3")),
    ] {
      var conversation = try Self.ready()
      _ = conversation.askSwap2(three)
      #expect(conversation.read(line) == .forfeit(fault), "\(line)")
    }
    // SWAP is no answer before three stones are down.
    var conversation = try Self.ready()
    _ = conversation.askSwap2(try Self.opening([]))
    #expect(conversation.read("SWAP") == .forfeit(.garbage("SWAP")))
  }

  @Test func anEngineThatKnowsNoSwap2SaysSoAndIsNotAFault() throws {
    for answer in ["UNKNOWN SWAP2BOARD", "ERROR not supported"] {
      var conversation = try Self.ready()
      _ = conversation.askSwap2(try Self.opening([(4, 4), (3, 3), (5, 5)]))
      #expect(conversation.read(answer) == .noSwap2(PeerText(answer)))
      // It answers the stone lines too: nothing more is judged.
      #expect(conversation.read("UNKNOWN 4,4") == .said("UNKNOWN 4,4"))
      #expect(!conversation.isWaiting)
    }
  }
}
