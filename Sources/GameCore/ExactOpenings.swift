/// The perfect level's moves in the early plies of a board whose search from the empty board takes too long for
/// one move (5×5 with 4 in a row): for each position the level can meet on its own turn, up to `plies` marks on
/// the board, while it plays these moves and its opponent plays anything, one move that keeps the position's
/// value. Positions are stored once for all their turns and mirrors. Made by `make` (scripts/make-exact-openings.sh
/// writes the Swift source that holds them); past the table, `LineSolver` searches each move.
struct ExactOpenings: Sendable {
  let rows: Int
  let columns: Int
  let k: Int
  /// Positions with fewer marks than this are in the table.
  let plies: Int
  /// The least symmetric image of each position, X's cells then O's, and the move in that image.
  let moves: [SolverTable.Key: UInt8]

  /// The tables shipped, one per board.
  static let shipped: [ExactOpenings] = [ExactOpenings(text: ExactOpeningsTables.fiveByFiveFour)].compactMap { $0 }

  /// The table for `rules`, if one is shipped.
  static func table(for rules: Rules) -> ExactOpenings? {
    shipped.first { $0.rows == rules.rows && $0.columns == rules.columns && $0.k == rules.k }
  }

  /// The stored move for `cells` (0 empty, 1 X, 2 O), nil when the position is not in the table.
  func move(for cells: [UInt8]) -> Int? {
    let symmetry = BoardSymmetry(rows: rows, columns: columns)
    let (x, o) = LineSolver.masks(cells)
    let least = symmetry.canonical(x, o)
    guard let cell = moves[SolverTable.Key(mine: least.first, theirs: least.second)] else { return nil }
    return symmetry.preimage(of: Int(cell), under: least.symmetry)
  }

  /// Reads the table's text: a header line `rows columns k plies`, then the positions, each 16 hexadecimal
  /// digits (X's mask in 7, O's in 7, the cell in 2), with blanks and line breaks anywhere between them. Nil if
  /// it does not read.
  init?(text: String) {
    let parts = text.split(separator: "\n", maxSplits: 1)
    let header = parts.first?.split(separator: " ").compactMap { Int($0) } ?? []
    guard header.count == 4, header[0] * header[1] <= 28 else { return nil }
    (rows, columns, k, plies) = (header[0], header[1], header[2], header[3])
    let digits = Array((parts.count > 1 ? parts[1] : "").utf8.filter { $0 != 0x20 && $0 != 0x0A })
    guard digits.count.isMultiple(of: 16) else { return nil }
    var moves: [SolverTable.Key: UInt8] = [:]
    for start in stride(from: 0, to: digits.count, by: 16) {
      let entry = String(decoding: digits[start..<start + 16], as: UTF8.self)
      guard let x = UInt64(entry.prefix(7), radix: 16), let o = UInt64(entry.dropFirst(7).prefix(7), radix: 16),
        let cell = UInt8(entry.suffix(2), radix: 16)
      else { return nil }
      moves[SolverTable.Key(mine: x, theirs: o)] = cell
    }
    self.moves = moves
  }

  private static func hex(_ value: UInt64, digits: Int) -> String {
    let text = String(value, radix: 16)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }

  /// Makes the table: walks every position the perfect level can meet before `plies` marks, playing first or
  /// second, and solves each of its own turns. `progress` hears each position solved.
  static func make(rows: Int, columns: Int, k: Int, plies: Int, progress: (Int) -> Void = { _ in }) -> String {
    let symmetry = BoardSymmetry(rows: rows, columns: columns)
    let solver = LineSolver(rows: rows, columns: columns, k: k, tableBits: 22)
    var table: [SolverTable.Key: UInt8] = [:]
    for levelPlaysX in [true, false] {
      var frontier: Set<SolverTable.Key> = [SolverTable.Key(mine: 0, theirs: 0)]
      for ply in 0..<plies {
        let levelMoves = levelPlaysX == ply.isMultiple(of: 2)
        var next: Set<SolverTable.Key> = []
        for position in frontier {
          let (x, o) = (position.mine, position.theirs)
          let (mine, theirs) = ply.isMultiple(of: 2) ? (x, o) : (o, x)
          if solver.isOver(x: x, o: o) { continue }
          let cells: [Int]
          if levelMoves {
            let cell =
              table[position].map(Int.init)
              ?? solver.keepingMoves(mine: mine, theirs: theirs, firstOnly: true)?.cells.first
            guard let cell else { continue }
            table[position] = UInt8(cell)
            progress(table.count)
            cells = [cell]
          } else {
            cells = (0..<rows * columns).filter { (x | o) & (1 << UInt64($0)) == 0 }
          }
          for cell in cells {
            let (nx, no) = ply.isMultiple(of: 2) ? (x | 1 << UInt64(cell), o) : (x, o | 1 << UInt64(cell))
            let least = symmetry.canonical(nx, no)
            next.insert(SolverTable.Key(mine: least.first, theirs: least.second))
          }
        }
        frontier = next
      }
    }
    let entries = table.sorted { ($0.key.mine, $0.key.theirs) < ($1.key.mine, $1.key.theirs) }.map { entry in
      hex(entry.key.mine, digits: 7) + hex(entry.key.theirs, digits: 7) + hex(UInt64(entry.value), digits: 2)
    }
    let lines = stride(from: 0, to: entries.count, by: 7).map { entries[$0..<min($0 + 7, entries.count)].joined() }
    return (["\(rows) \(columns) \(k) \(plies)"] + lines).joined(separator: "\n") + "\n"
  }
}

/// The shipped tables' texts, one property per board, each in a file of its own made by the script.
enum ExactOpeningsTables {}

/// Writes the Swift source of a table of early plies (scripts/make-exact-openings.sh runs it through
/// `tictactoe-bench --make-exact-openings`).
@_spi(Benchmark) public enum ExactOpeningsMaker {
  public static func swiftSource(rows: Int, columns: Int, k: Int, plies: Int, name: String) -> String {
    let text = ExactOpenings.make(rows: rows, columns: columns, k: k, plies: plies)
    let body = text.split(separator: "\n").map { "    \($0)" }.joined(separator: "\n")
    return """
      // Made by scripts/make-exact-openings.sh
      // (`tictactoe-bench --make-exact-openings \(rows) \(columns) \(k) \(plies) \(name)`): the perfect level's
      // moves in the first \(plies) plies of \(rows)×\(columns) with \(k) in a row. Do not edit; make it again.

      extension ExactOpeningsTables {
        static let \(name) = \"\"\"
      \(body)
          \"\"\"
      }

      """
  }
}
