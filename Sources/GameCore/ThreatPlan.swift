/// What the threat searches say the side to move should do before any other search: win by a sequence of fours
/// (or of fours and threes), keep to the moves that stop the opponent's, or nothing in particular.
enum ThreatPlan: Equatable {
  /// The first move of a forced win by continuous fours, or by fours and threes.
  case win(Int, line: [Int])
  /// The opponent would win by fours (or by fours and threes) if we passed; these moves (in the order found) stop
  /// it, or (against a win by threes) are not shown to lose to it.
  case defend([Int])
  /// No forced win either way was found in time (or nothing stops the opponent's: any move then).
  case none

  /// Shares of the time between `start` and `deadline`, each the end of a step: our own win by fours, by fours
  /// and threes, the opponent's by fours, by fours and threes, then trying the moves that stop it; the rest (at
  /// least 30 %) is left to the searches that follow. Without threes, the steps for threes take no time. The
  /// steps for threes are bounded by `nodes` too, and usually end well before their share.
  static let shares = (ownFours: 0.1, ownThreats: 0.25, opponentFours: 0.33, opponentThreats: 0.45, defence: 0.7)

  /// Fixed node counts for the steps with threes (VCT): our own win (all depths together), the opponent's (all
  /// depths together), the refusal of the moves that lose to it (all moves together), and one move's check.
  /// Counts, not time: a step that finds nothing stops after a few milliseconds of a core (about 8 µs a node on
  /// 15×15) instead of taking its whole share, and the heuristic search keeps most of the move's time.
  static let nodes = (ownThreats: 800, opponentThreats: 800, refusal: 2_500, refusalTry: 300)

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
    if threes,
      let (win, _) = deepening(&search, for: mark, depths: ownThreats, nodes: nodes.ownThreats, at(shares.ownThreats))
    {
      return .win(win.move, line: win.line)
    }
    let opponent = 3 - mark
    if let threat = search.victoryByFours(for: opponent, deadline: at(shares.opponentFours)) {
      return defence(&search, board: board, mark: mark, against: threat, deadline: at(shares.defence))
    }
    guard threes,
      let (threat, depth) = deepening(
        &search, for: opponent, depths: opponentThreats, nodes: nodes.opponentThreats, at(shares.opponentThreats))
    else { return .none }
    return refusal(&search, board: board, mark: mark, against: threat, depth: depth, deadline: at(shares.defence))
  }

  /// A win by threats for `mark`, looked for one attacking move deeper at a time up to `depths` (the shortest
  /// first; what an earlier depth showed lost stays known to the next), within `nodes` nodes in all and the
  /// deadline: the win and the depth it was found at.
  static func deepening(
    _ search: inout ThreatSearch, for mark: UInt8, depths: Int, nodes: Int, _ deadline: ContinuousClock.Instant
  ) -> (ThreatSearch.Result, Int)? {
    var spent = 0
    for depth in 1...max(1, depths) {
      let found = search.victoryByThreats(
        for: mark, maximumThreats: depth, deadline: deadline, nodeLimit: max(0, nodes - spent))
      if let found { return (found, depth) }
      spent += search.nodes
      if search.gaveUp { return nil }
    }
    return nil
  }

  /// Against the opponent's win by fours: the moves after which none is found, the likeliest first.
  private static func defence(
    _ search: inout ThreatSearch, board: Board, mark: UInt8, against threat: ThreatSearch.Result,
    deadline defenceDeadline: ContinuousClock.Instant
  ) -> ThreatPlan {
    let opponent = 3 - mark
    let depth = 0
    var stopping: [Int] = []
    for cell in candidates(&search, board: board, mark: mark, line: threat.line, threes: false)
    where !search.isForbidden(mark, at: cell) {
      if ContinuousClock.now >= defenceDeadline { break }
      search.place(mark, at: cell)
      if stops(&search, opponent: opponent, threats: depth, deadline: defenceDeadline) { stopping.append(cell) }
      search.clear(cell)
    }
    return stopping.isEmpty ? .none : .defend(stopping)
  }

  /// Against the opponent's win by threats (found within `depth` attacking moves): every candidate but those
  /// after which the opponent is shown to win still, by fours or by threats within `depth`. Only a shown loss is
  /// refused: a move whose check runs out of nodes, or that the budget (`nodes.refusal` nodes in all, and the
  /// deadline) leaves unchecked, is kept, so the search that follows chooses among every move not known to lose.
  private static func refusal(
    _ search: inout ThreatSearch, board: Board, mark: UInt8, against threat: ThreatSearch.Result, depth: Int,
    deadline: ContinuousClock.Instant
  ) -> ThreatPlan {
    let opponent = 3 - mark
    let cells = candidates(&search, board: board, mark: mark, line: threat.line, threes: true)
      .filter { !search.isForbidden(mark, at: $0) }
    var kept: [Int] = []
    var spent = 0
    for cell in cells {
      guard spent < nodes.refusal, ContinuousClock.now < deadline else {
        kept.append(cell)
        continue
      }
      search.place(mark, at: cell)
      let (lost, used) = loses(&search, opponent: opponent, threats: depth, deadline: deadline)
      search.clear(cell)
      spent += used
      if !lost { kept.append(cell) }
    }
    return kept.isEmpty || kept.count == cells.count ? .none : .defend(kept)
  }

  /// Moves on the opponent's `line` or that make a four (or, with `threes`, a three) of our own are the likeliest
  /// to stop it: they come first, then every other cell near the marks.
  private static func candidates(
    _ search: inout ThreatSearch, board: Board, mark: UInt8, line: [Int], threes: Bool
  ) -> [Int] {
    var tried = Set<Int>()
    var result: [Int] = []
    let counters = search.fourMoves(for: mark) + (threes ? search.threeMoves(for: mark) : [])
    for cell in line + counters + nearCells(board) where tried.insert(cell).inserted { result.append(cell) }
    return result
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

  /// Whether the opponent, to move after ours, is shown to win by fours or by fours and threes within `threats`
  /// attacking moves (a search that runs out of nodes or time shows nothing), and the nodes the checks took.
  static func loses(
    _ search: inout ThreatSearch, opponent: UInt8, threats: Int, deadline: ContinuousClock.Instant
  ) -> (lost: Bool, nodes: Int) {
    let limit = nodes.refusalTry
    if search.victoryByFours(for: opponent, deadline: deadline, nodeLimit: limit) != nil { return (true, search.nodes) }
    let used = search.nodes
    let found = search.victoryByThreats(for: opponent, maximumThreats: threats, deadline: deadline, nodeLimit: limit)
    return (found != nil, used + search.nodes)
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
