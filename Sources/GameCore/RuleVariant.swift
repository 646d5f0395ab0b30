/// Which lines win and which moves are allowed in a game of five in a row: freestyle (five or more wins, as
/// every m,n,k game here), exact five (Gomocup's standard rule: only exactly five wins, for both players) or
/// renju (the first player, X or black, wins only by exactly five and may not make a double three, a double four
/// or an overline; the second player's overline wins). The variants other than freestyle need k = 5.
public enum RuleVariant: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case freestyle
  case exactFive = "exact5"
  case renju

  /// The name typed on the command line, kept in settings, on the wire and in records (`exact5`).
  public var name: String { rawValue }

  /// Reads a name as `name` writes it.
  public init?(name: String) { self.init(rawValue: name) }

  /// What the variant means, in a few words for the screens ("renju: X may not make 3-3, 4-4 or 6").
  public var summary: String {
    switch self {
    case .freestyle: "freestyle: five or more in a row wins"
    case .exactFive: "exact five: a line of six or more does not win"
    case .renju: "renju: X wins only by exactly five and may not make 3-3, 4-4 or 6+"
    }
  }

  /// Whether a run of `length` marks of `mark` in one line wins when k is `k`.
  public func wins(runOf length: Int, by mark: Mark, k: Int) -> Bool {
    switch self {
    case .freestyle: length >= k
    case .exactFive: length == k
    case .renju: mark == .x ? length == k : length >= k
    }
  }

  /// Whether `mark`'s moves are checked for fouls (renju's first player only).
  public func restricts(_ mark: Mark) -> Bool { self == .renju && mark == .x }

  public var description: String { rawValue }
}

/// Why renju forbids a move of the first player's.
public enum Foul: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  /// Six or more in a row.
  case overline
  /// Two fours made at once (in two lines, or two in one line).
  case doubleFour
  /// Two open threes made at once, each of which could become a straight four by a move that is not forbidden.
  case doubleThree

  /// "double three" and so on, as the screens say it.
  public var description: String {
    switch self {
    case .overline: "overline"
    case .doubleFour: "double four"
    case .doubleThree: "double three"
    }
  }

  /// Why the move is forbidden, in a sentence's words.
  public var explanation: String {
    switch self {
    case .overline: "it would make six or more in a row"
    case .doubleFour: "it would make two fours at once"
    case .doubleThree: "it would make two open threes at once"
    }
  }
}
