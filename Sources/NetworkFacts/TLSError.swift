import ExplainedErrors
import PeerTrust

/// Why a TLS connection failed, in player words naming the cause.
public enum TLSError: ExplainedError, Sendable, Equatable, CustomStringConvertible {
  /// The first bytes received are not a TLS record (plain text, an HTTP request...): the
  /// other program is not tictactoe speaking TLS. Detected before OpenSSL sees the bytes.
  case notTLS
  /// No common TLS version; `peerMaximum` is the highest version the peer offered, when known.
  case protocolVersion(peerMaximum: String?)
  /// The peer does not speak the tictactoe protocol (ALPN). `offered` lists what the client
  /// offered.
  case noCommonApplicationProtocol(offered: [String])
  /// Server side: the joining player sent no certificate.
  case certificateRequired
  /// The peer refused our certificate with this alert (`bad_certificate`, `unknown_ca`,
  /// `certificate_unknown`, `certificate_expired`, `access_denied`, `certificate_required`...).
  /// With TLS 1.3 a client learns this only on its first read after its handshake call
  /// succeeded, because the server judges the client's certificate after the client finishes.
  case certificateRefusedByPeer(alert: String)
  /// We refused the peer's certificate for this reason.
  case untrusted(TrustFailure)
  /// The peer closed the connection cleanly (close_notify).
  case closedByPeer
  /// The connection ended without a close_notify (the peer crashed or the network dropped).
  case unexpectedEOF
  /// Another handshake or record failure; `reasons` is OpenSSL's error queue.
  case handshakeFailed(reasons: [String])
  /// A failure of this program or of OpenSSL itself.
  case internalError(String)

  /// A stable name for the failure, for logs and tests.
  public var code: String {
    switch self {
    case .notTLS: "tls.not-tls"
    case .protocolVersion: "tls.protocol-version"
    case .noCommonApplicationProtocol: "tls.no-common-application-protocol"
    case .certificateRequired: "tls.certificate-required"
    case .certificateRefusedByPeer: "tls.certificate-refused-by-peer"
    case .untrusted(let failure): failure.code
    case .closedByPeer: "tls.closed-by-peer"
    case .unexpectedEOF: "tls.unexpected-eof"
    case .handshakeFailed: "tls.handshake-failed"
    case .internalError: "tls.internal-error"
    }
  }

  /// What happened, in player words.
  public var reason: String {
    switch self {
    case .notTLS:
      return "The other side sent something that is not TLS (plain text or a web request, for"
        + " example): it is not a tictactoe player."
    case .protocolVersion(let peerMaximum):
      if peerMaximum == "TLS 1.3" { return "The other side needs TLS 1.3, but this side was set up without it." }
      if let peerMaximum { return "The other side only speaks \(peerMaximum); tictactoe needs TLS 1.3." }
      return "The other side does not speak TLS 1.3, which tictactoe needs."
    case .noCommonApplicationProtocol(let offered):
      let list = offered.isEmpty ? "nothing" : offered.joined(separator: ", ")
      return "The other side is not a tictactoe peer (the protocols offered were: \(list))."
    case .certificateRequired:
      return "The other player sent no certificate, so there is no way to know who they are;"
        + " tictactoe requires one from both players."
    case .certificateRefusedByPeer(let alert): return "The other player refused your certificate (\(alert))."
    case .untrusted(let failure): return failure.reason
    case .closedByPeer: return "The other player closed the connection."
    case .unexpectedEOF:
      return "The connection was cut without a goodbye (the other program stopped or the network failed)."
    case .handshakeFailed(let reasons):
      let detail = reasons.isEmpty ? "no detail from OpenSSL" : reasons.joined(separator: "; ")
      return "The secure connection could not be set up: \(detail)."
    case .internalError(let reason): return "Internal error in the secure connection: \(reason)."
    }
  }

  /// What the player can do about it (nil when nothing: the other player left).
  public var hint: String? {
    switch self {
    case .notTLS, .noCommonApplicationProtocol: return "Check the address and port."
    case .protocolVersion(let peerMaximum):
      return peerMaximum == "TLS 1.3" ? "Update this program." : "Ask them to update their program."
    case .certificateRequired: return "Ask them to play with tictactoe, which always presents one."
    case .certificateRefusedByPeer:
      return "If they know you under another key, they must forget the old one; otherwise ask them to accept"
        + " your fingerprint."
    case .untrusted(let failure): return failure.hint
    case .closedByPeer: return nil
    case .unexpectedEOF: return "Connect again when the other side is back."
    case .handshakeFailed: return "Check the address and port, and that both sides run a current tictactoe."
    case .internalError: return "Please report it, with the log (tictactoe doctor shows where it is)."
    }
  }

  public var description: String {
    if case .untrusted(let failure) = self { return failure.description }
    return hint.map { "\(reason) \($0)" } ?? reason
  }
}
