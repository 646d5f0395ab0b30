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
    case (.drawn, .draw): return nil
    // Version 3 ends a game as a draw once no line can still be completed (PROTOCOL.md rule 18).
    case (.drawn, nil) where game.noLineCanBeCompleted: return nil
    case (.unknown, _): return nil
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
  case drawn
  /// The record does not say (an SGF file from elsewhere without RE, or RE[?] or RE[Void]).
  case unknown

  public var winner: Mark? {
    if case .won(let mark, _) = self { return mark }
    return nil
  }

  public var description: String {
    switch self {
    case .won(let mark, let reason): return "\(mark) won \(reason.phrase)"
    case .drawn: return "a draw"
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
  /// The other side left and did not come back within the grace period, and the winner claimed the game.
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
    case .claim: return "T"
    case .left, .forfeit: return "F"
    }
  }
}
