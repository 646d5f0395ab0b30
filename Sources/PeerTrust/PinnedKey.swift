/// A key the player pinned, and where the pin came from (for refusals that name every pin tried).
public struct PinnedKey: Sendable, Hashable, CustomStringConvertible {
  public let fingerprint: Fingerprint
  /// "--pin", or the certificate file the key was read from.
  public let source: String

  public init(_ fingerprint: Fingerprint, source: String = "--pin") {
    self.fingerprint = fingerprint
    self.source = source
  }

  /// "SHA256:… (--pin)", "SHA256:… (the key in alice.crt)".
  public var description: String { "\(fingerprint) (\(source))" }
}
