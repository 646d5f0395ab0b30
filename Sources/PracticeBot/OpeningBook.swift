import GameCore

extension AIPlayer {
  /// Solves the opening positions (the empty board and every first move) into the move book, so the first
  /// games a bot serves do not pay for them on its shared loop (1.0–1.4 s on 4×4 with k = 4 here; nothing to do
  /// on boards too big to solve exactly, or without a book). On the standard board the first move asked builds
  /// the table of every position's choices (`PerfectTable`), before anyone joins too.
  func solveOpenings(of rules: Rules) {
    let empty = Game(rules: rules)
    var random = SystemRandomNumberGenerator()
    _ = chooseMove(in: empty, using: &random)
    guard let book, book.perfectMoves(in: empty) != nil else { return }
    for move in empty.legalMoves {
      var next = empty
      try? next.play(move)
      _ = book.perfectMoves(in: next)
    }
  }
}
