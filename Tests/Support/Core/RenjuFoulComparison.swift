import GameCore

/// One position with the fouls another checker found on it: a square board as scripts/renju-fouls.py writes it
/// (a character a cell, `.` empty, `x` X, `o` O, row 0 first) and that checker's answer for every cell (`-`
/// taken, `0` allowed, `1` double three, `2` double four, `3` overline).
public struct JudgedPosition: Sendable {
  public var board: Board
  public var answers: [Character]

  /// Reads `renju-fouls.py`'s line: the board, a space, the answers.
  public init?(line: Substring) {
    let parts = line.split(separator: " ")
    guard parts.count == 2, parts[0].count == parts[1].count, let board = Self.board(parts[0]) else { return nil }
    self.board = board
    answers = Array(parts[1])
  }

  /// A square renju board from its characters.
  public static func board(_ text: Substring) -> Board? {
    let size = Int(Double(text.count).squareRoot().rounded())
    guard size * size == text.count, let rules = try? Rules(size: size, k: 5, variant: .renju) else { return nil }
    var marks: [Mark?] = []
    for character in text {
      switch character {
      case "x": marks.append(.x)
      case "o": marks.append(.o)
      case ".": marks.append(nil)
      default: return nil
      }
    }
    return Board(rules: rules, marks: marks)
  }

  /// The board's characters, as `board(_:)` reads them.
  public static func text(_ board: Board) -> String {
    let rules = board.rules
    var text = ""
    for row in 0..<rules.rows {
      for column in 0..<rules.columns {
        let mark = board[Position(row: row, column: column)]
        text.append(mark == .x ? "x" : mark == .o ? "o" : ".")
      }
    }
    return text
  }

  /// The answer character for a foul (or none).
  public static func code(_ foul: Foul?) -> Character {
    switch foul {
    case nil: "0"
    case .doubleThree: "1"
    case .doubleFour: "2"
    case .overline: "3"
    }
  }

  /// The board drawn a row a line, `*` on the cell `index` (for messages).
  public func picture(marking index: Int) -> String {
    let text = Array(Self.text(board))
    let columns = board.rules.columns
    return (0..<board.rules.rows).map { row in
      String((0..<columns).map { column in row * columns + column == index ? "*" : text[row * columns + column] })
    }.joined(separator: "\n")
  }
}

/// Where the referee and another checker part ways on one cell.
public struct FoulDisagreement: CustomStringConvertible, Sendable {
  public var position: JudgedPosition
  public var index: Int
  public var ours: Character
  public var theirs: Character

  public var description: String {
    "cell \(index): ours \(ours), theirs \(theirs)\n\(position.picture(marking: index))"
  }
}

/// The referee's fouls for X against another checker's answers.
public enum FoulComparison {
  /// The cells compared, the fouls the referee found among them, and every cell where the answers differ.
  public static func disagreements(_ positions: [JudgedPosition]) -> (
    cells: Int, fouls: Int, differ: [FoulDisagreement]
  ) {
    var cells = 0
    var fouls = 0
    var differ: [FoulDisagreement] = []
    for position in positions {
      let columns = position.board.rules.columns
      for index in position.answers.indices where position.answers[index] != "-" {
        cells += 1
        let cell = Position(row: index / columns, column: index % columns)
        let ours = JudgedPosition.code(Referee.foul(cell, by: .x, on: position.board))
        if ours != "0" { fouls += 1 }
        if ours != position.answers[index] {
          differ.append(FoulDisagreement(position: position, index: index, ours: ours, theirs: position.answers[index]))
        }
      }
    }
    return (cells, fouls, differ)
  }

  /// Whether `difference` comes from the one reading where the referee and the Piskvork judge part ways: a three
  /// whose straight four point is also a five point (X has a four elsewhere through that cell). The rules' text
  /// counts it (the point is not forbidden: a five never is), the judge does not. So a double three of ours may
  /// be no foul to the judge, and, one move further on in the recursion, a four point that is a double three to
  /// us only through such a three is no foul to the judge, which then counts the three it makes: a double three
  /// to the judge that is none to us. Either way X could already make five on the board, and reading threes the
  /// judge's way gives the judge's answer.
  public static func isTheFivePointReading(_ difference: FoulDisagreement) -> Bool {
    let board = difference.position.board
    let pair = "\(difference.ours)\(difference.theirs)"
    guard pair == "10" || pair == "01" else { return false }
    let rules = board.rules
    let cells = (0..<rules.cellCount).map { Position(row: $0 / rules.columns, column: $0 % rules.columns) }
    let marks = cells.map { board[$0] }
    let canWinNow = cells.indices.contains { index in
      guard marks[index] == nil else { return false }
      var after = marks
      after[index] = .x
      return Board(rules: rules, marks: after)?.winningLine(through: cells[index]) != nil
    }
    let theirs = JudgedPosition.code(
      Referee.foul(cells[difference.index], by: .x, on: board, fivePointMakesThree: false))
    return canWinNow && theirs == difference.theirs
  }

  /// `count` positions crowded enough for fouls, from `seed`: on 15×15 (and some smaller squares), a patch
  /// where each cell is X, O or empty with chances that change from one position to the next (a generator of
  /// its own, not renju-fouls.py's).
  public static func randomPositions(seed: UInt64, count: Int) -> [Board] {
    var rng = SplitMix(seed: seed)
    var boards: [Board] = []
    for _ in 0..<count {
      let size = [15, 15, 12, 10, 7].randomElement(using: &rng) ?? 15
      let patch = Int.random(in: 5...min(size, 10), using: &rng)
      let top = Int.random(in: 0...(size - patch), using: &rng)
      let left = Int.random(in: 0...(size - patch), using: &rng)
      let x = Double.random(in: 0.25...0.55, using: &rng)
      let o = Double.random(in: 0.0...0.25, using: &rng)
      var marks = [Mark?](repeating: nil, count: size * size)
      for row in top..<(top + patch) {
        for column in left..<(left + patch) {
          let roll = Double.random(in: 0..<1, using: &rng)
          marks[row * size + column] = roll < x ? .x : roll < x + o ? .o : nil
        }
      }
      if let rules = try? Rules(size: size, k: 5, variant: .renju), let board = Board(rules: rules, marks: marks) {
        boards.append(board)
      }
    }
    return boards
  }
}
