import GameCore

/// One finished (or stopped) game as a record keeps it: the rules, who played, when, the moves and the result.
public struct GameRecord: Sendable, Hashable {
  /// One side of the game. Black is X, the first player.
  public struct Player: Sendable, Hashable {
    /// The name the player gave (a peer's hello name, the local player's name); never a petname.
    public var name: String
    /// The computer's level (`easy`, `normal`, `perfect`) when this side was the computer.
    public var level: String?
    /// The player's public key (base64 of its DER SubjectPublicKeyInfo), in network games.
    public var publicKey: String?
    /// The player's signature over `signedBytes` (base64), once it has signed.
    public var signature: String?
    /// The name a computer player is given in records; its level is in TTLB/TTLW.
    public static let computerName = "Computer"
    /// The level an outside engine is recorded with (TTLB/TTLW); its name is its program's.
    public static let engineLevel = "engine"

    public init(name: String, level: String? = nil, publicKey: String? = nil, signature: String? = nil) {
      self.name = name
      self.level = level
      self.publicKey = publicKey
      self.signature = signature
    }
  }

  public var rules: Rules
  public var black: Player
  public var white: Player
  /// The UTC day the game started, `YYYY-MM-DD` (empty when a record from elsewhere has none).
  public var date: String
  public var result: RecordResult
  public var moves: [Position]
  /// The time control the game was played under (TM, OT); `.none` for an untimed game.
  public var timeControl: TimeControl = .none
  /// Each move's agreed charge and its mover's time left after it (BL/WL, TTQ), one per move in a timed game
  /// (empty when untimed, or for a record from elsewhere without times).
  public var times: [MoveTime] = []
  /// The flag claim that ended the game, with its answer: for a loss on time and a disputed game (TTF).
  public var flag: FlagClaim?
  /// The version of the signed bytes the players sign (TTSV): 1 before version 3 of the protocol, 2 after.
  public var signedVersion = 1
  /// The opening, when it was not the ordinary one (TTO): Swap2 and its choices.
  public var opening: RecordOpening?

  public init(rules: Rules, black: Player, white: Player, date: String, result: RecordResult, moves: [Position]) {
    self.rules = rules
    self.black = black
    self.white = white
    self.date = date
    self.result = result
    self.moves = moves
  }

  public func player(_ mark: Mark) -> Player { mark == .x ? black : white }

  /// The k a record without one means: five in a row, or the shorter side on a smaller board.
  public static func defaultK(rows: Int, columns: Int) -> Int { min(5, rows, columns) }

  /// Why the moves do not lead to the stated result, or nil when they do. (Moves are legal in any record that
  /// parsed; this checks that a line, a full board or an unfinished board agrees with the result.)
  public var resultProblem: String? {
    let game: Game
    do throws(MoveError) {
      game = try Game(rules: rules, moves: moves)
    } catch {
      return "the moves are not legal: \(error)"
    }
    switch (result, game.outcome) {
    case (.won(let mark, .line), .win(let winner, _)) where mark == winner: return nil
    case (.drawn(.full), .draw), (.drawn(.dead), .draw): return nil
    // Version 3 ends a game as a draw once no line can still be completed (PROTOCOL.md rule 18).
    case (.drawn(.full), nil) where game.noLineCanBeCompleted: return nil
    case (.drawn(.dead), nil) where game.noLineCanBeCompleted: return nil
    case (.drawn(.dead), nil): return "no line of \(rules.k) is dead yet, but the record says \(result)"
    // Players may agree to a draw at any time before the game is over.
    case (.drawn(.agreed), nil): return nil
    case (.unknown, _), (.void, _), (.disputed, _): return nil
    case (.won(_, let reason), nil) where reason != .line: return nil
    case (_, .win(let winner, _)): return "the moves give \(winner) a line, but the record says \(result)"
    case (_, .draw): return "the moves fill the board without a line, but the record says \(result)"
    case (_, nil): return "the moves end before the game is over, but the record says \(result)"
    }
  }
}

/// How a game ended, as its record states it.
public enum RecordResult: Sendable, Hashable, CustomStringConvertible {
  case won(Mark, EndReason)
  case drawn(DrawReason)
  /// No result: aborted before each side had moved (RE[Void], PROTOCOL.md rule 17), or RE[Void] from elsewhere.
  case void
  /// A flag claim the mover's own clock contradicted by more than A (PROTOCOL.md rule 15): no winner, no score.
  /// RE[?] with TTE[disputed]; the claim and its answer are the record's `flag`.
  case disputed
  /// The record does not say (an SGF file from elsewhere without RE, or RE[?]).
  case unknown

  public var winner: Mark? {
    if case .won(let mark, _) = self { return mark }
    return nil
  }

  public var description: String {
    switch self {
    case .won(let mark, let reason): return "\(mark) won \(reason.phrase)"
    case .drawn(let reason): return "a draw\(reason.phrase)"
    case .void: return "void (aborted)"
    case .disputed: return "disputed (a flag claim the other clock contradicted)"
    case .unknown: return "no result"
    }
  }
}

/// Why the winner won.
public enum EndReason: String, Sendable, Hashable, CaseIterable {
  /// k in a row.
  case line
  /// The other side resigned.
  case resignation = "resign"
  /// The other side's time ran out (a flag claim its own clock agreed with, PROTOCOL.md rule 15). SGF's B+T.
  case time
  /// The other side left and did not come back within the grace period, and the winner claimed the game: it
  /// abandoned the game, SGF's B+F (records before version 2 of the signed bytes wrote B+T).
  case claim
  /// The other side left the game (a goodbye, or the connection closed for good).
  case left
  /// The other side, an outside engine, lost by a fault: it crashed, hung, played an illegal cell or wrote
  /// garbage. SGF's B+F or W+F, as for `left`; the record's end property tells the two apart.
  case forfeit

  /// "by a line", "by resignation", ...
  public var phrase: String {
    switch self {
    case .line: return "with a line"
    case .resignation: return "by resignation"
    case .time: return "on time"
    case .claim: return "by a claim after the grace period"
    case .left: return "as the other side left"
    case .forfeit: return "by the engine's forfeit"
    }
  }

  /// The letter SGF's RE gives it after `B+` or `W+` (none for a line).
  var sgfSuffix: String {
    switch self {
    case .line: return ""
    case .resignation: return "R"
    case .time: return "T"
    case .claim, .left, .forfeit: return "F"
    }
  }
}

/// Why a drawn game was drawn.
public enum DrawReason: String, Sendable, Hashable, CaseIterable {
  /// The board filled without a line (and, before version 3, any draw).
  case full
  /// The players agreed to a draw (PROTOCOL.md rule 16).
  case agreed
  /// No line of k could still be completed by either side (PROTOCOL.md rule 18).
  case dead

  var phrase: String {
    switch self {
    case .full: return ""
    case .agreed: return " by agreement"
    case .dead: return ": no line could still be completed"
    }
  }
}
