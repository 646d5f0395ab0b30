import ExplainedErrors
import UntrustedText

/// Why the other player's certificate was refused: what happened, why it matters, what to do.
public enum TrustFailure: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  /// The key is not the pinned one.
  case pinMismatch(expected: [PinnedKey], got: Fingerprint)
  /// `name` is remembered with another key at `file`:`line`.
  case keyChanged(name: String, known: Fingerprint, presented: Fingerprint, file: String, line: Int)
  /// The certificate ended at `notAfter` (seconds since 1970).
  case expired(notAfter: Int64)
  /// The certificate starts at `notBefore` (seconds since 1970).
  case notYetValid(notBefore: Int64)
  /// The certificate is for `presented` names, not for `expected`.
  case nameMismatch(expected: String, presented: [String])
  /// No trusted certificate authority issued the certificate.
  case unknownAuthority(detail: String)
  /// The peer presented no certificate.
  case noCertificate
  /// The certificate chain is unusable for another reason.
  case untrustedChain(reason: String)
  /// known_peers could not be read when the peer was judged (it is judged by nothing else).
  case knownPeersUnusable(reason: String)

  /// A stable name for the failure, for logs and tests.
  public var code: String {
    switch self {
    case .pinMismatch: "trust.pin-mismatch"
    case .keyChanged: "trust.key-changed"
    case .expired: "trust.expired"
    case .notYetValid: "trust.not-yet-valid"
    case .nameMismatch: "trust.name-mismatch"
    case .unknownAuthority: "trust.unknown-authority"
    case .noCertificate: "trust.no-certificate"
    case .untrustedChain: "trust.untrusted-chain"
    case .knownPeersUnusable: "trust.known-peers-unusable"
    }
  }

  /// What was refused, with the keys or dates involved.
  public var reason: String {
    switch self {
    case .pinMismatch(let expected, let got):
      let pinned = expected.map { "  pinned:    \($0)" }.joined(separator: "\n")
      return """
        The other player's key is not \(expected.count == 1 ? "the one" : "any of those") you pinned.
        \(pinned)
          presented: \(got)
        """
    case .keyChanged(let claimed, let known, let presented, let file, let line):
      // The name is the certificate's, chosen by the peer: shown escaped.
      return """
        WARNING: \(VisibleText.escaping(claimed))'s key has changed.
          known:     \(known)  (\(file):\(line))
          presented: \(presented)
        """
    case .expired(let notAfter):
      return "The other player's certificate expired on \(UTCCalendar.format(notAfter))."
    case .notYetValid(let notBefore):
      return "The other player's certificate is not valid before \(UTCCalendar.format(notBefore))."
    case .nameMismatch(let expected, let presented):
      let names = presented.isEmpty ? "no name at all" : presented.map(VisibleText.escaping).joined(separator: ", ")
      return "The certificate is for \(names), not for \(expected)."
    case .unknownAuthority(let detail):
      return "The other player's certificate was not issued by a certificate authority you trust"
        + " (\(VisibleText.escaping(detail)))."
    case .noCertificate:
      return "The other player presented no certificate, so there is no way to know who they are."
    case .untrustedChain(let reason):
      return "The other player's certificate cannot be trusted: \(VisibleText.escaping(reason))."
    case .knownPeersUnusable(let reason):
      return "The other player could not be checked against your known peers: \(VisibleText.escaping(reason))"
    }
  }

  /// Why it matters and what to do.
  public var hint: String? {
    switch self {
    case .pinMismatch:
      return "Someone may be pretending to be them, or they made a new identity. Compare fingerprints "
        + "with them by another way (read them aloud) before pinning the new key."
    case .keyChanged(let claimed, let known, _, _, _):
      // Never the peer's name in a command to copy: the command names the known key instead, which is ours.
      let name = VisibleText.escaping(claimed)
      return "Someone may be pretending to be \(name), or \(name) made a new identity. Compare the new "
        + "fingerprint with \(name) by another way; if it is right, run "
        + "`tictactoe peers forget \(known)` and connect again."
    case .expired:
      return "They need to renew it (or check both clocks); to play anyway, allow expired certificates."
    case .notYetValid: return "One of the two clocks is probably wrong: check the date on both machines."
    case .nameMismatch:
      return "You may have reached the wrong player; check the name, or turn off name checking if you know this"
        + " is right."
    case .unknownAuthority:
      return "Ask them for a certificate from your authority, or trust their key directly."
    case .noCertificate: return "Ask them to play with tictactoe, which always presents one."
    case .untrustedChain: return "Ask them for a certificate from your authority, or trust their key directly."
    case .knownPeersUnusable: return "Fix what is said about the known peers file, then connect again."
    }
  }

  public var description: String {
    switch self {
    case .pinMismatch, .keyChanged: hint.map { "\(reason)\n\($0)" } ?? reason
    default: hint.map { "\(reason) \($0)" } ?? reason
    }
  }
}
