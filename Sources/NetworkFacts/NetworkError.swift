import ExplainedErrors
import PeerTrust
import TransitRelay

/// Why a connection could not be made or did not last, in words a player understands.
public enum NetworkError: ExplainedError, Sendable, Equatable, CustomStringConvertible {
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
  /// Through the transit relay at the endpoint, the other player was not reached.
  case relay(Endpoint, RelayFailure)
  /// From an address trusted to send a PROXY protocol header (a proxy), no good header came.
  case proxyHeader(ProxyHeaderError)

  /// A stable name for the failure, for logs and tests.
  public var code: String {
    switch self {
    case .hostNotFound: "network.host-not-found"
    case .connectionRefused: "network.connection-refused"
    case .timedOut: "network.timed-out"
    case .unreachable: "network.unreachable"
    case .cannotListen: "network.cannot-listen"
    case .handshakeTimedOut: "network.handshake-timed-out"
    case .closedDuringHandshake: "network.closed-during-handshake"
    case .tls(let error): error.code
    case .socket: "network.socket"
    case .relay(_, let failure): failure.code
    case .proxyHeader: "network.proxy-header"
    }
  }

  /// What happened, naming the host or address.
  public var reason: String {
    switch self {
    case .hostNotFound(let host, let reason): "Host not found: \(host) (\(reason))."
    case .connectionRefused(let endpoint): "Connection refused by \(endpoint): nobody is hosting a game on that port."
    case .timedOut(let endpoint, let seconds):
      "Timed out after \(seconds) s connecting to \(endpoint): the host is down, or a firewall drops the traffic."
    case .unreachable(let endpoint, let reason): "Cannot reach \(endpoint): \(reason)."
    case .cannotListen(let address, let reason): "Cannot host on \(address): \(reason)."
    case .handshakeTimedOut(let seconds):
      "The secure connection was not set up within \(seconds) s: the other side is not a tictactoe peer, or it"
        + " stalled."
    case .closedDuringHandshake:
      "The other side closed the connection while setting up encryption: it is not a tictactoe peer, or it"
        + " refused us."
    case .tls(let error): error.reason
    case .socket(let reason): "Network error: \(reason)."
    case .relay(let relay, let failure): failure.reason(relay: relay.description)
    case .proxyHeader(let error): "From the proxy: \(error)."
    }
  }

  /// What the player can do about it.
  public var hint: String? {
    switch self {
    case .hostNotFound: "Check the name."
    case .connectionRefused: "Check the port, or ask the host to start hosting."
    case .timedOut: "Check the address; on the host's machine, `tictactoe doctor` checks its firewall."
    case .unreachable: "Check this machine's network connection and the address."
    case .cannotListen: "Another program may use that port: choose another with --port, or stop that program."
    case .handshakeTimedOut, .closedDuringHandshake: "Check the address and port, then try again."
    case .tls(let error): error.hint
    case .socket: "Try again; `tictactoe doctor` checks the network."
    case .relay(_, let failure): failure.hint
    case .proxyHeader: "Check the proxy's configuration (send-proxy-v2) and the proxy_from setting."
    }
  }

  public var description: String {
    if case .tls(let error) = self { return error.description }
    return hint.map { "\(reason) \($0)" } ?? reason
  }
}

extension NetworkError {
  /// This failure to connect, named as a failure to reach the relay at `relay` (a refusal there means no relay
  /// runs, not that nobody hosts a game); other failures are returned as they are.
  public func atRelay(_ relay: Endpoint) -> NetworkError {
    switch self {
    case .connectionRefused: .relay(relay, .refused)
    case .timedOut(_, let seconds): .relay(relay, .unreachable(reason: "no answer within \(seconds) s"))
    case .unreachable(_, let reason): .relay(relay, .unreachable(reason: reason))
    case .hostNotFound(_, let reason): .relay(relay, .unreachable(reason: "its name was not found (\(reason))"))
    default: self
    }
  }
}
