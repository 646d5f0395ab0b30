import GameCore

/// Who the player faces in a local match.
public enum Opponent: Sendable, Equatable {
  case computer(AILevel)
  /// Two people taking turns at one keyboard.
  case hotseat
}

/// Results across the games of one session. For games against the computer "first" is the player and
/// "second" the computer; for hot-seat games they are X and O.
public struct Score: Sendable, Equatable {
  public var first = 0
  public var second = 0
  public var draws = 0

  public init() {}
}

/// A series of local games with the same opponent and rules: the current game, the cursor, the score.
public struct Match: Sendable, Equatable {
  public let opponent: Opponent
  public let rules: Rules
  public var game: Game
  /// The mark the player has in this game (against the computer); X for hot-seat games.
  public var humanMark: Mark
  public var cursor: Position
  public var score = Score()
  /// Set while the computer is choosing a move.
  public var aiThinking = false
  /// A short message about the last key (an illegal move, say), cleared by the next key.
  public var notice: String?
  /// Changes whenever a pending computer move would no longer fit the game (undo, new game).
  public var token = 0
  /// Which game of the program's run this is (counted by `UIState.gamesStarted`): a game taken back after its end
  /// and finished again keeps its number, so its record is replaced rather than kept twice.
  public var number = 0

  public init(opponent: Opponent, rules: Rules, humanMark: Mark) {
    self.opponent = opponent
    self.rules = rules
    self.game = Game(rules: rules)
    self.humanMark = humanMark
    self.cursor = Position(row: rules.rows / 2, column: rules.columns / 2)
  }

  public var isComputerGame: Bool {
    if case .computer = opponent { return true }
    return false
  }

  /// Whether the computer is to move now.
  public var computerToMove: Bool { isComputerGame && !game.isOver && game.turn != humanMark }

  /// Counts the finished game's result in the score (`sign` -1 takes it back, for undo).
  mutating func count(_ outcome: Outcome, sign: Int = 1) {
    switch outcome.winner {
    case nil: score.draws += sign
    case .some(let mark):
      let firstWon = isComputerGame ? mark == humanMark : mark == .x
      if firstWon { score.first += sign } else { score.second += sign }
    }
  }
}
