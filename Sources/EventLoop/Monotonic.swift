import Glibc

/// Seconds on a clock that never jumps.
public enum Monotonic {
  @Sendable public static func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
