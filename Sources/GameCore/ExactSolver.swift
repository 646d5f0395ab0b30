/// Solves small boards completely: negamax with alpha-beta pruning and a transposition table.
///
/// Scores are from the side to move: a win scores 1 + the empty cells left after the winning move (so a
/// quicker win scores higher and a slower loss scores less badly), a draw 0, a loss the negative.
final class ExactSolver {
  /// Boards up to this many cells are solved exactly from any position.
  static let maximumCells = 16
  /// On bigger boards, positions with at most this many empty cells are solved exactly too.
  static let maximumEmpties = 10

  private enum Bound: UInt8 { case exact, lower, upper }
  private struct Entry {
    var value: Int16
    var bound: Bound
  }

  private var board: SearchBoard
  private var table: [UInt64: Entry] = [:]
  private let order: [Int]
  /// Each cell's bit offset in the table key (two bits a cell), counting only cells empty at the root
  /// when the board has more than 32 cells; -1 for cells that cannot change.
  private let shift: [Int]
  private var key: UInt64 = 0

  init(board: Board) {
    self.board = SearchBoard(board)
    self.order = self.board.centreFirstOrder()
    let variable = self.board.count <= 32 ? Array(0..<self.board.count) : self.order.filter { board.cells[$0] == 0 }
    var shift = [Int](repeating: -1, count: self.board.count)
    for (slot, cell) in variable.enumerated() { shift[cell] = 2 * slot }
    self.shift = shift
    for cell in variable where board.cells[cell] != 0 { key |= UInt64(board.cells[cell]) << UInt64(shift[cell]) }
  }

  @inline(__always) private func place(_ mark: UInt8, at index: Int) {
    board.place(mark, at: index)
    key ^= UInt64(mark) << UInt64(shift[index])
  }

  @inline(__always) private func clear(_ index: Int) {
    key ^= UInt64(board.cells[index]) << UInt64(shift[index])
    board.clear(index)
  }

  static func canSolve(_ game: Game) -> Bool {
    game.rules.cellCount <= maximumCells || game.board.emptyPositions.count <= maximumEmpties
  }

  private var toMove: UInt8 {
    (board.count - board.empties).isMultiple(of: 2) ? Mark.x.rawValue : Mark.o.rawValue
  }

  /// The exact score of every empty cell for the side to move.
  func scoreMoves() -> [(index: Int, score: Int)] {
    let mark = toMove
    var result: [(index: Int, score: Int)] = []
    for i in order where board.cells[i] == 0 {
      result.append((i, score(of: i, for: mark, alpha: -Int.max, beta: Int.max)))
    }
    return result
  }

  /// The score of the position after `mark` plays `index`, from `mark`'s side.
  private func score(of index: Int, for mark: UInt8, alpha: Int, beta: Int) -> Int {
    if board.completesLine(mark, at: index) { return board.empties }
    if board.empties == 1 { return 0 }
    place(mark, at: index)
    let value = -negamax(3 - mark, alpha: -beta, beta: -alpha)
    clear(index)
    return value
  }

  private func negamax(_ mark: UInt8, alpha: Int, beta: Int) -> Int {
    var alpha = alpha
    var beta = beta
    if let entry = table[key] {
      let value = Int(entry.value)
      switch entry.bound {
      case .exact: return value
      case .lower: alpha = max(alpha, value)
      case .upper: beta = min(beta, value)
      }
      if alpha >= beta { return value }
    }
    let alphaIn = alpha
    // A win now is the best this position can offer.
    for i in order where board.cells[i] == 0 && board.completesLine(mark, at: i) {
      return board.empties
    }
    // If the opponent threatens to win, only blocking can matter.
    var moves = order
    for i in order where board.cells[i] == 0 && board.completesLine(3 - mark, at: i) {
      moves = [i]
      break
    }
    var best = -Int.max
    for i in moves where board.cells[i] == 0 {
      let value: Int
      if board.empties == 1 {
        value = 0
      } else {
        place(mark, at: i)
        value = -negamax(3 - mark, alpha: -beta, beta: -alpha)
        clear(i)
      }
      if value > best { best = value }
      if best > alpha { alpha = best }
      if alpha >= beta { break }
    }
    let bound: Bound = best <= alphaIn ? .upper : (best >= beta ? .lower : .exact)
    table[key] = Entry(value: Int16(best), bound: bound)
    return best
  }
}
