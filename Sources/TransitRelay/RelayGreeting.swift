/// What a connection says first to a transit relay (magic-wormhole's transit protocol, the form with a side):
/// `please relay <64 hex> for side <16 hex>\n`. Nothing else may be sent before the relay answers `ok\n`: the
/// relay answers anything sent early with `impatient` and hangs up.
public struct RelayGreeting: Sendable, Equatable {
  public let token: RelayToken
  public let side: RelaySide

  public init(token: RelayToken, side: RelaySide) {
    self.token = token
    self.side = side
  }

  /// The line, newline included (104 bytes).
  public var line: [UInt8] { Array("please relay \(token.hex) for side \(side.hex)\n".utf8) }
}
