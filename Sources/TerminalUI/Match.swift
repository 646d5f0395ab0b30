import GameCore

/// Who the player faces in a local match.
public enum Opponent: Sendable, Equatable {
  case computer(AILevel)
  /// Two people taking turns at one keyboard.
  case hotseat
  /// An outside Gomocup engine, by the name it is shown under (its program's name, already made safe to show).
  case engine(String)
}

/// Results across the games of one local match (a network match's is the session's `Score`). Against the
/// computer "first" is the player and "second" the computer; for hot-seat games they are the two players, P1 and
/// P2 (who take turns being X).
public struct LocalScore: Sendable, Equatable {
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
  /// The mark the player has in this game (against the computer); in hot-seat games, P1's mark: X in the
  /// first game, then O and X in turn, so the players take turns moving first (as a network rematch does).
  public var humanMark: Mark
  /// Games begun in this match (the next one's number less one).
  public var gamesStarted = 0
  public var cursor: Position
  public var score = LocalScore()
  /// Set while the computer is choosing a move.
  public var aiThinking = false
  /// A short message about the last key (an illegal move, say), cleared by the next key.
  public var notice: String?
  /// Why the engine lost this game without it being played out (it crashed, hung, played an illegal cell or
  /// wrote garbage), already made safe to show; the game is over and the player won.
  public var forfeit: String?
  /// Both clocks of a timed game (nil: untimed); the side whose flag fell has lost on time.
  public var clock: LocalClock?
  /// Changes whenever a pending computer move would no longer fit the game (undo, new game).
  public var token = 0
  /// What the player is asked to confirm before an unfinished game is dropped (q, Esc or n with moves on the
  /// board), or nil.
  public var confirming: LocalConfirmation?
  /// The go-to field (`g`) while it is open.
  public var goTo: GoToField?
  /// The Swap2 opening of a game that opens so (nil: the usual opening); every stone goes through it.
  public var swap2: LocalSwap2?
  /// What became of the opening asked for, said below the status line for the whole game: an engine that does
  /// not play Swap2 (`UIController.engineRefusedSwap2`), already made safe to show. A new game clears it.
  public var openingNote: String?
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

  public var isEngineGame: Bool {
    if case .engine = opponent { return true }
    return false
  }

  /// Whether a program (the computer or an engine) plays the other side.
  public var isMachineGame: Bool { isComputerGame || isEngineGame }

  /// Whether the game is over: by the board, by the engine's forfeit, or on time.
  public var isOver: Bool { game.isOver || forfeit != nil || lostOnTime != nil }

  /// Whether dropping the game now would lose something: moves played and no result yet.
  public var isInProgress: Bool { !isOver && !game.history.isEmpty }

  /// The colour whose time ran out, in a timed game that ended so (in a Swap2 game, its side's colour).
  public var lostOnTime: Mark? { clock?.flaggedColour(in: swap2?.opening) }

  /// The player's clock side (P1's in hot seat): its mark, or in a Swap2 game its place's (X the first player).
  public var humanClockSide: Mark { swap2?.humanSide ?? humanMark }

  /// Whether the engine is to move now (not while the colours of a Swap2 opening are being settled).
  public var engineToMove: Bool {
    isEngineGame && !isOver && swap2?.isOpening != true && game.turn != humanMark
  }

  /// Who has `mark` in a hot-seat game: "P1" or "P2".
  public func player(with mark: Mark) -> String { mark == humanMark ? "P1" : "P2" }

  /// Whether the computer is to move now (not while the colours of a Swap2 opening are being settled).
  public var computerToMove: Bool {
    isComputerGame && !isOver && swap2?.isOpening != true && game.turn != humanMark
  }

  /// Whether the computer is to place its stones or choose in a Swap2 opening now.
  public var computerToAnswerSwap2: Bool { isComputerGame && machineToAnswerSwap2 }

  /// Whether the engine is to place its stones or choose in a Swap2 opening now (SWAP2BOARD).
  public var engineToAnswerSwap2: Bool { isEngineGame && machineToAnswerSwap2 }

  /// Whether the other side, the computer or an engine, is to place its stones or choose in a Swap2 opening now.
  public var machineToAnswerSwap2: Bool {
    guard isMachineGame, !isOver, let swap2, swap2.isOpening else { return false }
    return swap2.opening.actor == swap2.human.other
  }

  /// The other side as a sentence names it: "the computer" or "the engine" (hot seat: "P2").
  public var otherSide: String {
    switch opponent {
    case .computer: "the computer"
    case .engine: "the engine"
    case .hotseat: "P2"
    }
  }

  /// Both clocks as the screen shows them at `now`, "mine" the player's (P1's in hot seat); nil when untimed.
  public func clocks(now: Double) -> NetGameState.Clocks? {
    guard let clock else { return nil }
    var clocks = NetGameState.Clocks(clock, mine: humanClockSide, now: now)
    // Two players at one keyboard: the warning is for whoever's clock runs low.
    if opponent == .hotseat, clocks.running == .theirs {
      clocks.lowMine = NetGameState.Clocks.isLow(clocks.theirs, base: clock.control.base)
    }
    return clocks
  }

  /// The names the clock line gives the two sides: the player and the computer, or P1 and P2.
  public var clockNames: (mine: String, theirs: String) {
    switch opponent {
    case .computer: ("You", "Computer")
    case .engine: ("You", "Engine")
    case .hotseat: ("P1", "P2")
    }
  }

  /// Whether the other side (the computer or an engine) is to move now, or to answer in a Swap2 opening.
  public var machineToMove: Bool { computerToMove || engineToMove || machineToAnswerSwap2 }

  /// Counts the finished game's result in the score (`sign` -1 takes it back, for undo).
  mutating func count(_ outcome: Outcome, sign: Int = 1) { count(winner: outcome.winner, sign: sign) }

  /// Counts a game won by `winner` (nil: drawn) in the score.
  mutating func count(winner: Mark?, sign: Int = 1) {
    switch winner {
    case nil: score.draws += sign
    case .some(let mark):
      let firstWon = mark == humanMark
      if firstWon { score.first += sign } else { score.second += sign }
    }
  }
}

/// A question before a local game in progress is dropped: leaving it (q or Esc) or starting another (n).
public enum LocalConfirmation: Sendable, Equatable {
  case leave, newGame
}

/// What a match leaves behind when the player returns to the lobby: its score and how many games it had, so
/// that starting the same kind of match again (the same opponent and rules) carries on from there.
public struct MatchRecord: Sendable, Equatable {
  public var score: LocalScore
  public var gamesStarted: Int

  /// The kind of match a record belongs to.
  static func key(_ opponent: Opponent, _ rules: Rules) -> String { "\(opponent) \(rules)" }
}

extension NetGameState.Clocks {
  /// A local game's clocks as a screen or plain mode shows them at `now`, "mine" the side with `mark`.
  init(_ clock: LocalClock, mine mark: Mark, now: Double) {
    let mine = clock.remaining(mark, now: now)
    self.init(
      mine: mine, theirs: clock.remaining(mark.opponent, now: now),
      running: clock.running.map { $0 == mark ? .mine : .theirs }, control: clock.control.description,
      lowMine: Self.isLow(mine, base: clock.control.base))
  }
}
