import COpenSSL
import TransitRelay

/// Bytes from OpenSSL's cryptographically secure generator (RAND_bytes), for secrets: relay tokens and sides.
public enum SecureRandom {
  /// `count` random bytes; `purpose` names them in the error if the generator fails.
  public static func bytes(_ count: Int, for purpose: String) throws(SecurityError) -> [UInt8] {
    var bytes = [UInt8](repeating: 0, count: count)
    guard RAND_bytes(&bytes, Int32(count)) == 1 else { throw OpenSSLErrorQueue.error("draw \(purpose)") }
    return bytes
  }
}

extension RelayToken {
  /// A new token from OpenSSL's random generator.
  public static func random() throws(SecurityError) -> RelayToken {
    guard let token = RelayToken(bytes: try SecureRandom.bytes(RelayToken.byteCount, for: "a relay token")) else {
      throw .invalidArgument("a relay token of \(RelayToken.byteCount) bytes")
    }
    return token
  }
}

extension RelaySide {
  /// A new side from OpenSSL's random generator.
  public static func random() throws(SecurityError) -> RelaySide {
    guard let side = RelaySide(bytes: try SecureRandom.bytes(RelaySide.byteCount, for: "a relay side")) else {
      throw .invalidArgument("a relay side of \(RelaySide.byteCount) bytes")
    }
    return side
  }
}
