import UntrustedText

/// One character cell of the screen.
public struct ScreenCell: Sendable, Hashable {
  public var character: Character
  public var style: Style

  public init(_ character: Character = " ", style: Style = .plain) {
    self.character = character
    self.style = style
  }
}

/// A grid of styled cells that views draw into; backends copy it to a real terminal, tests read it as text.
public struct ScreenBuffer: Sendable, Equatable {
  public let width: Int
  public let height: Int
  public private(set) var cells: [ScreenCell]

  public init(width: Int, height: Int) {
    self.width = max(0, width)
    self.height = max(0, height)
    cells = Array(repeating: ScreenCell(), count: self.width * self.height)
  }

  public subscript(row: Int, column: Int) -> ScreenCell {
    get { cells[row * width + column] }
    set {
      guard (0..<height).contains(row), (0..<width).contains(column) else { return }
      cells[row * width + column] = newValue
    }
  }

  /// Writes `text` from (`row`, `column`), clipped at the edges. Every character takes one column. A control,
  /// bidirectional or invisible character is written as its visible escape: no cell can hold terminal control.
  public mutating func put(_ text: String, row: Int, column: Int, style: Style = .plain) {
    var c = column
    for character in VisibleText.escaping(text) {
      self[row, c] = ScreenCell(character, style: style)
      c += 1
    }
  }

  /// Writes `text` centred on `row`.
  public mutating func putCentred(_ text: String, row: Int, style: Style = .plain) {
    put(text, row: row, column: max(0, (width - text.count) / 2), style: style)
  }

  /// Changes the style of `count` cells from (`row`, `column`), keeping their characters.
  public mutating func restyle(row: Int, column: Int, count: Int, _ change: (inout Style) -> Void) {
    for c in column..<(column + count) where (0..<height).contains(row) && (0..<width).contains(c) {
      change(&cells[row * width + c].style)
    }
  }

  /// The rows as plain text with trailing spaces trimmed (for tests and the plain backend).
  public var lines: [String] {
    (0..<height).map { row in
      var line = String(cells[(row * width)..<(row * width + width)].map(\.character))
      while line.last == " " { line.removeLast() }
      return line
    }
  }

  public var text: String { lines.joined(separator: "\n") }
}
