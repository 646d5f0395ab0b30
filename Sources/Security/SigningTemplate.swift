import COpenSSL
import Synchronization

/// A key's signing context, set up once and copied for each signature: setting one up looks the digest and the
/// key's signature method up in OpenSSL's providers every time, a sixth of a P-256 signature's time, which a
/// practice bot paid once per game it played. Copies are made under a lock (one identity signs on any thread).
final class SigningTemplate: Sendable {
  /// The context, which only this class touches, and only under the lock.
  private struct Context: @unchecked Sendable {
    let pointer: OpaquePointer
  }
  private let context: Mutex<Context?>

  /// The template for `key` (nil inside when OpenSSL could not set one up: each signature then sets up its own).
  init(key: OpaquePointer) {
    var made = EVP_MD_CTX_new()
    if let context = made, EVP_DigestSignInit(context, nil, RecordSignature.digest(for: key), nil, key) != 1 {
      EVP_MD_CTX_free(context)
      made = nil
      OpenSSLErrorQueue.clear()
    }
    context = Mutex(made.map(Context.init))
  }

  deinit {
    context.withLock { if let context = $0 { EVP_MD_CTX_free(context.pointer) } }
  }

  /// Makes `target` a fresh copy of the template, ready to sign; false when there is no template or the copy
  /// failed (the caller then sets `target` up itself).
  func copy(into target: OpaquePointer) -> Bool {
    context.withLock { template in
      guard let source = template?.pointer else { return false }
      guard EVP_MD_CTX_copy_ex(target, source) == 1 else {
        OpenSSLErrorQueue.clear()
        return false
      }
      return true
    }
  }
}
