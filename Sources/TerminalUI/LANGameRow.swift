/// A game found on the LAN, as the lobby lists it.
public struct LANGameRow: Sendable, Equatable {
  /// The service instance name (what joining looks up).
  public var id: String
  public var rules: String
  public var state: String
  /// "known", "new" or "KEY CHANGED".
  public var trust: String
  public var addresses: String

  public init(id: String, rules: String, state: String, trust: String, addresses: String) {
    self.id = id
    self.rules = rules
    self.state = state
    self.trust = trust
    self.addresses = addresses
  }
}
