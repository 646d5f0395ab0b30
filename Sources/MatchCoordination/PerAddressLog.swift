/// Log lines about what one source address did, at most `burst` and then one a minute per address, so a client
/// refused in a loop cannot fill the log; how many were held back is said on the next line that is written.
public struct PerAddressLog {
  private var buckets: TokenBuckets<SourceAddress>
  private var heldBack = 0

  public init(burst: Double = 3, perMinute: Double = 1) {
    buckets = TokenBuckets(rate: perMinute / 60, burst: burst)
  }

  /// The line to write about `peer` at `now`, or nil to hold it back.
  public mutating func line(_ text: String, about peer: String, now: Double) -> String? {
    guard let address = SourceAddress(peer), buckets.take(address, now: now) else {
      heldBack += 1
      return nil
    }
    defer { heldBack = 0 }
    return heldBack > 0 ? "\(text) (\(heldBack) similar lines not logged before this)" : text
  }
}
