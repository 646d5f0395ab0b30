import NetworkFacts

/// What the game asks of the network: names looked up and ports listened on. `system` is the machine's TCP/IP
/// (`Sockets`); a `MemoryNetwork` gives the same calls over local sockets that never leave the process's
/// machine, so the real host and joiner run against each other in a test with no IPv4 or IPv6 socket.
/// Connecting, accepting and the rest go through `Sockets` for both: they work on whatever a lookup returned.
public struct Network: Sendable {
  /// Every address `endpoint` names (`numericOnly`: a numeric address read without any lookup).
  public let resolve: @Sendable (_ endpoint: Endpoint, _ numericOnly: Bool) throws(NetworkError) -> [Sockets.Address]
  /// Listens on `bind` (nil: every address) and `port` (0: any free port) with room for `backlog`.
  public let listen: @Sendable (_ bind: String?, _ port: UInt16, _ backlog: Int32) throws(NetworkError) -> [Int32]

  public init(
    resolve: @escaping @Sendable (Endpoint, Bool) throws(NetworkError) -> [Sockets.Address],
    listen: @escaping @Sendable (String?, UInt16, Int32) throws(NetworkError) -> [Int32]
  ) {
    self.resolve = resolve
    self.listen = listen
  }

  /// The machine's network.
  public static let system = Network(
    resolve: { endpoint, numericOnly throws(NetworkError) in
      try Sockets.resolve(endpoint, numericOnly: numericOnly)
    },
    listen: { bind, port, backlog throws(NetworkError) in try Sockets.listen(bind: bind, port: port, backlog: backlog) }
  )
}
