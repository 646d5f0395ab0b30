/// The perfect computer's choices on the standard board (3×3, three in a row), every reachable position's worked
/// out once, on first use, by the rules `AIPlayer` follows there: a win when there is one, the block when the
/// opponent has exactly one, else the solver's best moves. A practice bot answering thousands of moves a second
/// then looks a move up (a number from the board's nine cells) instead of analysing the board for each one. The
/// choices keep the order they came in and the move is drawn from them as before (none drawn for the one block),
/// so the computer plays the same moves, random draw for random draw.
enum PerfectTable {
  /// What `perfect` may play in one position.
  struct Choices: Equatable {
    /// The moves, in the order the analysis gave them.
    let moves: [Position]
    /// Whether one is drawn at random (false: the one block, played without a draw).
    let drawn: Bool
  }

  /// The choices of each position by its code (`code(of:)`); nil for a position no game reaches or one that is
  /// over.
  static let standard: [Choices?] = build()

  /// 3⁹: the codes of every way to fill nine cells with nothing, X or O.
  static let positions = 19_683

  /// The choices for the side to move in `game`, when its rules are the standard board's and it is not over.
  static func choices(in game: Game) -> Choices? {
    guard game.rules == .standard, !game.isOver else { return nil }
    return standard[code(of: game.board)]
  }

  /// The board's cells read as a number in base 3 (cell 0 the lowest digit; empty 0, X 1, O 2).
  static func code(of board: Board) -> Int {
    var code = 0
    for cell in board.cells.reversed() { code = code * 3 + Int(cell) }
    return code
  }

  /// Every position reachable from the empty board by legal play, each given its choices.
  private static func build() -> [Choices?] {
    var table = [Choices?](repeating: nil, count: positions)
    var stack = [Game(rules: .standard)]
    while let game = stack.popLast() {
      let code = code(of: game.board)
      guard table[code] == nil, !game.isOver else { continue }
      table[code] = AIPlayer.perfectChoices(in: game)
      for position in game.legalMoves {
        var next = game
        if (try? next.play(position)) != nil { stack.append(next) }
      }
    }
    return table
  }
}

extension AIPlayer {
  /// What `perfect` may choose in `game` on a board it solves exactly: the winning cells when it has any, the one
  /// block when the opponent has exactly one, else the solver's best moves (none when the board is too big).
  static func perfectChoices(in game: Game) -> PerfectTable.Choices {
    let search = SearchBoard(game.board)
    let mark = game.turn.rawValue
    let wins = search.winningCells(for: mark)
    if !wins.isEmpty { return .init(moves: wins.map(game.board.position), drawn: true) }
    let threats = search.winningCells(for: 3 - mark).filter { !search.isForbidden(mark, at: $0) }
    if threats.count == 1 { return .init(moves: [game.board.position(threats[0])], drawn: false) }
    return .init(moves: perfectMoves(in: game) ?? [], drawn: true)
  }
}
