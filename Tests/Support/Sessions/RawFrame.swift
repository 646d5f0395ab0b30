import WireProtocol

/// Raw frames for messages a well-behaved peer never sends: fields given byte by byte, each one may be left out
/// or broken. Shared by the in-memory and the end-to-end hostile peers.
public enum RawFrame {
  /// A field: tag, 2-byte big-endian length, value.
  public static func field(_ tag: UInt8, _ value: [UInt8]) -> [UInt8] {
    [tag, UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value
  }

  /// A whole frame of `type` whose payload is `fields` concatenated.
  public static func frame(type: UInt8, _ fields: [UInt8]...) -> [UInt8] {
    Frame(type: type, payload: fields.flatMap { $0 }).bytes
  }

  /// A hello whose fields are given raw.
  public static func hello(
    versions: [UInt8]? = [0, 2], name: [UInt8]? = Array("mallory".utf8), software: [UInt8]? = []
  ) -> [UInt8] {
    var fields: [UInt8] = []
    if let versions { fields += field(1, versions) }
    if let name { fields += field(2, name) }
    if let software { fields += field(3, software) }
    return Frame(type: 0x01, payload: fields).bytes
  }
}
