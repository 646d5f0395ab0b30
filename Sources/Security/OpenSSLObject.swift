import COpenSSL

/// Owns one short-lived OpenSSL object (a BIGNUM, an extension, a PKCS#12 structure...) and
/// frees it with the matching `*_free` function when the Swift reference goes away.
///
/// Long-lived handles have their own classes (`PrivateKey`, `X509Certificate`, `TLSContext`...).
final class OpenSSLObject {
  let pointer: OpaquePointer
  private let release: (OpaquePointer) -> Void

  init(_ pointer: OpaquePointer, release: @escaping (OpaquePointer) -> Void) {
    self.pointer = pointer
    self.release = release
  }

  deinit {
    release(pointer)
  }
}
