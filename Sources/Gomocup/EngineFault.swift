import ExplainedErrors
import GameCore
import UntrustedText

/// Why an outside engine lost a game without it being played out. Its words are `PeerText`: shown, they are
/// sanitised.
public enum EngineFault: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  /// The process ended or closed its output (how, as the shell saw it: "exited with status 3", "killed by
  /// signal 11").
  case crashed(String)
  /// No answer within timeout_turn and the grace.
  case hung(milliseconds: Int)
  /// A cell off the board or already taken.
  case illegal(x: Int, y: Int, MoveError)
  /// A line that is no answer of the protocol.
  case garbage(PeerText)
  /// An answer nobody asked for.
  case unasked(PeerText)
  /// ERROR or UNKNOWN where a move or OK was wanted.
  case refused(PeerText)
  /// More MESSAGE or DEBUG lines than one move allows.
  case flooded(Int)
  /// More lines on its standard error in one game than the bound.
  case floodedErrors(Int)

  /// A stable name for the fault, for records and tests.
  public var code: String {
    switch self {
    case .crashed: "engine.crashed"
    case .hung: "engine.hung"
    case .illegal: "engine.illegal-move"
    case .garbage: "engine.garbage"
    case .unasked: "engine.unasked"
    case .refused: "engine.refused"
    case .flooded, .floodedErrors: "engine.flooded"
    }
  }

  /// What the engine did.
  public var reason: String {
    switch self {
    case .crashed(let how): "the engine stopped (\(how))"
    case .hung(let milliseconds): "the engine gave no move within \(milliseconds) ms"
    case .illegal(let x, let y, let error):
      switch error {
      case .occupied: "the engine played \(x),\(y), which is already taken"
      case .outOfRange: "the engine played \(x),\(y), which is off the board"
      case .forbidden(_, let foul): "the engine played \(x),\(y), which renju forbids X (\(foul))"
      default: "the engine played \(x),\(y) out of turn"
      }
    case .garbage(let text): "the engine wrote \"\(text)\", which is not an answer of the brain protocol"
    case .unasked(let text): "the engine wrote \"\(text)\" when no answer was asked for"
    case .refused(let text): "the engine refused: \"\(text)\""
    case .flooded(let limit): "the engine wrote more than \(limit) message lines for one move"
    case .floodedErrors(let limit): "the engine wrote more than \(limit) lines on its standard error in one game"
    }
  }

  /// What the player can do.
  public var hint: String? {
    "the engine forfeits this game; play on against the built-in computer, or check the engine (its messages "
      + "are in the log)"
  }

  public var description: String { reason }
}
