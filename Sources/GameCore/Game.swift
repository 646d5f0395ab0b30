/// A game in progress: the board, whose turn it is, the move history and the outcome.
public struct Game: Sendable, Hashable {
  public let rules: Rules
  public private(set) var board: Board
  /// Every move so far; X made the even-numbered ones (counting from 0).
  public private(set) var history: [Position] = []
  public private(set) var outcome: Outcome?

  public init(rules: Rules = .standard) {
    self.rules = rules
    self.board = Board(rules: rules)
    // Room for a whole game (or a long part of a large board's) at once, not grown move by move.
    history.reserveCapacity(Swift.min(rules.cellCount, 64))
  }

  /// Replays `moves` from an empty board.
  public init(rules: Rules, moves: [Position]) throws(MoveError) {
    self.init(rules: rules)
    for move in moves { try play(move) }
  }

  /// The mark that moves next (X when the history has even length).
  public var turn: Mark { history.count.isMultiple(of: 2) ? .x : .o }
  public var isOver: Bool { outcome != nil }
  public var lastMove: Position? { history.last }

  /// Whether the game was drawn with empty cells left: renju left X, to move, only forbidden cells. There is no
  /// pass here (renju's own rules let black pass), so the game cannot go on, and no one has won.
  public var endedWithOnlyForbiddenCells: Bool { outcome == .draw && !board.isFull }

  /// The cells the side to move may play (renju takes X's forbidden cells away).
  public var legalMoves: [Position] { isOver ? [] : Referee.allowedMoves(for: turn, on: board) }

  /// Replays the stones of a position that came from elsewhere in the order given (a Gomocup manager's BOARD,
  /// whose order need not be the one played): each must be on the board, on an empty cell, before the game is
  /// won, but renju's fouls are not judged on the way, since another order may have avoided them.
  public init(rules: Rules, position moves: [Position]) throws(MoveError) {
    self.init(rules: rules)
    for move in moves { try play(move, by: turn, judgingFouls: false) }
  }

  /// Checks that `position` would be a legal move for `mark`, without playing it.
  public func validate(_ position: Position, by mark: Mark) throws(MoveError) {
    try validate(position, by: mark, judgingFouls: true)
  }

  private func validate(_ position: Position, by mark: Mark, judgingFouls: Bool) throws(MoveError) {
    guard !isOver else { throw .gameOver }
    guard mark == turn else { throw .notYourTurn(expected: turn) }
    guard rules.contains(position) else { throw .outOfRange(position, rules) }
    if let taken = board[position] { throw .occupied(position, by: taken) }
    if judgingFouls, let foul = Referee.foul(position, by: mark, on: board) { throw .forbidden(position, foul) }
  }

  /// Plays `position` for `mark`, or throws why it is illegal and leaves the game unchanged.
  public mutating func play(_ position: Position, by mark: Mark) throws(MoveError) {
    try play(position, by: mark, judgingFouls: true)
  }

  private mutating func play(_ position: Position, by mark: Mark, judgingFouls: Bool) throws(MoveError) {
    try validate(position, by: mark, judgingFouls: judgingFouls)
    board.set(mark, at: position)
    history.append(position)
    if let line = board.winningLine(through: position) {
      outcome = .win(mark, line: line)
    } else if board.isFull || !Referee.hasAllowedMove(for: mark.opponent, on: board) {
      // Under renju X may be left only forbidden cells: the game cannot go on, and no one has won.
      outcome = .draw
    }
  }

  /// Plays `position` for whoever's turn it is.
  public mutating func play(_ position: Position) throws(MoveError) {
    try play(position, by: turn)
  }

  /// Takes back the last move, returning it (nil on an empty board).
  @discardableResult
  public mutating func undo() -> Position? {
    guard let last = history.popLast() else { return nil }
    board.set(nil, at: last)
    outcome = nil
    return last
  }
}
