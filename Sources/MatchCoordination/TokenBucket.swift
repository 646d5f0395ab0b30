/// A rate limit on a clock the caller gives: up to `burst` events at once, then `rate` a second on average
/// (a token bucket: each event takes a token, tokens come back at `rate` up to `burst`).
public struct TokenBucket: Equatable, Sendable {
  /// Tokens that come back per second.
  public let rate: Double
  /// The most tokens the bucket holds (the burst allowed after a quiet spell).
  public let burst: Double
  public private(set) var tokens: Double
  private var updated: Double

  /// A full bucket at `now`.
  public init(rate: Double, burst: Double, now: Double) {
    self.rate = rate
    self.burst = burst
    tokens = burst
    updated = now
  }

  /// Takes a token if there is one at `now`: true when the event is allowed.
  public mutating func take(now: Double) -> Bool {
    refill(now: now)
    guard tokens >= 1 else { return false }
    tokens -= 1
    return true
  }

  /// Puts back a token taken for an event that did not happen (never more than `burst`).
  public mutating func giveBack(now: Double) {
    refill(now: now)
    tokens = min(burst, tokens + 1)
  }

  /// Whether a token is there at `now`, without taking it.
  public func allows(now: Double) -> Bool {
    var copy = self
    copy.refill(now: now)
    return copy.tokens >= 1
  }

  /// Seconds from `now` until the next token (0 when there is one).
  public func wait(now: Double) -> Double {
    var copy = self
    copy.refill(now: now)
    return copy.tokens >= 1 || rate <= 0 ? 0 : (1 - copy.tokens) / rate
  }

  /// Whether the bucket is back to full at `now`: it then says nothing a new bucket would not.
  public func isFull(now: Double) -> Bool {
    var copy = self
    copy.refill(now: now)
    return copy.tokens >= burst
  }

  private mutating func refill(now: Double) {
    // A clock that went backwards (it should not) gives nothing back and takes nothing.
    if now > updated { tokens = min(burst, tokens + (now - updated) * rate) }
    updated = max(updated, now)
  }
}

/// One `TokenBucket` per key (a peer's key, a source address), in bounded memory: buckets back to full are
/// forgotten, and past `capacity` keys a new key is refused until some are (so a flood of addresses cannot
/// grow the host, nor flush the buckets of those already limited).
public struct TokenBuckets<Key: Hashable & Sendable>: Sendable {
  public let rate: Double
  public let burst: Double
  public let capacity: Int
  private var buckets: [Key: TokenBucket] = [:]
  /// When full buckets were last looked for (at most once a second: the search goes through every key).
  private var prunedAt = -Double.infinity

  public init(rate: Double, burst: Double, capacity: Int = 65_536) {
    self.rate = rate
    self.burst = burst
    self.capacity = capacity
  }

  /// Keys with a bucket that is not full (or not yet found full).
  public var count: Int { buckets.count }

  /// Takes a token from `key`'s bucket: true when the event is allowed.
  public mutating func take(_ key: Key, now: Double) -> Bool {
    guard makeRoom(for: key, now: now) else { return false }
    return buckets[key, default: TokenBucket(rate: rate, burst: burst, now: now)].take(now: now)
  }

  /// Puts back a token `key` took for an event that did not happen (a bucket forgotten as full needs none).
  public mutating func giveBack(_ key: Key, now: Double) {
    buckets[key]?.giveBack(now: now)
  }

  /// Whether `key` has a token at `now`, without taking it.
  public func allows(_ key: Key, now: Double) -> Bool {
    guard let bucket = buckets[key] else { return buckets.count < capacity }
    return bucket.allows(now: now)
  }

  /// Seconds from `now` until `key` has a token again.
  public func wait(_ key: Key, now: Double) -> Double { buckets[key]?.wait(now: now) ?? 0 }

  private mutating func makeRoom(for key: Key, now: Double) -> Bool {
    guard buckets[key] == nil, buckets.count >= capacity else { return true }
    guard now - prunedAt >= 1 else { return false }
    prunedAt = now
    buckets = buckets.filter { !$0.value.isFull(now: now) }
    return buckets.count < capacity
  }
}
