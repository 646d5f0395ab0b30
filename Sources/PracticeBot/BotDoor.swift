import MatchCoordination
import PlayerSettings

/// Who comes in to the practice bot, once its listener (`HostListener`, shared with `host`) has accepted a
/// connection: the cap on connections still setting up (`PendingHandshakes`) says whether there is a place,
/// the limits per source address and the deny list (`SourceLimits`) whether this one may have it. A connection
/// refused is closed at once, before TLS, and logged a few times a minute per address (`PerAddressLog`).
package struct BotDoor {
  /// What one address and one key may do: connections here, new keys and games for the bot to ask.
  var limits: SourceLimits
  private let pendingLimit = PendingHandshakes.bot
  private var refusals = PerAddressLog()
  /// Reads the settings file again, for SIGHUP (nil: nothing to read again; `BotCommand` sets it).
  package var settingsSource: (() throws -> Settings)?
  /// The addresses trusted to send a PROXY protocol version 2 header first (`proxy_from`: HAProxy's with
  /// `send-proxy-v2`): their connections are judged by the client the header names, not by their own address.
  package var proxyFrom = DenyList()

  init(limits: SourceLimits, proxyFrom: DenyList = DenyList()) {
    self.limits = limits
    self.proxyFrom = proxyFrom
  }

  /// Whether `peer` is a proxy trusted to say who its connections are from.
  func fromProxy(_ peer: String) -> Bool { proxyFrom.refuses(peer) }

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

  /// The deny list and the limits read again from the settings (SIGHUP): the line to log, saying what they are
  /// now, or why the file was not taken and the old values stay.
  mutating func reread() -> String {
    guard let settingsSource else { return "SIGHUP: no settings file to read again" }
    do {
      let settings = try settingsSource()
      limits.reread(settings)
      proxyFrom = BotDoor.proxies(settings)
    } catch {
      return "SIGHUP: settings not read again, the deny list and limits stay as they were: \(error)"
    }
    return
      "SIGHUP: settings read again: deny = \(limits.deny.setting), limits_exempt = \(limits.exempt.setting), "
      + "connections_per_address = \(limits.numbers.connectionsPerAddress), proxy_from = \(proxyFrom.setting)"
  }

  /// The proxies `settings` trust (`proxy_from`; none when not set). The list was checked when the file was read.
  package static func proxies(_ settings: Settings) -> DenyList {
    settings.proxyFrom.flatMap { try? DenyList(parsing: $0) } ?? DenyList()
  }

  /// A connection `admit` let in has closed.
  mutating func left(_ peer: String) { limits.disconnected(peer) }
}
