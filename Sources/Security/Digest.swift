import COpenSSL

/// Hashes for the protocol (the coin toss commitment).
public enum Digest {
  /// SHA-256 of `bytes` (32 bytes).
  public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: 32)
    var length: UInt32 = 0
    _ = bytes.withUnsafeBytes { input in
      EVP_Digest(input.baseAddress, input.count, &output, &length, sha256Algorithm ?? EVP_sha256(), nil)
    }
    return output
  }

  /// SHA-256 fetched from OpenSSL's provider once: `EVP_sha256()` makes `EVP_Digest` look it up on every call
  /// (a bot's batch of signatures hashes two nodes a game). Fetched algorithms are safe to share across threads.
  nonisolated(unsafe) private static let sha256Algorithm = EVP_MD_fetch(nil, "SHA2-256", nil)
}
