/// Searches big boards within a time budget: iterative deepening negamax with alpha-beta over the cells near
/// existing marks, scoring positions by the open lines each side still has.
final class HeuristicSearch {
  private static let win = 1 << 60
  /// Interior nodes consider only this many of their best-looking candidate cells.
  private static let width = 12

  private var board: SearchBoard
  private let deadline: ContinuousClock.Instant
  /// The only moves the root may choose among (nil: any).
  private let rootMoves: [Int]?
  private let weights: [Int]
  private var nodes = 0
  private var timedOut = false
  /// Score of the position from X's side, kept up to date move by move.
  private var score = 0
  /// The value of the best move at each depth `bestMove` finished (depth 1 first), for the side to move.
  private(set) var values: [Int] = []

  init(board: Board, deadline: ContinuousClock.Instant, rootMoves: [Int]? = nil) {
    self.board = SearchBoard(board)
    self.deadline = deadline
    self.rootMoves = rootMoves
    // A window holding n of one side's marks and none of the other's is worth 8^n.
    self.weights = (0...board.rules.k).map { n in n == 0 ? 0 : 1 << min(3 * n, 50) }
    for i in 0..<self.board.count where self.board.cells[i] != 0 {
      let mark = self.board.cells[i]
      self.board.cells[i] = 0
      let before = windowsScore(through: i)
      self.board.cells[i] = mark
      score += windowsScore(through: i) - before
    }
  }

  /// The best move found for the side to move before the deadline, searching deeper while time allows.
  func bestMove() -> Int? {
    let mark: UInt8 = (board.count - board.empties).isMultiple(of: 2) ? 1 : 2
    var candidates = orderedCandidates(for: mark).filter { !board.isForbidden(mark, at: $0) }
    if let rootMoves {
      // Keep the search's order among the allowed moves; any it would not have looked at go last.
      let allowed = rootMoves.filter { !board.isForbidden(mark, at: $0) }
      candidates = candidates.filter(allowed.contains) + allowed.filter { !candidates.contains($0) }
    }
    guard var best = candidates.first else { return nil }
    var depth = 1
    while depth <= board.empties {
      var bestValue = -Int.max
      var bestThisDepth = best
      var alpha = -Int.max
      for i in candidates {
        let value = -child(i, mark: mark, depth: depth - 1, alpha: -Int.max, beta: -alpha)
        if timedOut { break }
        if value > bestValue {
          bestValue = value
          bestThisDepth = i
        }
        alpha = max(alpha, value)
      }
      if timedOut { break }
      best = bestThisDepth
      values.append(bestValue)
      if bestValue >= HeuristicSearch.win - board.count || bestValue <= -HeuristicSearch.win + board.count {
        break  // the result is decided; deeper search cannot change it
      }
      // Search the best move first next time.
      candidates.removeAll { $0 == best }
      candidates.insert(best, at: 0)
      depth += 1
    }
    return best
  }

  /// Plays `index` for `mark`, searches, and takes it back: the value for the opponent.
  private func child(_ index: Int, mark: UInt8, depth: Int, alpha: Int, beta: Int) -> Int {
    if board.completesLine(mark, at: index) {
      return -(HeuristicSearch.win - (board.count - board.empties))
    }
    let delta = play(mark, at: index)
    defer { undo(index, delta: delta) }
    if board.empties == 0 { return 0 }
    return negamax(3 - mark, depth: depth, alpha: alpha, beta: beta)
  }

  private func negamax(_ mark: UInt8, depth: Int, alpha: Int, beta: Int) -> Int {
    nodes += 1
    if nodes & 63 == 0, ContinuousClock.now >= deadline { timedOut = true }
    if timedOut { return 0 }
    let own = mark == 1 ? score : -score
    if depth == 0 { return own }
    var alpha = alpha
    var best = -Int.max
    var tried = 0
    for i in orderedCandidates(for: mark) where tried < HeuristicSearch.width {
      // Renju's fouls are no moves for X: the next candidate takes the place of one.
      if board.isForbidden(mark, at: i) { continue }
      tried += 1
      let value = -child(i, mark: mark, depth: depth - 1, alpha: -beta, beta: -alpha)
      if value > best { best = value }
      if best > alpha { alpha = best }
      if alpha >= beta { break }
    }
    // With every cell forbidden to X the game is drawn.
    return tried == 0 ? 0 : best
  }

  private func play(_ mark: UInt8, at index: Int) -> Int {
    let before = windowsScore(through: index)
    board.place(mark, at: index)
    let delta = windowsScore(through: index) - before
    score += delta
    return delta
  }

  private func undo(_ index: Int, delta: Int) {
    board.clear(index)
    score -= delta
  }

  /// Empty cells within two steps of a mark (the centre on an empty board), most promising first: a cell's
  /// promise is what it gains for `mark` plus what it would gain for the opponent (attack and defence).
  private func orderedCandidates(for mark: UInt8) -> [Int] {
    let rows = board.rows
    let columns = board.columns
    var near = [Bool](repeating: false, count: board.count)
    var any = false
    for i in 0..<board.count where board.cells[i] != 0 {
      any = true
      let r = i / columns
      let c = i % columns
      for rr in max(0, r - 2)...min(rows - 1, r + 2) {
        for cc in max(0, c - 2)...min(columns - 1, c + 2) { near[rr * columns + cc] = true }
      }
    }
    if !any { return [(rows / 2) * columns + columns / 2] }
    var scored: [(Int, Int)] = []
    for i in 0..<board.count where near[i] && board.cells[i] == 0 {
      scored.append((i, promise(of: i, for: mark)))
    }
    scored.sort { $0.1 > $1.1 }
    return scored.map(\.0)
  }

  private func promise(of index: Int, for mark: UInt8) -> Int {
    let before = windowsScore(through: index)
    board.cells[index] = mark
    let attack = abs(windowsScore(through: index) - before)
    board.cells[index] = 3 - mark
    let defence = abs(windowsScore(through: index) - before)
    board.cells[index] = 0
    return attack + defence
  }

  /// The summed value (X positive, O negative) of every k-cell window that contains `index`.
  private func windowsScore(through index: Int) -> Int {
    let rows = board.rows
    let columns = board.columns
    let k = board.k
    let row = index / columns
    let column = index % columns
    var total = 0
    for (dr, dc) in Board.directions {
      for offset in 0..<k {
        let r0 = row - dr * offset
        let c0 = column - dc * offset
        let r1 = r0 + dr * (k - 1)
        let c1 = c0 + dc * (k - 1)
        guard r0 >= 0, r0 < rows, c0 >= 0, c0 < columns, r1 >= 0, r1 < rows, c1 >= 0, c1 < columns else {
          continue
        }
        var xs = 0
        var os = 0
        for step in 0..<k {
          switch board.cells[(r0 + dr * step) * columns + c0 + dc * step] {
          case 1: xs += 1
          case 2: os += 1
          default: break
          }
        }
        if os == 0 { total += weights[xs] } else if xs == 0 { total -= weights[os] }
      }
    }
    return total
  }
}
