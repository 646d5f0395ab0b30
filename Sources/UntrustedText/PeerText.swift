/// Text that came from a peer or the network (a hello name, chat, a goodbye, a certificate or LAN name).
///
/// It is data, never terminal control: the only way to show it is its `description` (what string
/// interpolation uses), which passes it through `VisibleText`. The raw characters are there, under a name
/// that says so, for comparing and storing; never print `unsanitised`.
public struct PeerText: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
  /// The characters exactly as the peer sent them.
  public let unsanitised: String

  public init(_ unsanitised: String) {
    self.unsanitised = unsanitised
  }

  public init(stringLiteral value: String) {
    self.init(value)
  }

  /// The text with every control, bidirectional and invisible character shown as a visible escape.
  public var description: String { VisibleText.escaping(unsanitised) }

  public var isEmpty: Bool { unsanitised.isEmpty }
}
