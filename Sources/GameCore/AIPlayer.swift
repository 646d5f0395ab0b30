/// How strongly the computer plays.
public enum AILevel: String, Sendable, CaseIterable, CustomStringConvertible {
  /// Random moves; takes a win only half the time and never blocks on purpose.
  case easy
  /// Always takes a win and blocks a loss; otherwise plays well most of the time.
  case normal
  /// Game-theoretically perfect on boards up to 16 cells and on 5×5 with 4 in a row; the deepest search the
  /// time budget allows beyond.
  case perfect

  /// The largest board, in cells, that `perfect` solves exactly.
  public static var exactCells: Int { ExactSolver.maximumCells }

  /// Whether `perfect` plays every position of a game on `rules` exactly: boards up to `exactCells`, and the
  /// bigger ones that ship a table of early plies (5×5 with 4 in a row).
  public static func playsExactly(_ rules: Rules) -> Bool {
    rules.cellCount <= exactCells || ExactOpenings.table(for: rules) != nil
  }

  public var description: String { rawValue }
}

/// The computer opponent: picks a move for the side to move.
public struct AIPlayer: Sendable {
  public var level: AILevel
  /// Time a search on a big board may take per move.
  public var budget: Duration
  /// Where positions already solved are looked up (nil: every position is solved afresh).
  public var book: MoveBook?
  /// Whether `perfect` looks for forced wins by threats, its own and the opponent's, before its search
  /// on boards it cannot solve. Always on in the game; the benchmark turns it off to measure what it gains.
  @_spi(Benchmark) public var threatSearch = true
  /// Whether that threat search also looks for wins built from open threes (VCT), not only from fours (VCF), and
  /// refuses the moves after which the opponent's is found. On in the game since it measured stronger than the
  /// level without it, in the same runs (docs/BENCHMARKS.md, "Strength", 2026-12-04); the benchmark turns it off
  /// for the level it is measured against.
  @_spi(Benchmark) public var threeThreats = true

  /// The time a search on a big board takes per move when nothing bounds it (a clock may allow less).
  public static let usualMilliseconds = 250

  public init(level: AILevel, budget: Duration = .milliseconds(usualMilliseconds), book: MoveBook? = nil) {
    self.level = level
    self.budget = budget
    self.book = book
  }

  /// The move to play in `game`, or nil when the game is over (never a move the variant forbids).
  public func chooseMove<R: RandomNumberGenerator>(in game: Game, using rng: inout R) -> Position? {
    guard !game.isOver else { return nil }
    let pick = levelMove(in: game, using: &rng)
    if let pick, (try? game.validate(pick, by: game.turn)) != nil { return pick }
    return game.legalMoves.randomElement(using: &rng)
  }

  /// The level's own choice, before `chooseMove` checks it (internal for the tests).
  func levelMove<R: RandomNumberGenerator>(in game: Game, using rng: inout R) -> Position? {
    // The standard board's perfect choices are looked up, not worked out again (`PerfectTable`).
    if level == .perfect, let choices = PerfectTable.choices(in: game) {
      return choices.drawn ? choices.moves.randomElement(using: &rng) : choices.moves.first
    }
    let search = SearchBoard(game.board)
    let mark = game.turn.rawValue
    let wins = search.winningCells(for: mark)
    // A block renju forbids X is no block: X then plays on as if there were none to make.
    let threats = search.winningCells(for: 3 - mark).filter { !search.isForbidden(mark, at: $0) }
    switch level {
    case .easy:
      if let win = wins.first, Bool.random(using: &rng) { return game.board.position(win) }
      return game.legalMoves.randomElement(using: &rng)
    case .normal:
      if let win = wins.randomElement(using: &rng) { return game.board.position(win) }
      if let block = threats.randomElement(using: &rng) { return game.board.position(block) }
      if Int.random(in: 0..<10, using: &rng) < 3 {
        return game.legalMoves.randomElement(using: &rng)
      }
      return strongMove(in: game, budget: budget / 5, threats: false, using: &rng)
    case .perfect:
      if let win = wins.randomElement(using: &rng) { return game.board.position(win) }
      if let block = threats.first, threats.count == 1 { return game.board.position(block) }
      return strongMove(in: game, budget: budget, threats: threatSearch && threats.isEmpty, using: &rng)
    }
  }

  /// Every move that keeps the best result the side to move can force, fastest win or slowest loss first
  /// (nil when the board is too big to solve exactly).
  public static func perfectMoves(in game: Game) -> [Position]? {
    guard !game.isOver else { return [] }
    // The exact searches know freestyle only.
    guard game.rules.variant == .freestyle else { return nil }
    guard ExactSolver.canSolve(game) else { return TableSolvedPlay.perfectMoves(in: game) }
    let scores = ExactSolver(board: game.board).scoreMoves()
    guard let best = scores.map(\.score).max() else { return [] }
    return scores.filter { $0.score == best }.map { game.board.position($0.index) }
  }

  /// The result the side to move can force with perfect play: 1 win, 0 draw, -1 loss (nil when too big).
  public static func solvedValue(of game: Game) -> Int? {
    if let outcome = game.outcome { return outcome.winner == nil ? 0 : -1 }
    guard game.rules.variant == .freestyle else { return nil }
    guard ExactSolver.canSolve(game) else { return TableSolvedPlay.value(of: game) }
    let best = ExactSolver(board: game.board).scoreMoves().map(\.score).max() ?? 0
    return best.signum()
  }

  /// The exact solver's move where it can solve the board; beyond, the heuristic search's, after the threat
  /// search (when `threats`) has looked for a win by fours and for the moves that stop the opponent's.
  private func strongMove<R: RandomNumberGenerator>(
    in game: Game, budget: Duration, threats: Bool, using rng: inout R
  ) -> Position? {
    if let moves = book?.perfectMoves(in: game) ?? AIPlayer.perfectMoves(in: game),
      let pick = moves.randomElement(using: &rng)
    {
      return pick
    }
    // Stop early enough that choosing and returning the move still fits the budget.
    let margin = min(budget / 10, .milliseconds(15))
    let start = ContinuousClock.now
    let deadline = start + budget - margin
    var rootMoves: [Int]?
    if threats {
      let plan = ThreatPlan.make(
        board: game.board, mark: game.turn.rawValue, start: start, deadline: deadline, threes: threeThreats)
      switch plan {
      case .win(let cell, _): return game.board.position(cell)
      case .defend(let cells) where cells.count == 1: return game.board.position(cells[0])
      case .defend(let cells): rootMoves = cells
      case .none: break
      }
    }
    let search = HeuristicSearch(board: game.board, deadline: deadline, rootMoves: rootMoves)
    if let index = search.bestMove() { return game.board.position(index) }
    return game.legalMoves.randomElement(using: &rng)
  }
}
