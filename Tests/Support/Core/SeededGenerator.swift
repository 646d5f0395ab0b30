import GameCore

/// The tests' one deterministic random number generator (SplitMix64), so a randomised test replays the same
/// cases in every process and a failure comes back with the same seed.
/// GameCore's `SplitMix` underneath, with the helpers the tests use.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var core: SplitMix

  public init(seed: UInt64) {
    core = SplitMix(seed: seed)
  }

  public mutating func next() -> UInt64 { core.next() }

  /// A number in 0..<bound.
  public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

  /// True `percent` times in a hundred.
  public mutating func chance(_ percent: Int) -> Bool { below(100) < percent }
}
