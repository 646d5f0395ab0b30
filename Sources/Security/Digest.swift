import COpenSSL

/// Hashes for the protocol (the coin toss commitment).
public enum Digest {
  /// SHA-256 of `bytes` (32 bytes).
  public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    _ = bytes.withUnsafeBytes { input in
      EVP_Digest(input.baseAddress, input.count, &output, &length, EVP_sha256(), nil)
    }
    return output
  }
}
