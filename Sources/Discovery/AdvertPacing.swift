/// How often a changing value of the advertisement (the number of spectators, `watch=N`) reaches the LAN: at most
/// once every `interval` seconds, since every DNS-SD browser on the LAN wakes for each change. A change within the
/// interval is held and published when it ends (the latest value only; none when it went back meanwhile). Pure:
/// the caller gives the time and publishes what it is told to.
public struct AdvertPacing<Value: Equatable & Sendable>: Sendable {
  public static var interval: Double { 10 }

  /// What the LAN was last told, and when.
  public private(set) var published: Value
  private var publishedAt: Double?
  /// A change held until the interval ends.
  public private(set) var held: Value?

  public init(_ initial: Value) { published = initial }

  /// The value is now `value`: what to publish at once (nil: nothing, or held until `deadline`).
  public mutating func changed(to value: Value, now: Double) -> Value? {
    guard value != published else {
      held = nil
      return nil
    }
    if let publishedAt, now < publishedAt + Self.interval {
      held = value
      return nil
    }
    return publish(value, now: now)
  }

  /// The advertisement was published with `value` for another reason (a change the LAN must hear at once): the
  /// interval starts again from it.
  public mutating func publishedAnyway(_ value: Value, now: Double) {
    _ = publish(value, now: now)
  }

  /// When a held change is due (nil: none held).
  public var deadline: Double? { held == nil ? nil : (publishedAt ?? 0) + Self.interval }

  /// At `now`: the held change to publish, when its time has come.
  public mutating func due(now: Double) -> Value? {
    guard let held, let deadline, now >= deadline else { return nil }
    return publish(held, now: now)
  }

  private mutating func publish(_ value: Value, now: Double) -> Value {
    published = value
    publishedAt = now
    held = nil
    return value
  }
}
