/// What the threat searches say the side to move should do before any other search: win by a sequence of fours
/// (or of fours and threes), keep to the moves that stop the opponent's, or nothing in particular.
enum ThreatPlan: Equatable {
  /// The first move of a forced win by continuous fours, or by fours and threes.
  case win(Int, line: [Int])
  /// The opponent would win by fours (or by fours and threes) if we passed; these moves (in the order found) stop it.
  case defend([Int])
  /// No forced win either way was found in time (or nothing stops the opponent's: any move then).
  case none

  /// Shares of the time between `start` and `deadline`, each the end of a step: our own win by fours, by fours
  /// and threes, the opponent's by fours, by fours and threes, then trying the moves that stop it; the rest (at
  /// least 30 %) is left to the searches that follow. Without threes, the steps for threes take no time.
  static let shares = (ownFours: 0.1, ownThreats: 0.25, opponentFours: 0.33, opponentThreats: 0.45, defence: 0.7)

  /// Attacking moves a win by threats may take: our own, and the opponent's (fewer, so that checking each
  /// defence ends within its node limit on an open board).
  static let ownThreats = 5
  static let opponentThreats = 4

  /// The plan for `mark` to move on `board` (which must not be over, and where the opponent must not have a
  /// cell that wins at once: that is answered before). `threes`: whether wins built from threes are looked for
  /// too (VCT), or only wins by fours (VCF).
  static func make(
    board: Board, mark: UInt8, start: ContinuousClock.Instant, deadline: ContinuousClock.Instant,
    threes: Bool = true
  ) -> ThreatPlan {
    let total = deadline - start
    let at = { (share: Double) in start + total * share }
    var search = ThreatSearch(board: board)
    if let win = search.victoryByFours(for: mark, deadline: at(shares.ownFours)) {
      return .win(win.move, line: win.line)
    }
    if threes, let win = search.victoryByThreats(for: mark, maximumThreats: ownThreats, deadline: at(shares.ownThreats))
    {
      return .win(win.move, line: win.line)
    }
    let opponent = 3 - mark
    var threat = search.victoryByFours(for: opponent, deadline: at(shares.opponentFours))
    // The opponent's win by threats is looked for one attacking move deeper at a time: the defences are then
    // checked at the depth it was found, which ends within the node limit far more often than the full depth.
    var depth = 0
    while threat == nil, threes, depth < opponentThreats, !search.gaveUp {
      depth += 1
      threat = search.victoryByThreats(for: opponent, maximumThreats: depth, deadline: at(shares.opponentThreats))
    }
    guard let threat else { return .none }
    // Moves on the opponent's line or that make a four (or a three) of our own are the likeliest to stop it: try
    // them first, then every other cell near the marks.
    let defenceDeadline = at(shares.defence)
    var tried = Set<Int>()
    var candidates: [Int] = []
    let counters = search.fourMoves(for: mark) + (depth > 0 ? search.threeMoves(for: mark) : [])
    for cell in threat.line + counters + nearCells(board) where tried.insert(cell).inserted {
      candidates.append(cell)
    }
    var stopping: [Int] = []
    for cell in candidates where !search.isForbidden(mark, at: cell) {
      if ContinuousClock.now >= defenceDeadline { break }
      search.place(mark, at: cell)
      if stops(&search, opponent: opponent, threats: depth, deadline: defenceDeadline) { stopping.append(cell) }
      search.clear(cell)
    }
    return stopping.isEmpty ? .none : .defend(stopping)
  }

  /// Whether the opponent, to move after ours, is shown to have no win of the kind found before (by fours, or
  /// by fours and threes within `threats` attacking moves) within the deadline; one try may not take more than a
  /// fixed number of nodes.
  private static func stops(
    _ search: inout ThreatSearch, opponent: UInt8, threats: Int, deadline: ContinuousClock.Instant
  ) -> Bool {
    if search.victoryByFours(for: opponent, deadline: deadline) != nil || search.gaveUp { return false }
    guard threats > 0 else { return true }
    let answer = search.victoryByThreats(for: opponent, maximumThreats: threats, deadline: deadline, nodeLimit: 20_000)
    return answer == nil && !search.gaveUp
  }

  /// Empty cells within two steps of a mark.
  static func nearCells(_ board: Board) -> [Int] {
    let rows = board.rules.rows
    let columns = board.rules.columns
    var near = [Bool](repeating: false, count: board.cells.count)
    for i in board.cells.indices where board.cells[i] != 0 {
      let r = i / columns
      let c = i % columns
      for rr in max(0, r - 2)...min(rows - 1, r + 2) {
        for cc in max(0, c - 2)...min(columns - 1, c + 2) { near[rr * columns + cc] = true }
      }
    }
    return board.cells.indices.filter { near[$0] && board.cells[$0] == 0 }
  }
}
