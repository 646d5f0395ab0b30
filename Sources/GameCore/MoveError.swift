/// Why a move was refused. Every illegal move is one of these, never a crash.
public enum MoveError: Error, Sendable, Equatable, CustomStringConvertible {
  case outOfRange(Position, Rules)
  case occupied(Position, by: Mark)
  case gameOver
  case notYourTurn(expected: Mark)

  public var description: String {
    switch self {
    case .outOfRange(let position, let rules):
      return "\(position) is off the \(rules.rows)×\(rules.columns) board"
    case .occupied(let position, let mark):
      return "\(position) is already taken by \(mark)"
    case .gameOver:
      return "the game is over"
    case .notYourTurn(let expected):
      return "it is \(expected)'s turn"
    }
  }
}
