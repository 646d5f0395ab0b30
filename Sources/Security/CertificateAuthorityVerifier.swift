import COpenSSL
import Glibc
import PeerTrust
import Synchronization

/// Verifies certificate chains against chosen certificate authorities (or the system's) with
/// OpenSSL's X509_verify_cert, and turns its verdict into a `TrustFailure`.
///
/// Sendable because the `X509_STORE` is filled in init and only read afterwards (OpenSSL locks
/// its store internally during lookups).
final class CertificateAuthorityVerifier: ChainVerifier, @unchecked Sendable {
  private let store: OpaquePointer

  /// `anchorsPEM`: one or more CA certificates; nil uses the system's default store.
  init(anchorsPEM: String?) throws(SecurityError) {
    guard let store = X509_STORE_new() else { throw OpenSSLErrorQueue.error("create a certificate store") }
    self.store = store
    if let anchorsPEM {
      let anchors: [X509Certificate]
      do {
        anchors = try X509Certificate.parseAll(pem: anchorsPEM, what: "certificate authority list")
      } catch {
        throw SecurityError.invalidTrustAnchors(reason: error.description)
      }
      for anchor in anchors where X509_STORE_add_cert(store, anchor.pointer) != 1 {
        throw SecurityError.invalidTrustAnchors(reason: OpenSSLErrorQueue.drain().joined(separator: "; "))
      }
    } else if X509_STORE_set_default_paths(store) != 1 {
      throw SecurityError.invalidTrustAnchors(
        reason:
          "the system certificate store could not be loaded (\(OpenSSLErrorQueue.drain().joined(separator: "; ")))")
    }
  }

  deinit {
    X509_STORE_free(store)
  }

  /// The verifier for `anchorsPEM` (nil: the system's store), made once per process and shared: loading the
  /// system store costs tens of milliseconds of CPU, too much for every connection (a TLS context, and so a
  /// verifier, is made per connection so that it sees the known peers as they are on disk).
  static func shared(anchorsPEM: String?) throws(SecurityError) -> CertificateAuthorityVerifier {
    let found = loaded.withLock { $0[anchorsPEM ?? ""] }
    if let found { return found }
    let made = try CertificateAuthorityVerifier(anchorsPEM: anchorsPEM)
    return loaded.withLock { cache in
      if let raced = cache[anchorsPEM ?? ""] { return raced }
      if cache.count >= 8 { cache.removeAll() }  // a few anchor sets per process at most; bound it anyway
      cache[anchorsPEM ?? ""] = made
      return made
    }
  }

  private static let loaded = Mutex<[String: CertificateAuthorityVerifier]>([:])

  /// Whether `name` is an IP address (IPv4, or IPv6 with or without brackets and a zone), to be matched against
  /// the certificate's IP subjectAltNames only; the address without brackets and zone, or nil for a DNS name.
  static func ipAddress(_ name: String) -> String? {
    var text = name
    if text.hasPrefix("["), text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
    if let percent = text.firstIndex(of: "%") { text = String(text[..<percent]) }
    var v4 = in_addr()
    var v6 = in6_addr()
    if inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1 { return text }
    return nil
  }

  /// The issuing authority's common name, or why the chain is refused. `expectedName` nil
  /// skips the name check; `now` is the verification time unless `allowExpired`. `peerRole` is the side the
  /// certificate's owner plays: a host's must be valid for TLS server authentication, a joiner's for client
  /// authentication (OpenSSL's ssl_server and ssl_client purposes: extended key usage and key usage when
  /// present). A certificate authority's own certificate (CA:TRUE) is never a player's.
  ///
  /// Names: an IP address is matched against the IP subjectAltNames only, a host name against the DNS ones
  /// (a wildcard never matches an address), and the common name counts only when there is no subjectAltName.
  func verify(chainDER: [[UInt8]], expectedName: String?, peerRole: TLSRole, allowExpired: Bool, now: Int64)
    -> Result<String, TrustFailure>
  {
    let leaf: X509Certificate
    let extras: [X509Certificate]
    switch Self.certificates(chainDER) {
    case .success(let parsed): (leaf, extras) = parsed
    case .failure(let failure): return .failure(failure)
    }
    guard let rawStack = tictactoe_sk_X509_new_null(), let rawContext = X509_STORE_CTX_new() else {
      return .failure(.untrustedChain(reason: "out of memory"))
    }
    let untrusted = OpenSSLObject(rawStack) { tictactoe_sk_X509_pop_free($0) }
    let context = OpenSSLObject(rawContext) { X509_STORE_CTX_free($0) }
    for extra in extras where tictactoe_sk_X509_push_up_ref(untrusted.pointer, extra.pointer) != 1 {
      return .failure(.untrustedChain(reason: "out of memory"))
    }
    OpenSSLErrorQueue.clear()
    guard X509_STORE_CTX_init(context.pointer, store, leaf.pointer, untrusted.pointer) == 1,
      let parameters = X509_STORE_CTX_get0_param(context.pointer)
    else {
      return .failure(.untrustedChain(reason: OpenSSLErrorQueue.drain().joined(separator: "; ")))
    }
    if allowExpired {
      X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_NO_CHECK_TIME))
    } else {
      X509_VERIFY_PARAM_set_time(parameters, time_t(now))
    }
    let purpose = peerRole == .server ? X509_PURPOSE_SSL_SERVER : X509_PURPOSE_SSL_CLIENT
    guard X509_STORE_CTX_set_purpose(context.pointer, purpose) == 1 else {
      return .failure(.untrustedChain(reason: OpenSSLErrorQueue.drain().joined(separator: "; ")))
    }
    if let expectedName, !Self.expect(expectedName, of: leaf, in: parameters) {
      return .failure(.nameMismatch(expected: expectedName, presented: leaf.subjectAltNames))
    }
    let verified = X509_verify_cert(context.pointer) == 1
    OpenSSLErrorQueue.clear()
    if verified { return .success(Self.anchorName(context.pointer, leaf: leaf)) }
    let code = X509_STORE_CTX_get_error(context.pointer)
    let failing = X509_STORE_CTX_get_current_cert(context.pointer).flatMap { X509Certificate(retaining: $0) } ?? leaf
    return .failure(
      CertificateAuthorityVerifier.failure(
        code: code, certificate: failing, leaf: leaf, expectedName: expectedName, peerRole: peerRole))
  }

  /// The chain's certificates read from DER: the leaf, which must be a player's and not an authority's, and the
  /// others as OpenSSL's untrusted intermediates.
  private static func certificates(
    _ chainDER: [[UInt8]]
  ) -> Result<(X509Certificate, [X509Certificate]), TrustFailure> {
    guard let leafDER = chainDER.first else { return .failure(.noCertificate) }
    let leaf: X509Certificate
    var extras: [X509Certificate] = []
    do {
      leaf = try X509Certificate(der: leafDER)
      for der in chainDER.dropFirst() { extras.append(try X509Certificate(der: der)) }
    } catch {
      return .failure(.untrustedChain(reason: "a certificate in the chain is damaged"))
    }
    if leaf.isAuthority {
      return .failure(
        .untrustedChain(reason: "it is a certificate authority's certificate (CA:TRUE), not a player's"))
    }
    return .success((leaf, extras))
  }

  /// Tells the verification to match `expectedName` (an IP address against the IP subjectAltNames, a host name
  /// against the DNS ones, the common name only when `leaf` has no subjectAltName); false when OpenSSL refuses
  /// the name.
  private static func expect(_ expectedName: String, of leaf: X509Certificate, in parameters: OpaquePointer) -> Bool {
    if let address = ipAddress(expectedName) {
      return X509_VERIFY_PARAM_set1_ip_asc(parameters, address) == 1
    }
    if leaf.hasSubjectAltName {
      X509_VERIFY_PARAM_set_hostflags(parameters, UInt32(X509_CHECK_FLAG_NEVER_CHECK_SUBJECT))
    }
    return X509_VERIFY_PARAM_set1_host(parameters, expectedName, 0) == 1
  }

  /// The common name of the authority at the top of the verified chain (the leaf's issuer when the chain cannot
  /// be read).
  private static func anchorName(_ context: OpaquePointer, leaf: X509Certificate) -> String {
    let chain = X509_STORE_CTX_get0_chain(context)
    let count = chain.map { tictactoe_sk_X509_num($0) } ?? 0
    if let chain, count > 0, let top = tictactoe_sk_X509_value(chain, count - 1),
      let anchor = X509Certificate(retaining: top)
    {
      return anchor.commonName
    }
    return leaf.issuerCommonName
  }

  /// The player-level failure for an OpenSSL verification error code.
  static func failure(
    code: Int32, certificate: X509Certificate, leaf: X509Certificate, expectedName: String?, peerRole: TLSRole
  ) -> TrustFailure {
    let detail = X509_verify_cert_error_string(Int(code)).map { String(cString: $0) } ?? "error \(code)"
    switch code {
    case X509_V_ERR_CERT_HAS_EXPIRED:
      return .expired(notAfter: certificate.notAfter)
    case X509_V_ERR_CERT_NOT_YET_VALID:
      return .notYetValid(notBefore: certificate.notBefore)
    case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH:
      let names = leaf.hasSubjectAltName ? leaf.subjectAltNames : [leaf.commonName]
      return .nameMismatch(expected: expectedName ?? "", presented: names)
    case X509_V_ERR_INVALID_PURPOSE:
      return .untrustedChain(
        reason:
          "the certificate is not valid for a \(peerRole == .server ? "host (TLS server)" : "joiner (TLS client)")"
          + " (its extended key usage or key usage)")
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN,
      X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
      X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE, X509_V_ERR_CERT_UNTRUSTED:
      return .unknownAuthority(detail: detail)
    default:
      return .untrustedChain(reason: detail)
    }
  }
}
