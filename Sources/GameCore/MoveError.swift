import ExplainedErrors

/// Why a move was refused. Every illegal move is one of these, never a crash.
public enum MoveError: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  case outOfRange(Position, Rules)
  case occupied(Position, by: Mark)
  case gameOver
  case notYourTurn(expected: Mark)
  /// Renju forbids the first player this cell.
  case forbidden(Position, Foul)

  /// A stable name for the failure, for logs and tests.
  public var code: String {
    switch self {
    case .outOfRange: "move.out-of-range"
    case .occupied: "move.occupied"
    case .gameOver: "move.game-over"
    case .notYourTurn: "move.not-your-turn"
    case .forbidden: "move.forbidden"
    }
  }

  /// Why the move was refused (what `description` says: the peer and the screens show it as it is).
  public var reason: String {
    switch self {
    case .outOfRange(let position, let rules): "\(position) is off the \(rules.rows)×\(rules.columns) board"
    case .occupied(let position, let mark): "\(position) is already taken by \(mark)"
    case .gameOver: "the game is over"
    case .notYourTurn(let expected): "it is \(expected)'s turn"
    case .forbidden(let position, let foul): "\(position) is forbidden to X under renju: \(foul.explanation)"
    }
  }

  /// What the player can do instead.
  public var hint: String? {
    switch self {
    case .outOfRange, .occupied: "choose an empty cell on the board"
    case .gameOver: "start a new game"
    case .notYourTurn: "wait for the other move"
    case .forbidden: "choose another cell: X may not make a double three, a double four or six in a row"
    }
  }

  public var description: String { reason }
}
