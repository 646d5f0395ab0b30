import Security

/// Why a connection could not be made or did not last, in words a player understands.
public enum NetworkError: Error, Sendable, Equatable, CustomStringConvertible {
  case hostNotFound(String, reason: String)
  case connectionRefused(Endpoint)
  case timedOut(Endpoint, seconds: Int)
  case unreachable(Endpoint, reason: String)
  case cannotListen(String, reason: String)
  case handshakeTimedOut(seconds: Int)
  /// The peer closed the TCP connection before the TLS handshake finished.
  case closedDuringHandshake
  case tls(TLSError)
  case socket(String)

  public var description: String {
    switch self {
    case .hostNotFound(let host, let reason): return "Host not found: \(host) (\(reason)). Check the name."
    case .connectionRefused(let endpoint):
      return "Connection refused by \(endpoint): nobody is hosting a game on that port."
    case .timedOut(let endpoint, let seconds):
      return
        "Timed out after \(seconds) s connecting to \(endpoint): the host is down, or a firewall drops the traffic."
    case .unreachable(let endpoint, let reason): return "Cannot reach \(endpoint): \(reason)."
    case .cannotListen(let address, let reason): return "Cannot host on \(address): \(reason)."
    case .handshakeTimedOut(let seconds):
      return
        "The secure connection was not set up within \(seconds) s: the other side is not a tictactoe peer, or it stalled."
    case .closedDuringHandshake:
      return
        "The other side closed the connection while setting up encryption: it is not a tictactoe peer, or it refused us."
    case .tls(let error): return error.description
    case .socket(let reason): return "Network error: \(reason)."
    }
  }
}
