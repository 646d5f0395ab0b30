/// How a finished game ended.
public enum Outcome: Sendable, Hashable {
  /// `mark` completed `line` (every cell of the run, which may be longer than k).
  case win(Mark, line: [Position])
  case draw

  public var winner: Mark? {
    if case .win(let mark, _) = self { return mark }
    return nil
  }
}
