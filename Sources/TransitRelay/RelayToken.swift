/// The secret a host and its joiners name at a transit relay to be glued together: 32 bytes, sent to the relay
/// as 64 lowercase hex digits, carried in an invite as base64url. Whoever knows it can reach the host's TLS
/// handshake through the relay (no further: the host's trust rules still decide).
public struct RelayToken: Sendable, Hashable {
  public static let byteCount = 32

  public let bytes: [UInt8]

  /// Nil unless `bytes` is exactly 32 bytes. Draw them from a secure random source (Security's
  /// `RelayToken.random()`).
  public init?(bytes: [UInt8]) {
    guard bytes.count == RelayToken.byteCount else { return nil }
    self.bytes = bytes
  }

  /// 64 lowercase hex digits, as the relay reads them.
  public var hex: String { Hex.lowercase(bytes) }
}

/// Which end of a pair a connection is, so the relay never glues two connections of one player together: 8
/// bytes, sent as 16 lowercase hex digits. Each connection to a relay draws a new one.
public struct RelaySide: Sendable, Hashable {
  public static let byteCount = 8

  public let bytes: [UInt8]

  /// Nil unless `bytes` is exactly 8 bytes.
  public init?(bytes: [UInt8]) {
    guard bytes.count == RelaySide.byteCount else { return nil }
    self.bytes = bytes
  }

  /// 16 lowercase hex digits.
  public var hex: String { Hex.lowercase(bytes) }
}

/// Bytes written as lowercase hex digits.
enum Hex {
  static func lowercase(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
  }
}
