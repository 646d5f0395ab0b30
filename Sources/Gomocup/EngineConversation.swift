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
  public var isWaiting: Bool { phase == .starting || phase == .thinking }

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
