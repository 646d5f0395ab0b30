/// What a piece of text means, so a backend can pick a colour for it (or none).
public enum ColorRole: Int, Sendable, CaseIterable {
  case xMark = 1
  case oMark
  case winningLine
  case title
  case accent
  case warning
}

/// How one cell is drawn. Meaning never rests on colour alone: marks are letters, the cursor is bracketed
/// and reversed, the winning line is bold and underlined.
public struct Style: Sendable, Hashable {
  public var bold = false
  public var reverse = false
  public var dim = false
  public var underline = false
  public var color: ColorRole?

  public init(
    bold: Bool = false, reverse: Bool = false, dim: Bool = false, underline: Bool = false, color: ColorRole? = nil
  ) {
    self.bold = bold
    self.reverse = reverse
    self.dim = dim
    self.underline = underline
    self.color = color
  }

  public static let plain = Style()
}
