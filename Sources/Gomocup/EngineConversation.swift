import GameCore
import UntrustedText

/// The manager side of the Gomocup protocol, for a game against an outside brain: what to send it, and what its
/// lines mean. Pure: the shell writes the lines, reads the engine's, keeps the clock and says when it died.
/// Every word the engine writes is untrusted (`PeerText`); a wrong one forfeits the game (`EngineFault`).
public struct EngineConversation: Sendable {
  /// What the game tells the engine about time and memory.
  public struct Terms: Sendable, Equatable {
    /// INFO timeout_turn.
    public var turnMilliseconds: Int
    /// INFO timeout_match.
    public var matchMilliseconds: Int
    /// INFO max_memory.
    public var memoryBytes: Int

    public init(turnMilliseconds: Int = 5_000, matchMilliseconds: Int = 300_000, memoryBytes: Int = 350 * 1024 * 1024) {
      self.turnMilliseconds = turnMilliseconds
      self.matchMilliseconds = matchMilliseconds
      self.memoryBytes = memoryBytes
    }
  }

  /// What a line from the engine meant.
  public enum Event: Sendable, Equatable {
    /// Nothing the game needs (a MESSAGE, DEBUG or SUGGEST line): the text, to log.
    case said(PeerText)
    /// The engine accepted the board: the game may start.
    case ready
    /// The engine's move, legal on the board.
    case moved(Position)
    /// The engine lost the game by this fault.
    case forfeit(EngineFault)
    /// The engine's part of the Swap2 opening (SWAP2BOARD), checked against the opening: its stones, or its
    /// choice and the stones that come with it.
    case swap2([Swap2.Action])
    /// The engine answered SWAP2BOARD with ERROR or UNKNOWN (its words): it does not play Swap2. Not a fault,
    /// but the conversation is over (an engine that knows no SWAP2BOARD answers its stone lines too): the game
    /// goes on with a new one.
    case noSwap2(PeerText)
  }

  /// The time past timeout_turn an engine is allowed before it is taken to hang: a process starting, a pipe, a
  /// busy machine (docs/ENGINES.md).
  public static let graceMilliseconds = 2_000
  /// MESSAGE, DEBUG, SUGGEST and empty lines an engine may write while it thinks of one move; more is a flood.
  public static let chatterLimit = 100
  /// Lines an engine may write on its standard error in one game; more is a flood.
  public static let errorLineLimit = 10_000

  private enum Phase: Sendable, Equatable {
    case starting, idle, thinking, over
    /// SWAP2BOARD was sent for this opening, whose actor is the engine.
    case answeringSwap2(Swap2)
  }

  public let terms: Terms
  public private(set) var game: Game
  private var phase = Phase.starting
  private var chatter = 0
  private var errorLines = 0
  /// Whether the engine has been told the board (START then BEGIN, TURN or BOARD).
  private var toldBoard = false

  public init(rules: Rules, terms: Terms = Terms()) {
    self.terms = terms
    self.game = Game(rules: rules)
  }

  /// Whether a game can be played against an engine with these rules: five in a row on 5×5 to 15×15.
  public static func check(_ rules: Rules) -> String? {
    guard rules.k == 5 else {
      return "an engine plays five in a row only (the brain protocol has no other k); use --k 5"
    }
    return nil
  }

  /// The lines that open the game: the board, then the terms (the rule: 0 freestyle, 1 exactly five, 4 renju).
  public func opening() -> [String] {
    let rules = game.rules
    let start = rules.rows == rules.columns ? "START \(rules.rows)" : "RECTSTART \(rules.columns),\(rules.rows)"
    return [
      start,
      "INFO timeout_turn \(terms.turnMilliseconds)",
      "INFO timeout_match \(terms.matchMilliseconds)",
      "INFO max_memory \(terms.memoryBytes)",
      "INFO game_type 1",
      "INFO rule \(BrainMachine.ruleNumber(of: rules.variant))",
    ]
  }

  /// How long the engine has to answer what was sent last: timeout_turn and the grace.
  public var answerMilliseconds: Int { terms.turnMilliseconds + Self.graceMilliseconds }

  /// Whether the engine owes an answer (the clock runs).
  public var isWaiting: Bool {
    if case .answeringSwap2 = phase { return true }
    return phase == .starting || phase == .thinking
  }

  /// The engine is to move: BEGIN on an empty board, else TURN with the opponent's last move (which the game
  /// has already played through `opponentMoved`). A process asked first about a game of more than one move is
  /// told the whole board instead: BOARD, every stone in the order played (field 1 its own, 2 the opponent's),
  /// DONE; so an engine started again mid-game never plays on a board that lacks stones.
  public mutating func askForMove() -> [String] {
    guard phase == .idle else { return [] }
    phase = .thinking
    chatter = 0
    defer { toldBoard = true }
    let history = game.history
    if !toldBoard, history.count > 1 {
      // The engine moves next, so its stones are those an even number of moves before the next one.
      let stones = history.enumerated().map { index, position in
        "\(ProtocolText.cell(position)),\((history.count - index) % 2 == 0 ? 1 : 2)"
      }
      return ["BOARD"] + stones + ["DONE"]
    }
    guard let last = game.lastMove else { return ["BEGIN"] }
    return ["TURN \(ProtocolText.cell(last))"]
  }

  /// The other player's move, played on the conversation's board.
  public mutating func opponentMoved(_ position: Position) throws(MoveError) {
    try game.play(position)
  }

  /// One line from the engine.
  public mutating func read(_ raw: String) -> Event {
    guard phase != .over else { return .said(PeerText(raw)) }
    guard raw.utf8.count <= ProtocolText.lineLimit else {
      return forfeit(.garbage(PeerText(String(raw.prefix(60)))))
    }
    let line = ProtocolText.trimmed(raw)
    let (keyword, rest) = ProtocolText.split(line)
    // An empty line is chatter too: a flood of them forfeits like a flood of MESSAGE lines.
    if line.isEmpty || ["MESSAGE", "DEBUG", "SUGGEST"].contains(keyword) {
      chatter += 1
      guard chatter <= Self.chatterLimit else { return forfeit(.flooded(Self.chatterLimit)) }
      return .said(PeerText(String(line)))
    }
    switch phase {
    case .answeringSwap2(let opening):
      return readSwap2(line, opening: opening)
    case .starting:
      if keyword == "OK", rest.isEmpty {
        phase = .idle
        return .ready
      }
      if keyword == "ERROR" || keyword == "UNKNOWN" { return forfeit(.refused(PeerText(String(line)))) }
      return forfeit(.garbage(PeerText(String(line))))
    case .thinking:
      if keyword == "ERROR" || keyword == "UNKNOWN" { return forfeit(.refused(PeerText(String(line)))) }
      guard let values = ProtocolText.numbers(line, count: 2) else { return forfeit(.garbage(PeerText(String(line)))) }
      let position = Position(row: values[1], column: values[0])
      do {
        try game.play(position)
      } catch {
        return forfeit(.illegal(x: values[0], y: values[1], error))
      }
      phase = .idle
      return .moved(position)
    case .idle, .over:
      return forfeit(.unasked(PeerText(String(line))))
    }
  }

  /// Asks the engine for its part of the Swap2 opening (its `actor`): SWAP2BOARD, the stones so far in the
  /// order placed, one "X,Y" a line, then DONE (as Gomocup's manager asks). The conversation's board becomes the
  /// opening's, and the next move asked for after the opening tells the whole board (BOARD), so an engine that
  /// keeps no board after SWAP2BOARD plays on the right one.
  public mutating func askSwap2(_ opening: Swap2) -> [String] {
    guard phase == .idle, opening.actor != nil, !opening.isSettled else { return [] }
    phase = .answeringSwap2(opening)
    chatter = 0
    adopt(opening.game)
    return ["SWAP2BOARD"] + opening.game.history.map(ProtocolText.cell) + ["DONE"]
  }

  /// The game goes on from `game` (the opening's board once it is settled, with the moves since): the next move
  /// asked for tells the engine the whole board.
  public mutating func adopt(_ game: Game) {
    guard game.history != self.game.history else { return }
    self.game = game
    toldBoard = false
  }

  /// The answer to SWAP2BOARD: three cells on one line (no stones yet); SWAP, one cell (it takes white and moves)
  /// or two cells (two more stones, the choice left) for three stones; SWAP or one cell for five. Each cell must
  /// be free and on the board; anything else forfeits as a move would.
  private mutating func readSwap2(_ line: Substring, opening: Swap2) -> Event {
    let (keyword, _) = ProtocolText.split(line)
    if keyword == "ERROR" || keyword == "UNKNOWN" {
      phase = .over
      return .noSwap2(PeerText(String(line)))
    }
    var actions: [Swap2.Action]
    if keyword == "SWAP", opening.step != .placeThree {
      actions = [.choice(.black)]
    } else {
      var cells: [Position] = []
      for word in line.split(separator: " ", omittingEmptySubsequences: true) {
        guard let values = ProtocolText.numbers(word, count: 2) else {
          return forfeit(.garbage(PeerText(String(line))))
        }
        cells.append(Position(row: values[1], column: values[0]))
      }
      switch (opening.step, cells.count) {
      case (.placeThree, 3): actions = cells.map { .stone($0) }
      case (.secondChooses, 1), (.firstChooses, 1): actions = [.choice(.white), .stone(cells[0])]
      case (.secondChooses, 2): actions = [.choice(.placeTwo)] + cells.map { .stone($0) }
      default: return forfeit(.garbage(PeerText(String(line))))
      }
    }
    var played = opening
    for action in actions {
      do throws(Swap2Error) {
        try played.apply(Swap2.Entry(played.actor ?? .first, action))
      } catch {
        guard case .stone(let position) = action, case .move(let move) = error else {
          return forfeit(.garbage(PeerText(String(line))))
        }
        return forfeit(.illegal(x: position.column, y: position.row, move))
      }
    }
    phase = .idle
    adopt(played.game)
    return .swap2(actions)
  }

  /// One line on the engine's standard error (kept or counted by the shell): past `errorLineLimit` in a game,
  /// the engine forfeits.
  public mutating func wroteError() -> Event {
    guard phase != .over else { return .said("") }
    errorLines += 1
    guard errorLines <= Self.errorLineLimit else { return forfeit(.floodedErrors(Self.errorLineLimit)) }
    return .said("")
  }

  /// No answer within `answerMilliseconds`.
  public mutating func timedOut() -> Event {
    guard isWaiting else { return .said("") }
    return forfeit(.hung(milliseconds: answerMilliseconds))
  }

  /// The engine's output ended (it exited or closed its standard output); `status` says how, when known.
  public mutating func ended(_ status: String) -> Event {
    guard phase != .over else { return .said("") }
    return forfeit(.crashed(status))
  }

  /// The game is over (by the board or a forfeit): nothing the engine says matters any more.
  public mutating func finish() { phase = .over }

  private mutating func forfeit(_ fault: EngineFault) -> Event {
    phase = .over
    return .forfeit(fault)
  }
}
