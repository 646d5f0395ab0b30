import GameCore
import Gomocup
import Testing
import UntrustedText

/// The manager's side: what a game sends an outside engine and how each kind of answer, good or hostile, is
/// taken.
@Suite("Gomocup engine conversation")
struct EngineConversationTests {
  static func rules(_ rows: Int = 15, _ columns: Int = 15) throws -> Rules {
    try Rules(rows: rows, columns: columns, k: 5)
  }

  /// A conversation whose engine has said OK.
  static func ready(_ rules: Rules) -> EngineConversation {
    var conversation = EngineConversation(rules: rules)
    #expect(conversation.read("OK\r") == .ready)
    return conversation
  }

  static func fault(_ event: EngineConversation.Event) -> EngineFault? {
    if case .forfeit(let fault) = event { return fault }
    return nil
  }

  @Test("the opening: START or RECTSTART (width first), then timeout_turn, timeout_match, max_memory, rule 0")
  func opening() throws {
    let square = EngineConversation(rules: try Self.rules())
    #expect(
      square.opening() == [
        "START 15", "INFO timeout_turn 5000", "INFO timeout_match 300000", "INFO max_memory 367001600",
        "INFO game_type 1", "INFO rule 0",
      ])
    let rectangle = EngineConversation(rules: try Self.rules(7, 12))
    #expect(rectangle.opening().first == "RECTSTART 12,7")
    #expect(square.answerMilliseconds == 5000 + EngineConversation.graceMilliseconds)
    #expect(EngineConversation.check(try Rules(size: 9, k: 4)) != nil)
    #expect(EngineConversation.check(try Self.rules(9, 9)) == nil)
    // The variant is the rule the engine is told.
    for (variant, number) in [(RuleVariant.exactFive, 1), (.renju, 4)] {
      let told = EngineConversation(rules: try Rules(size: 15, k: 5, variant: variant)).opening()
      #expect(told.last == "INFO rule \(number)")
    }
  }

  @Test("a game: BEGIN, then TURN with the player's move; moves come back as X,Y (column first)")
  func game() throws {
    var conversation = Self.ready(try Self.rules())
    #expect(conversation.askForMove() == ["BEGIN"])
    #expect(conversation.isWaiting)
    #expect(conversation.read("MESSAGE thinking hard") == .said("MESSAGE thinking hard"))
    #expect(conversation.read("DEBUG depth 3") == .said("DEBUG depth 3"))
    #expect(conversation.read("7,3") == .moved(Position(row: 3, column: 7)))
    #expect(!conversation.isWaiting)
    try conversation.opponentMoved(Position(row: 5, column: 2))
    #expect(conversation.askForMove() == ["TURN 2,5"])
    #expect(conversation.read(" 0 , 14 ") == .moved(Position(row: 14, column: 0)))
    #expect(conversation.game.history.count == 3)
  }

  @Test("an occupied or off-board cell forfeits, naming the cell")
  func illegal() throws {
    var conversation = Self.ready(try Self.rules(9, 9))
    _ = conversation.askForMove()
    _ = conversation.read("4,4")
    try conversation.opponentMoved(Position(row: 0, column: 0))
    _ = conversation.askForMove()
    let taken = try #require(Self.fault(conversation.read("4,4")))
    #expect(taken.code == "engine.illegal-move" && taken.reason.contains("4,4, which is already taken"))
    // Once forfeited, nothing more matters.
    #expect(conversation.read("5,5") == .said("5,5"))
    var other = Self.ready(try Self.rules(9, 9))
    _ = other.askForMove()
    let off = try #require(Self.fault(other.read("9,0")))
    #expect(off.reason.contains("9,0, which is off the board"))
  }

  @Test("garbage, an answer unasked, ERROR, a refused START, a long line, a flood: each forfeits with its code")
  func hostile() throws {
    let cases: [(before: [String], line: String, code: String)] = [
      ([], "hello", "engine.garbage"),
      (["ask"], "7,7,7", "engine.garbage"),
      (["ask"], "h8", "engine.garbage"),
      (["ask"], "-1,3", "engine.garbage"),
      (["ask"], String(repeating: "7", count: 5000), "engine.garbage"),
      ([], "7,7", "engine.garbage"),  // a move where OK was wanted
      (["ok"], "7,7", "engine.unasked"),
      (["ok"], "OK", "engine.unasked"),
      ([], "ERROR unsupported size", "engine.refused"),
      (["ask"], "UNKNOWN TURN", "engine.refused"),
    ]
    for (before, line, code) in cases {
      var conversation = EngineConversation(rules: try Self.rules())
      if !before.isEmpty { #expect(conversation.read("OK") == .ready) }
      if before.contains("ask") { _ = conversation.askForMove() }
      let fault = try #require(Self.fault(conversation.read(line)), "\(line.prefix(20))")
      #expect(fault.code == code, "\(line.prefix(20))")
    }
    var flood = Self.ready(try Self.rules())
    _ = flood.askForMove()
    for _ in 0..<EngineConversation.chatterLimit { #expect(flood.read("MESSAGE la") == .said("MESSAGE la")) }
    #expect(Self.fault(flood.read("MESSAGE la"))?.code == "engine.flooded")
  }

  @Test("blank lines are chatter: more than the bound for one move forfeits as a flood, before a move and after")
  func blankFlood() throws {
    var thinking = Self.ready(try Self.rules())
    _ = thinking.askForMove()
    for _ in 0..<EngineConversation.chatterLimit { #expect(Self.fault(thinking.read("\r")) == nil) }
    #expect(Self.fault(thinking.read(""))?.code == "engine.flooded")
    // Blank lines while the player thinks count the same (the count starts again at each move asked).
    var idle = Self.ready(try Self.rules())
    _ = idle.askForMove()
    _ = idle.read("7,7")
    for _ in 0..<EngineConversation.chatterLimit { #expect(Self.fault(idle.read("  ")) == nil) }
    #expect(Self.fault(idle.read(""))?.code == "engine.flooded")
  }

  @Test("more lines on standard error in one game than the bound forfeit, whatever the phase; none once it is over")
  func errorFlood() throws {
    var conversation = EngineConversation(rules: try Self.rules())
    for _ in 0..<EngineConversation.errorLineLimit { #expect(Self.fault(conversation.wroteError()) == nil) }
    let fault = try #require(Self.fault(conversation.wroteError()))
    #expect(fault.code == "engine.flooded" && fault.reason.contains("standard error"))
    #expect(Self.fault(conversation.wroteError()) == nil)
  }

  @Test("a process first asked about a game of two moves or more is told the board: BOARD, the stones, DONE")
  func boardForAGameUnderWay() throws {
    var conversation = EngineConversation(rules: try Self.rules(9, 9))
    // X (the player) a9 = 0,0; O b9 = 1,0; X c9 = 2,0: the engine plays O, to move.
    for column in 0..<3 { try conversation.opponentMoved(Position(row: 0, column: column)) }
    #expect(conversation.read("OK") == .ready)
    #expect(conversation.askForMove() == ["BOARD", "0,0,2", "1,0,1", "2,0,2", "DONE"])
    #expect(conversation.read("3,0") == .moved(Position(row: 0, column: 3)))
    // From then on, each move is a TURN.
    try conversation.opponentMoved(Position(row: 1, column: 0))
    #expect(conversation.askForMove() == ["TURN 0,1"])
    // One move only (the player's first): TURN, as in any game.
    var first = EngineConversation(rules: try Self.rules(9, 9))
    try first.opponentMoved(Position(row: 4, column: 4))
    #expect(first.read("OK") == .ready)
    #expect(first.askForMove() == ["TURN 4,4"])
  }

  @Test("no answer in time and a dead engine forfeit; the reasons say what happened")
  func timeAndDeath() throws {
    var slow = Self.ready(try Self.rules())
    _ = slow.askForMove()
    let hung = try #require(Self.fault(slow.timedOut()))
    #expect(hung.code == "engine.hung" && hung.reason.contains("7000 ms"))
    var idle = Self.ready(try Self.rules())
    #expect(Self.fault(idle.timedOut()) == nil)
    #expect(Self.fault(idle.ended("exited with status 0"))?.code == "engine.crashed")
  }

  @Test("what an engine wrote reaches the reason sanitised: no escape sequence, no line break")
  func sanitised() throws {
    var conversation = EngineConversation(rules: try Self.rules())
    let fault = try #require(Self.fault(conversation.read("\u{1B}]2;owned\u{07}\u{1B}[2J")))
    #expect(!fault.description.unicodeScalars.contains { $0.value < 0x20 })
    #expect(fault.description.contains("\\x1B"))
  }
}
