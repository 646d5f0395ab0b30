import COpenSSL
import NetworkFacts

extension TLSConnection {
  /// Names the cause of a failed OpenSSL call, most specific first: our own trust refusal,
  /// a missing ALPN match, an alert from the peer, then OpenSSL's error queue.
  func classify(code: Int32) -> TLSError {
    let entries = OpenSSLErrorQueue.drainEntries()
    if let trustFailure { return .untrusted(trustFailure) }
    if context.role == .server, let offered = peerOfferedProtocols, !offered.contains(context.alpn) {
      return .noCommonApplicationProtocol(offered: offered)
    }
    if let alert = receivedAlert {
      switch alert {
      case TLSAlert.closeNotify:
        return .closedByPeer
      case TLSAlert.protocolVersion:
        return .protocolVersion(peerMaximum: nil)
      case TLSAlert.noApplicationProtocol:
        return .noCommonApplicationProtocol(offered: context.role == .client ? [context.alpn] : [])
      case let refusal where TLSAlert.certificateRefusals.contains(refusal):
        return .certificateRefusedByPeer(alert: TLSAlert.name(refusal))
      default:
        return .handshakeFailed(
          reasons: ["the other side sent the alert \(TLSAlert.name(alert))"] + entries.map(\.text))
      }
    }
    if code == SSL_ERROR_ZERO_RETURN { return .closedByPeer }
    for entry in entries where entry.library == ERR_LIB_SSL {
      switch entry.reason {
      case SSL_R_UNSUPPORTED_PROTOCOL, SSL_R_NO_PROTOCOLS_AVAILABLE, SSL_R_WRONG_SSL_VERSION:
        return .protocolVersion(peerMaximum: peerHelloVersion.map(TLSHelloProbe.versionName))
      case SSL_R_PEER_DID_NOT_RETURN_A_CERTIFICATE:
        return .certificateRequired
      case SSL_R_NO_APPLICATION_PROTOCOL:
        return .noCommonApplicationProtocol(offered: peerOfferedProtocols ?? [context.alpn])
      case SSL_R_UNEXPECTED_EOF_WHILE_READING:
        return .unexpectedEOF
      case SSL_R_HTTP_REQUEST, SSL_R_HTTPS_PROXY_REQUEST:
        return .notTLS
      default:
        continue
      }
    }
    if code == SSL_ERROR_SYSCALL && entries.isEmpty { return .unexpectedEOF }
    if entries.isEmpty {
      return .handshakeFailed(reasons: ["OpenSSL reported error \(code) without detail"])
    }
    return .handshakeFailed(reasons: entries.map(\.text))
  }
}
