/// A hosted game seen on the LAN, as the lobby shows it: who hosts, where, and what its TXT record says.
public struct DiscoveredGame: Sendable, Equatable {
  /// The browse result this game came from.
  public let id: ServiceID
  /// The SRV target host, e.g. `ttt-test.local.`; nil until resolved.
  public var hostName: String?
  /// The TCP port; nil until resolved.
  public var port: UInt16?
  /// Numeric addresses of the host: `127.0.0.1`, `fe80::1%2` (IPv6 link-local carries the interface index).
  public var addresses: [String]
  /// The decoded TXT record (its `problems` say what a foreign publisher got wrong); nil until resolved.
  public var txt: ServiceTXT?
  /// Why resolving failed, if it did.
  public var resolveError: DiscoveryError?

  public init(
    id: ServiceID, hostName: String? = nil, port: UInt16? = nil, addresses: [String] = [], txt: ServiceTXT? = nil,
    resolveError: DiscoveryError? = nil
  ) {
    self.id = id
    self.hostName = hostName
    self.port = port
    self.addresses = addresses
    self.txt = txt
    self.resolveError = resolveError
  }

  /// The instance name: the game's main name.
  public var instanceName: String { id.name }
  /// The interface it was seen on.
  public var interfaceIndex: UInt32 { id.interfaceIndex }
  /// True once there is a port and at least one address to connect to.
  public var isConnectable: Bool { port != nil && !addresses.isEmpty }
}
