import MatchCoordination
import TerminalUI

extension SourceLimits {
  /// The limits a host's settings ask for: its `deny` list, and `limits_exempt` (loopback when not set). The
  /// lists were checked when the settings were read: one that does not parse never gets this far.
  init(settings: Settings, now: Double) {
    let deny = (try? DenyList(parsing: settings.deny ?? "none")) ?? DenyList()
    let exempt = settings.limitsExempt.flatMap { try? DenyList(parsing: $0) } ?? SourceLimits.loopback
    self.init(deny: deny, exempt: exempt, now: now)
  }
}
