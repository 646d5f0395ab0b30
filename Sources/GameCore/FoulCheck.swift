/// Renju's fouls for the first player (X, black, the mark 1), worked out from the rules' definitions on a flat
/// board of cells (0 empty, 1 X, 2 O), the one place in the program that knows them:
/// - a five is exactly five in a row; a move that makes one wins, whatever else it makes;
/// - an overline is six or more in a row;
/// - a four is a line that one more move makes a five; a straight four (`.XXXX.`) is one four with two such
///   moves, while `X.XXX.X` holds two fours in one line;
/// - a three is a line that one more move makes a straight four, where that move is itself not forbidden (so
///   whether a three is real depends on fouls one move further on: the check is recursive);
/// - a double four makes two or more fours at once, a double three two or more threes (in different lines).
///
/// Where the rules' text and the Piskvork manager's judge (and the `renju` package, its port) differ, the text is
/// followed: a straight four point that is also a five point (X already has a four elsewhere through it) is
/// not forbidden, so the three counts; that judge does not count it. RenjuRefereeTests shows that this is the
/// only difference on its positions, with `fivePointMakesThree` off.
struct FoulCheck {
  let rows: Int
  let columns: Int
  private(set) var cells: [UInt8]
  /// Whether a three's straight four point may be a cell where X would make five (the rules' text: yes).
  var fivePointMakesThree = true

  init(rows: Int, columns: Int, cells: [UInt8]) {
    self.rows = rows
    self.columns = columns
    self.cells = cells
  }

  init(_ board: Board) { self.init(rows: board.rules.rows, columns: board.rules.columns, cells: board.cells) }

  /// Why X may not play the empty `cell`, or nil when it may (a move that makes exactly five never is).
  mutating func foul(at cell: Int) -> Foul? {
    guard cells[cell] == 0 else { return nil }
    cells[cell] = 1
    defer { cells[cell] = 0 }
    let runs = Board.directions.map { run(through: cell, $0) }
    if runs.contains(5) { return nil }
    if runs.contains(where: { $0 >= 6 }) { return .overline }
    var fours = 0
    for direction in Board.directions { fours += fourCount(through: cell, direction) }
    if fours >= 2 { return .doubleFour }
    var threes = 0
    for direction in Board.directions where isThree(through: cell, direction) {
      threes += 1
      if threes >= 2 { return .doubleThree }
    }
    return nil
  }

  /// The cell `steps` steps from `cell` along `direction`, or nil off the board.
  private func step(_ cell: Int, _ direction: (Int, Int), _ steps: Int) -> Int? {
    let row = cell / columns + direction.0 * steps
    let column = cell % columns + direction.1 * steps
    guard row >= 0, row < rows, column >= 0, column < columns else { return nil }
    return row * columns + column
  }

  /// How far X's unbroken run through `cell` reaches each way: (backwards, forwards), not counting `cell`.
  private func reach(from cell: Int, _ direction: (Int, Int)) -> (Int, Int) {
    var back = 0
    while let next = step(cell, direction, -(back + 1)), cells[next] == 1 { back += 1 }
    var forward = 0
    while let next = step(cell, direction, forward + 1), cells[next] == 1 { forward += 1 }
    return (back, forward)
  }

  /// Whether X on the empty `cell` would make exactly five in some line.
  private mutating func makesFive(at cell: Int) -> Bool {
    cells[cell] = 1
    defer { cells[cell] = 0 }
    return Board.directions.contains { run(through: cell, $0) == 5 }
  }

  /// The length of X's run through the X on `cell`.
  private func run(through cell: Int, _ direction: (Int, Int)) -> Int {
    let (back, forward) = reach(from: cell, direction)
    return back + 1 + forward
  }

  /// The offsets (from `cell`, along `direction`) of the empty cells where X would make exactly five with a run
  /// that holds `cell`.
  private mutating func fivePoints(through cell: Int, _ direction: (Int, Int)) -> [Int] {
    var points: [Int] = []
    for offset in -4...4 where offset != 0 {
      guard let point = step(cell, direction, offset), cells[point] == 0 else { continue }
      cells[point] = 1
      let (back, forward) = reach(from: point, direction)
      cells[point] = 0
      // The run through the point must be exactly five and reach `cell`.
      if back + 1 + forward == 5, (-back...forward).contains(-offset) { points.append(offset) }
    }
    return points
  }

  /// How many fours X's stone on `cell` is part of along `direction`: a straight four (two five points five
  /// apart, the ends of four in a row) is one; otherwise each five point is a four of its own.
  private mutating func fourCount(through cell: Int, _ direction: (Int, Int)) -> Int {
    let points = fivePoints(through: cell, direction)
    if points.count == 2, abs(points[0] - points[1]) == 5 { return 1 }
    return points.count
  }

  /// Whether X's stone on `cell` is part of a three along `direction`: some empty cell near it, not itself
  /// forbidden now, would make a straight four that holds `cell`.
  private mutating func isThree(through cell: Int, _ direction: (Int, Int)) -> Bool {
    for offset in -4...4 where offset != 0 {
      guard let point = step(cell, direction, offset), cells[point] == 0 else { continue }
      cells[point] = 1
      let straight = isStraightFour(through: point, holding: -offset, direction)
      cells[point] = 0
      if straight, foul(at: point) == nil, fivePointMakesThree || !makesFive(at: point) { return true }
    }
    return false
  }

  /// Whether X's run through `cell` along `direction` is exactly four, holds the cell `holding` steps away, and
  /// both its ends are empty cells that would each make exactly five.
  private func isStraightFour(through cell: Int, holding: Int, _ direction: (Int, Int)) -> Bool {
    let (back, forward) = reach(from: cell, direction)
    guard back + 1 + forward == 4, (-back...forward).contains(holding) else { return false }
    for (end, beyond) in [(-back - 1, -back - 2), (forward + 1, forward + 2)] {
      guard let endCell = step(cell, direction, end), cells[endCell] == 0 else { return false }
      if let beyondCell = step(cell, direction, beyond), cells[beyondCell] == 1 { return false }
    }
    return true
  }
}
