import GameCore

/// The plain line mode, for screen readers and scripts: the board as text after every move, moves read as
/// a cell number or "row,col", errors on lines starting "error:", and a final "result:" line. Pure: the
/// driver feeds it lines and computer moves and prints what it returns.
public struct PlainSession: Sendable {
  public private(set) var game: Game
  public let opponent: Opponent
  public let humanMark: Mark
  public init(opponent: Opponent, rules: Rules, humanMark: Mark) {
    self.game = Game(rules: rules)
    self.opponent = opponent
    self.humanMark = humanMark
  }

  private var isComputerGame: Bool {
    if case .computer = opponent { return true }
    return false
  }

  public var isFinished: Bool { game.isOver }

  /// Whether the driver should ask the computer for a move now.
  public var computerToMove: Bool {
    isComputerGame && !game.isOver && game.turn != humanMark
  }

  /// The opening text: who plays what, how to enter moves, and the empty board.
  public func introduction() -> String {
    let rules = game.rules
    var lines = ["tictactoe: \(rules.rows)x\(rules.columns), \(rules.k) in a row."]
    switch opponent {
    case .computer(let level):
      lines.append("You play \(humanMark) against the computer (\(level)). X moves first.")
    case .hotseat:
      lines.append("Two players: X moves first, then O.")
    }
    lines.append(
      "Enter a move as a cell number (1-\(rules.cellCount), row by row from the top left) or as row,col."
        + " Other commands: undo, help, quit.")
    return lines.joined(separator: "\n") + "\n" + boardText() + "\n"
  }

  /// The prompt to print before reading a line (no newline).
  public var prompt: String {
    if case .computer = opponent { return "your move (\(humanMark)): " }
    return "\(game.turn) to move: "
  }

  /// Handles one line of input and returns the text to print.
  public mutating func handle(line raw: String) -> String {
    let line = raw.trimmingSpaces().lowercased()
    switch line {
    case "":
      return "error: type a cell number (1-\(game.rules.cellCount)) or row,col\n"
    case "help", "h", "?":
      return introduction()
    case "undo", "u":
      return undo()
    default:
      break
    }
    if let number = Int(line), Position(cellNumber: number, rules: game.rules) == nil {
      return "error: there is no cell \(number); cells are numbered 1-\(game.rules.cellCount)\n"
    }
    guard let position = parse(line) else {
      return
        "error: \"\(raw.trimmingSpaces())\" is not a move; type a cell number (1-\(game.rules.cellCount)) or row,col\n"
    }
    if computerToMove { return "error: it is the computer's turn\n" }
    return play(position, announce: nil)
  }

  /// Applies the computer's move and returns the text to print.
  public mutating func computerMoved(_ position: Position) -> String {
    play(position, announce: "computer plays \(position.cellNumber(in: game.rules)) (\(position))")
  }

  private mutating func play(_ position: Position, announce: String?) -> String {
    do {
      try game.play(position)
    } catch {
      return "error: \(error)\n"
    }
    var text = announce.map { $0 + "\n" } ?? ""
    text += boardText() + "\n"
    if let outcome = game.outcome {
      switch outcome.winner {
      case .some(let mark): text += "result: \(mark) wins\n"
      case nil: text += "result: draw\n"
      }
    }
    return text
  }

  private mutating func undo() -> String {
    let humanPlies = game.history.indices.filter { ($0.isMultiple(of: 2) ? Mark.x : .o) == humanMark }
    guard !game.history.isEmpty, !isComputerGame || !humanPlies.isEmpty else { return "error: nothing to undo\n" }
    while let last = game.history.indices.last {
      game.undo()
      if !isComputerGame || (last.isMultiple(of: 2) ? Mark.x : .o) == humanMark { break }
    }
    return "undone\n" + boardText() + "\n"
  }

  /// "5" (cell number) or "2,3" / "2 3" (row, column; 1-based).
  func parse(_ line: String) -> Position? { PlainSession.parse(line, rules: game.rules) }

  /// Parses a move typed for `rules`: a cell number or row,col (1-based); nil when it is not a move.
  public static func parse(_ line: String, rules: Rules) -> Position? {
    let parts = line.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    if parts.count == 1, !line.contains(","), let number = Int(parts[0]) {
      return Position(cellNumber: number, rules: rules)
    }
    if parts.count == 2, let row = Int(parts[0]), let column = Int(parts[1]) {
      return Position(row: row - 1, column: column - 1)
    }
    return nil
  }

  /// The board, one text line per row: marks as X and O, empty cells as their numbers.
  public func boardText() -> String { PlainSession.boardText(game) }

  /// `game`'s board as text lines: marks as X and O, empty cells as their numbers.
  public static func boardText(_ game: Game) -> String {
    let rules = game.rules
    let width = String(rules.cellCount).count
    var rows: [String] = []
    for r in 0..<rules.rows {
      var cells: [String] = []
      for c in 0..<rules.columns {
        let position = Position(row: r, column: c)
        let text = game.board[position].map { "\($0)" } ?? String(position.cellNumber(in: rules))
        cells.append(String(repeating: " ", count: width - text.count) + text)
      }
      rows.append(" " + cells.joined(separator: " | "))
    }
    let rule = Array(repeating: String(repeating: "-", count: width + 2), count: rules.columns).joined(separator: "+")
    return rows.joined(separator: "\n" + rule + "\n")
  }
}

extension String {
  func trimmingSpaces() -> String {
    var s = Substring(self)
    while s.first?.isWhitespace == true { s.removeFirst() }
    while s.last?.isWhitespace == true { s.removeLast() }
    return String(s)
  }
}
