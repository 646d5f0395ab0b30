import MatchCoordination

/// Who comes in to the practice bot, once its listener (`HostListener`, shared with `host`) has accepted a
/// connection: the cap on connections still setting up (`PendingHandshakes`) says whether there is a place,
/// the limits per source address and the deny list (`SourceLimits`) whether this one may have it. A connection
/// refused is closed at once, before TLS, and logged a few times a minute per address (`PerAddressLog`).
struct BotDoor {
  /// What one address and one key may do: connections here, new keys and games for the bot to ask.
  var limits: SourceLimits
  private let pendingLimit = PendingHandshakes.bot
  private var refusals = PerAddressLog()

  init(limits: SourceLimits) {
    self.limits = limits
  }

  /// What the cap says with `pending` connections setting up, the oldest since `oldest`: a place, a place once
  /// the oldest is dropped, or none for now (the listener then holds newcomers at its door).
  func decide(pending: Int, oldest: Double?, now: Double) -> PendingHandshakes.Decision {
    pendingLimit.decide(pending: pending, oldest: oldest, now: now)
  }

  /// Whether a connection from `peer` may come in by the source limits; the line to log when it may not (at
  /// most a few a minute per address).
  mutating func admit(_ peer: String, now: Double) -> (admitted: Bool, line: String?) {
    guard let refusal = limits.connected(peer, now: now) else { return (true, nil) }
    return (false, refusals.line("refused a connection from \(peer): \(refusal)", about: peer, now: now))
  }

  /// A connection `admit` let in has closed.
  mutating func left(_ peer: String) { limits.disconnected(peer) }
}
