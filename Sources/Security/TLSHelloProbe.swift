import PeerTrust

/// Reads the first bytes the peer sends, before OpenSSL sees them: is it TLS at all, and
/// which TLS versions does the peer's hello offer (to explain a version mismatch).
struct TLSHelloProbe {
  /// Bytes kept from the start of the stream (the first record, at most 16 KiB + header).
  private(set) var prefix: [UInt8] = []
  private let expectHandshakeOnly: Bool

  /// `role` is our role: a server must see a handshake record first; a client may also see an
  /// alert record (a server refusing its hello).
  init(role: TLSRole) {
    expectHandshakeOnly = role == .server
  }

  /// Keeps `bytes` if the first record is not complete yet.
  mutating func observe(_ bytes: [UInt8]) {
    let limit = 5 + 16_384 + 256
    if prefix.count < limit {
      prefix += bytes.prefix(limit - prefix.count)
    }
  }

  /// False as soon as the first bytes cannot start a TLS record; true while they can.
  var looksLikeTLS: Bool {
    if let first = prefix.first {
      let allowed: Set<UInt8> = expectHandshakeOnly ? [0x16] : [0x15, 0x16]
      if !allowed.contains(first) { return false }
    }
    if prefix.count >= 2 && prefix[1] != 0x03 { return false }
    return true
  }

  /// The highest TLS version offered by a ClientHello, or chosen by a ServerHello, in the
  /// first record (wire value, e.g. 0x0303 for TLS 1.2), if it can be read.
  var helloVersion: UInt16? {
    var reader = ByteReader(prefix)
    guard reader.byte() == 0x16, reader.skip(2), let recordLength = reader.uint16(),
      var body = reader.slice(Int(recordLength)),
      let messageType = body.byte(), messageType == 1 || messageType == 2,
      body.skip(3), let legacyVersion = body.uint16(), body.skip(32),
      let sessionLength = body.byte(), body.skip(Int(sessionLength))
    else { return nil }
    if messageType == 1 {
      guard let suitesLength = body.uint16(), body.skip(Int(suitesLength)),
        let compressionLength = body.byte(), body.skip(Int(compressionLength))
      else { return legacyVersion }
    } else {
      guard body.skip(3) else { return legacyVersion }
    }
    guard let extensionsLength = body.uint16(), var extensions = body.slice(Int(extensionsLength)) else {
      return legacyVersion
    }
    while let type = extensions.uint16(), let length = extensions.uint16(), var data = extensions.slice(Int(length)) {
      guard type == 43 else { continue }  // supported_versions
      if messageType == 2 { return data.uint16() ?? legacyVersion }
      guard let listLength = data.byte(), var list = data.slice(Int(listLength)) else { return legacyVersion }
      var highest: UInt16?
      while let version = list.uint16() {
        let isGrease = version & 0x0F0F == 0x0A0A
        if !isGrease && version <= 0x03FF { highest = max(highest ?? 0, version) }
      }
      return highest ?? legacyVersion
    }
    return legacyVersion
  }

  /// "TLS 1.2" for 0x0303 and so on.
  static func versionName(_ version: UInt16) -> String {
    switch version {
    case 0x0300: return "SSL 3.0"
    case 0x0301: return "TLS 1.0"
    case 0x0302: return "TLS 1.1"
    case 0x0303: return "TLS 1.2"
    case 0x0304: return "TLS 1.3"
    default: return "an unknown TLS version (0x" + String(version, radix: 16) + ")"
    }
  }
}

/// Big-endian reading over a byte slice, failing softly (nil/false) at the end.
struct ByteReader {
  private var bytes: ArraySlice<UInt8>

  init(_ bytes: [UInt8]) {
    self.bytes = bytes[...]
  }

  init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
  }

  mutating func byte() -> UInt8? {
    bytes.popFirst()
  }

  mutating func uint16() -> UInt16? {
    guard bytes.count >= 2, let high = bytes.popFirst(), let low = bytes.popFirst() else { return nil }
    return UInt16(high) << 8 | UInt16(low)
  }

  mutating func skip(_ count: Int) -> Bool {
    guard bytes.count >= count else { return false }
    bytes = bytes.dropFirst(count)
    return true
  }

  mutating func slice(_ count: Int) -> ByteReader? {
    guard bytes.count >= count else { return nil }
    let taken = bytes.prefix(count)
    bytes = bytes.dropFirst(count)
    return ByteReader(taken)
  }
}
