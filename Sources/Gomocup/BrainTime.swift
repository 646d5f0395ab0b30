/// What the manager said about time and memory (INFO), and the time a search may take from it.
public struct BrainLimits: Sendable, Equatable {
  /// INFO timeout_turn in milliseconds; 0 asks for a move as fast as possible. The protocol's default is 30 s.
  public var turnMilliseconds = 30_000
  /// INFO timeout_match in milliseconds; 0 means no limit.
  public var matchMilliseconds = 1_000_000_000
  /// INFO time_left in milliseconds, when the manager has said it.
  public var leftMilliseconds: Int?
  /// INFO max_memory in bytes; 0 means no limit.
  public var memoryBytes = 0

  public init() {}

  /// Kept back from every turn's limit for what the search does not count: choosing and writing the answer,
  /// the pipe, the manager's own clock. A tenth of the limit, at least 80 ms.
  public static func margin(of limit: Int) -> Int { max(limit / 10, 80) }

  /// The shortest search: what a move "as fast as possible" gets.
  public static let fastestMilliseconds = 10

  /// The time a search may take for a move with `emptyCells` cells left: the turn's limit less the margin, and
  /// no more than a share of the time left in the match (the time left over the moves that may still come,
  /// counted as half the empty cells, between 10 and 30), less its margin.
  public func searchMilliseconds(emptyCells: Int) -> Int {
    var budget = turnMilliseconds == 0 ? Self.fastestMilliseconds : turnMilliseconds - Self.margin(of: turnMilliseconds)
    if let left = leftMilliseconds {
      let share = left / min(max(emptyCells / 2, 10), 30)
      budget = min(budget, share - Self.margin(of: share))
    }
    return max(budget, 1)
  }
}
