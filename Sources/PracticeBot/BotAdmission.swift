import PeerTrust
import WireProtocol

/// Whether the bot lets a joiner play, decided from the TLS trust verdict: nobody is there to be asked.
package enum BotAdmission: Equatable {
  /// Play; `remember` when the peer is new and was accepted by `--accept-new` (so a later change of its key
  /// is caught, as for a peer a player accepted).
  case letIn(remember: Bool)
  /// Say why, with `reason` (`untrusted`; `busy` for a joiner over a limit), and close.
  case refuse(String, reason: RefusalReason = .untrusted)

  /// The admission for a joiner whose certificate got `decision` from a bot called `botName`.
  static func decide(_ decision: TrustDecision?, botName: String) -> BotAdmission {
    switch decision {
    case .trusted(.acceptedNew): return .letIn(remember: true)
    case .trusted: return .letIn(remember: false)
    case .askUser(_, let fingerprint):
      return .refuse(
        "\(botName) is a practice bot and plays only players it already knows; nobody is there to accept your "
          + "key \(fingerprint). Ask whoever runs it to start it with --accept-new.")
    case .rejected(let failure): return .refuse("your certificate was refused: \(failure)")
    case nil: return .refuse("your certificate was not checked")
    }
  }
}
