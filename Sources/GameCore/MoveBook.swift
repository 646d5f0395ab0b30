import Synchronization

/// Remembers the perfect moves of positions already solved, so a program that plays many games at once (the
/// bot host) solves each position only once: every 3×3 game starts from the same handful of positions, and
/// solving the empty board alone takes about 0.6 ms.
///
/// Bounded: when `capacity` positions are stored, the book forgets them all and starts again (a working set
/// that fits is rebuilt within a few games). Safe to share between threads.
public final class MoveBook: Sendable {
  /// At most this many positions are remembered.
  public let capacity: Int
  private let entries = Mutex<[Board: [Position]]>([:])

  public init(capacity: Int = 100_000) {
    self.capacity = max(1, capacity)
  }

  /// How many positions the book holds now.
  public var count: Int { entries.withLock { $0.count } }

  /// What `AIPlayer.perfectMoves(in:)` says about `game`, solved at most once per position while the book
  /// remembers it: nil when the board is too big to solve exactly (nothing is stored then).
  public func perfectMoves(in game: Game) -> [Position]? {
    if let known = entries.withLock({ $0[game.board] }) { return known }
    guard let moves = AIPlayer.perfectMoves(in: game) else { return nil }
    entries.withLock { table in
      if table.count >= capacity { table.removeAll(keepingCapacity: true) }
      table[game.board] = moves
    }
    return moves
  }
}
