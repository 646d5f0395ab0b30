/// A socket address the system resolved, kept as the bytes of its `sockaddr`: the deciding parts carry it
/// without reading it and hand it back to the sockets to connect to (Transport's `Sockets.Address`).
public struct ResolvedAddress: Sendable, CustomStringConvertible {
  /// The `sockaddr` as the system wrote it (its length is the count).
  public let bytes: [UInt8]
  /// An in-memory network's name for the connecting side, bound before connecting (Transport's `MemoryNetwork`).
  public let source: [UInt8]?
  /// The address family (`AF_INET`, `AF_INET6`, `AF_UNIX`).
  public let family: Int32
  /// The address as text ("192.0.2.1:7177", "[::1]:7177"), written by the sockets when it was resolved.
  public let description: String

  public init(bytes: [UInt8], source: [UInt8]? = nil, family: Int32, description: String) {
    self.bytes = bytes
    self.source = source
    self.family = family
    self.description = description
  }
}
