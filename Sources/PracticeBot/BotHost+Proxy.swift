import MatchCoordination
import NetworkFacts
import Transport

/// The practice bot behind a proxy (HAProxy in TCP mode with `send-proxy-v2`, docs/DEPLOY.md): a connection
/// from an address the settings trust (`proxy_from`) first says whose it is (`ProxyPrelude`), and the limits
/// per address and the deny list judge that client; the proxy's health checks are neither counted nor logged.
extension BotHost {
  /// The proxy's header came: a health check (LOCAL) is closed at once; a client's connection is judged by the
  /// source limits at the client's address (`peerAddress` is now that), then its TLS handshake goes on.
  func introduced(_ link: BotLink, _ header: ProxyHeader, now: Double) {
    guard header.command == .proxy else {
      close(link, gracefully: false)
      return
    }
    let client = link.connection.peerAddress
    // A header naming no address (an unspecified family) leaves the proxy's own: counted nowhere, as before.
    if header.source != nil {
      let (admitted, line) = door.admit(client, now: now)
      if let line { log.write(line) }
      guard admitted else {
        close(link, gracefully: false)
        return
      }
      link.counted = true
    }
    read(link)  // TLS's first bytes may have come with the header: nothing else will wake this connection
  }

  /// Whether a failure is the proxy's health check, which is not logged: a TCP check connects and closes
  /// without a byte.
  static func isHealthCheck(_ error: NetworkError) -> Bool {
    error == .proxyHeader(.ended(received: 0))
  }
}
