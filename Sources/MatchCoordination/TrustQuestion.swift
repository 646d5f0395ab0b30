import PeerTrust
import Session
import UntrustedText

/// A question for the player about the other side's key (trust on first use).
public struct TrustQuestion: Sendable, Equatable {
  public let role: Role
  /// The name the peer gave (its hello) and the name its certificate carries (remembered in known peers).
  public let peerName: PeerText
  public let certificateName: PeerText
  public let fingerprint: Fingerprint
  /// Known peers whose names look like this one's (another key): it is not them.
  public var lookalikes: [KnownPeer] = []

  public init(
    role: Role, peerName: PeerText, certificateName: PeerText, fingerprint: Fingerprint, lookalikes: [KnownPeer] = []
  ) {
    self.role = role
    self.peerName = peerName
    self.certificateName = certificateName
    self.fingerprint = fingerprint
    self.lookalikes = lookalikes
  }

  /// The warning for a new key under a name like a known peer's: both keys, and where the known one is.
  public static func notTheOneYouKnow(claimed: PeerText, fingerprint: Fingerprint, lookalikes: [KnownPeer])
    -> [String]
  {
    ["WARNING: a new player calling itself \(claimed) — not the \(claimed) you know."]
      + lookalikes.map { "  known \(PeerText($0.name)): \($0.fingerprint) (known_peers line \($0.line))" }
      + ["  this one:  \(fingerprint)"]
  }

  /// The question in short lines, for a dialog.
  public var lines: [String] {
    switch role {
    case .host where !lookalikes.isEmpty:
      return TrustQuestion.notTheOneYouKnow(claimed: peerName, fingerprint: fingerprint, lookalikes: lookalikes)
        + ["Let this new player join?"]
    case .host: return ["\(peerName) wants to join — accept?", "Key: \(fingerprint)"]
    case .joiner where !lookalikes.isEmpty:
      return TrustQuestion.notTheOneYouKnow(claimed: peerName, fingerprint: fingerprint, lookalikes: lookalikes)
        + ["Trust this new host?"]
    case .joiner: return ["The host \(peerName) is new to you. Trust it?", "Key: \(fingerprint)"]
    }
  }

  /// The question in one line for plain mode: "Bob (SHA256:…) wants to join — accept?" on the host, "The host
  /// Alice is new to you: SHA256:…. Trust it?" on the joiner; under a name like a known peer's, the warning's
  /// `lines`.
  public var text: String {
    switch role {
    case _ where !lookalikes.isEmpty: return lines.joined(separator: "\n")
    case .host: return "\(peerName) (\(fingerprint)) wants to join — accept?"
    case .joiner: return "The host \(peerName) is new to you: \(fingerprint). Trust it?"
    }
  }
}
