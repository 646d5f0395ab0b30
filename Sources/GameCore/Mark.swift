/// One of the two players' marks; X always moves first.
public enum Mark: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case x = 1
  case o = 2

  /// The other player's mark.
  public var opponent: Mark { self == .x ? .o : .x }

  public var description: String { self == .x ? "X" : "O" }
}
