import NetworkFacts

/// A connection's stage before TLS when it comes from a proxy trusted to say who the client is (the settings'
/// `proxy_from`): it sends nothing and waits for the PROXY protocol version 2 header (`ProxyHeader`), then
/// hands the connection on as the client's (`PreludeStep.introduced`), with what followed the header as TLS's
/// first bytes. Anything else from such an address is refused: a client cannot reach the server but through
/// the proxy, so a connection without the header is not one the proxy relayed.
public struct ProxyPrelude: ConnectionPrelude {
  /// Seconds the proxy has to send the header: it sends it as soon as it is connected.
  public static let patience = 5.0

  private var received: [UInt8] = []
  public let deadline: Double

  public init(now: Double) {
    deadline = now + ProxyPrelude.patience
  }

  public var opening: [UInt8] { [] }
  public var keepAlive: KeepAlive? { nil }

  public mutating func feed(_ bytes: [UInt8]) -> PreludeStep {
    received += bytes
    switch ProxyHeader.read(received) {
    case .more:
      // Past the longest header there is no more to wait for (`read` refuses a longer one first).
      return .more
    case .header(let header, let length):
      let leftover = Array(received[length...])
      received = []
      return .introduced(header, leftover: leftover)
    case .refused(let error):
      return .failed(.proxyHeader(error))
    }
  }

  public mutating func ended() -> NetworkError { .proxyHeader(.ended(received: received.count)) }

  public mutating func expired(now: Double) -> NetworkError? {
    now >= deadline ? .proxyHeader(.timedOut(seconds: Int(ProxyPrelude.patience))) : nil
  }
}
