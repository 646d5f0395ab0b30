#if canImport(Glibc)
  import Glibc
#endif

/// Durations measured for one figure, in nanoseconds, with the statistics the table reports.
struct Samples {
  private(set) var nanoseconds: [Double] = []

  mutating func append(_ value: Double) { nanoseconds.append(value) }

  var count: Int { nanoseconds.count }

  var median: Double { quantile(0.5) }
  var p99: Double { quantile(0.99) }
  var total: Double { nanoseconds.reduce(0, +) }

  /// The nearest-rank quantile (p99 of fewer than 100 samples is the maximum).
  func quantile(_ q: Double) -> Double {
    guard !nanoseconds.isEmpty else { return .nan }
    let sorted = nanoseconds.sorted()
    let rank = Int((q * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
  }
}

/// A monotonic clock read in nanoseconds.
enum Clock {
  static func now() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
  }

  /// Runs `body` and returns how long it took, in nanoseconds.
  static func measure(_ body: () throws -> Void) rethrows -> Double {
    let start = now()
    try body()
    return Double(now() - start)
  }
}
