import NetworkFacts
import TransitRelay

extension Invite {
  /// A transit relay where the host waits for joiners, and the token that pairs a joiner with the host there
  /// (docs/PROTOCOL.md, "Invites"; docs/INTERNET.md, "A relay"). Written `relay:<host>/<port>/<token>`, the
  /// token in unpadded base64url as the key is: 43 characters, the last with no stray bits.
  public struct Relay: Sendable, Equatable, CustomStringConvertible {
    public static let prefix = "relay:"

    public let host: String
    public let port: UInt16
    public let token: RelayToken

    /// Nil when `parse` would refuse the host or the port: a host that is no address or name, or a number the
    /// system would read as another address (`NumericAddress`).
    public init?(host: String, port: UInt16, token: RelayToken) {
      guard port > 0, Invite.isHost(host) else { return nil }
      self.host = host
      self.port = port
      self.token = token
    }

    public var description: String { "\(Relay.prefix)\(host)/\(port)/\(Invite.base64url(token.bytes))" }

    /// Reads `relay:<host>/<port>/<token>`.
    static func parse(_ item: Substring) throws(InviteError) -> Relay {
      let rest = item.dropFirst(prefix.count)
      guard let tokenSlash = rest.lastIndex(of: "/"), let portSlash = rest[..<tokenSlash].lastIndex(of: "/") else {
        throw .badRelay(String(item))
      }
      let host = String(rest[..<portSlash])
      if let problem = NumericAddress.problem(host) { throw .hiddenAddress(problem) }
      let portText = rest[rest.index(after: portSlash)..<tokenSlash]
      guard (1...5).contains(portText.utf8.count), portText.utf8.allSatisfy({ (48...57).contains($0) }),
        let port = UInt16(portText),
        let bytes = Invite.decodeBase64url(String(rest[rest.index(after: tokenSlash)...])),
        let token = RelayToken(bytes: bytes), let relay = Relay(host: host, port: port, token: token)
      else { throw .badRelay(String(item)) }
      return relay
    }
  }
}
