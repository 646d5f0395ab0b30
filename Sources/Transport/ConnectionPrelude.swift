import NetworkFacts

/// A stage a connection goes through on its connected socket before TLS: what it says first, and what it must
/// hear before TLS may start (a transit relay's `ok`, `RelayPrelude`). Whatever arrives after the stage is done,
/// in the same read or later, belongs to TLS. Pure: `PeerConnection` moves the bytes and supplies the clock.
public protocol ConnectionPrelude {
  /// Bytes to send as soon as the connection starts (before any of TLS).
  var opening: [UInt8] { get }
  /// When the stage fails if it is not done, on the connection's clock.
  var deadline: Double { get }
  /// TCP keepalive for the socket, when the stage may leave it idle for long (a NAT forgets a silent connection).
  var keepAlive: KeepAlive? { get }
  /// Takes bytes read from the socket.
  mutating func feed(_ bytes: [UInt8]) -> PreludeStep
  /// The peer closed the connection before the stage was done: why that is a failure.
  mutating func ended() -> NetworkError
  /// The failure when `now` is at or past the deadline; nil before it.
  mutating func expired(now: Double) -> NetworkError?
}

/// Where a prelude stands after some bytes.
public enum PreludeStep: Sendable, Equatable {
  case more
  /// Done: TLS starts, and `leftover` (what followed the prelude in the same read) is its first input.
  case finished(leftover: [UInt8])
  /// Done, and a proxy said who the connection is from (`ProxyPrelude`): the owner hears it
  /// (`PeerConnection.Arrival.introduced`) before TLS starts, with `leftover` as TLS's first input.
  case introduced(ProxyHeader, leftover: [UInt8])
  case failed(NetworkError)
}

/// TCP keepalive settings: the first probe after `idle` seconds of silence, then every `interval` seconds, and
/// the connection is dropped after `count` unanswered probes.
public struct KeepAlive: Sendable, Equatable {
  public let idle: Int32
  public let interval: Int32
  public let count: Int32

  public init(idle: Int32, interval: Int32, count: Int32) {
    self.idle = idle
    self.interval = interval
    self.count = count
  }
}
