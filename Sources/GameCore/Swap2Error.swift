import ExplainedErrors

/// Why a Swap2 opening refused an action: every wrong stone or choice is one of these, never a crash.
public enum Swap2Error: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  /// Swap2 is five in a row on a board of at least 9×9.
  case unsupportedRules(Rules)
  /// The other player acts now.
  case notYourTurn(expected: Swap2.Player)
  /// A stone was placed where a choice is due.
  case choiceDue(Swap2.Step)
  /// A choice was made where a stone is due.
  case stoneDue(Swap2.Step)
  /// A choice this step does not offer (the first player cannot place two more).
  case choiceNotOffered(Swap2.Choice, Swap2.Step)
  /// The stone itself was refused: off the board, on a taken cell, or after the end.
  case move(MoveError)

  /// A stable name for the failure, for logs and tests.
  public var code: String {
    switch self {
    case .unsupportedRules: "swap2.unsupported-rules"
    case .notYourTurn: "swap2.not-your-turn"
    case .choiceDue: "swap2.choice-due"
    case .stoneDue: "swap2.stone-due"
    case .choiceNotOffered: "swap2.choice-not-offered"
    case .move(let error): error.code
    }
  }

  /// What was refused.
  public var reason: String {
    switch self {
    case .unsupportedRules(let rules): "the Swap2 opening is not played on \(rules)"
    case .notYourTurn(let expected): "it is \(expected)'s turn in the opening"
    case .choiceDue(let step): "a choice is due, not a stone (\(step))"
    case .stoneDue(let step): "a stone is due, not a choice (\(step))"
    case .choiceNotOffered(let choice, let step): "\"\(choice)\" is not a choice now (\(step))"
    case .move(let error): error.reason
    }
  }

  /// What the player can do instead.
  public var hint: String? {
    switch self {
    case .unsupportedRules:
      "Swap2 needs five in a row on a board of at least \(Swap2.minimumSide)×\(Swap2.minimumSide)"
    case .notYourTurn: "wait for the other player"
    case .choiceDue(let step), .choiceNotOffered(_, let step): step.description
    case .stoneDue: "place a stone on an empty cell"
    case .move(let error): error.hint
    }
  }

  public var description: String { hint.map { "\(reason): \($0)" } ?? reason }
}
