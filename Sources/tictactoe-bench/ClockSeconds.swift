extension Clock {
  /// The monotonic clock in seconds, for deadlines.
  static func seconds() -> Double { Double(now()) / 1e9 }
}
