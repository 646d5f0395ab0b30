import MatchCoordination
import PlayerSettings

extension SourceLimits {
  /// The limits a host's settings ask for: its `deny` list, `limits_exempt` (loopback when not set) and
  /// `connections_per_address`. The
  /// lists were checked when the settings were read: one that does not parse never gets this far.
  package init(settings: Settings, now: Double) {
    let deny = (try? DenyList(parsing: settings.deny ?? "none")) ?? DenyList()
    let exempt = settings.limitsExempt.flatMap { try? DenyList(parsing: $0) } ?? SourceLimits.loopback
    var numbers = Numbers()
    numbers.connectionsPerAddress = settings.connectionsPerAddress ?? numbers.connectionsPerAddress
    self.init(numbers: numbers, deny: deny, exempt: exempt, now: now)
  }

  /// Reads `settings`' deny list, exempt addresses and connections per address again, keeping what was counted.
  package mutating func reread(_ settings: Settings) {
    let fresh = SourceLimits(settings: settings, now: 0)
    reread(deny: fresh.deny, exempt: fresh.exempt, connectionsPerAddress: fresh.numbers.connectionsPerAddress)
  }
}
