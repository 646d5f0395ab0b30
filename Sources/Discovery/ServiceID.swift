/// One advertised instance of a service as a browser sees it: the same name on another interface is another ID.
public struct ServiceID: Sendable, Hashable, CustomStringConvertible {
  /// The instance name, e.g. `Alice's game` (UTF-8, up to 63 bytes).
  public let name: String
  /// The service type with its trailing dot, e.g. `_tictactoe._tcp.`.
  public let type: String
  /// The domain, e.g. `local.`.
  public let domain: String
  /// The network interface it was seen on (if_nametoindex numbering).
  public let interfaceIndex: UInt32

  public init(name: String, type: String, domain: String, interfaceIndex: UInt32) {
    self.name = name
    self.type = type
    self.domain = domain
    self.interfaceIndex = interfaceIndex
  }

  public var description: String { "\(name) (\(type)\(domain), interface \(interfaceIndex))" }
}
