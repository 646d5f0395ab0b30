import COpenSSL
import PeerTrust

/// Settings shared by the TLS connections of one side: our identity, the trust policy,
/// TLS 1.3 only, the tictactoe ALPN protocol, and mutual certificate authentication.
///
/// The trust options are fixed at creation: after the known-peers file changes (a peer was
/// accepted or forgotten), create a new context for the next connections.
///
/// Sendable because it is immutable after init: every property is a `let`, and OpenSSL allows
/// creating connections (SSL_new) from a configured SSL_CTX on several threads at once.
public final class TLSContext: @unchecked Sendable {
  let pointer: OpaquePointer
  public let role: TLSRole
  /// Our identity; nil only in tests that need a client without a certificate.
  public let identity: Identity?
  public let options: TrustOptions
  /// The application protocol offered (client) or required (server).
  public let alpn: String
  let evaluator: TrustEvaluator

  /// A context for `role`, presenting `identity`, judging the peer by `options`.
  /// Fails if OpenSSL refuses a setting or the trust options cannot be loaded.
  public convenience init(
    role: TLSRole, identity: Identity, options: TrustOptions, alpn: String = "tictactoe/1"
  ) throws(SecurityError) {
    try self.init(
      role: role, identity: Optional(identity), options: options, alpn: alpn, maximumVersion: TLS1_3_VERSION)
  }

  /// The full initializer. `identity` nil and `maximumVersion` below TLS 1.3 exist only so
  /// tests can play a misbehaving peer.
  init(
    role: TLSRole, identity: Identity?, options: TrustOptions, alpn: String, maximumVersion: Int32
  ) throws(SecurityError) {
    guard !alpn.isEmpty, alpn.utf8.count <= 255 else {
      throw SecurityError.invalidArgument("An application protocol name must have 1 to 255 bytes.")
    }
    guard let context = SSL_CTX_new(TLS_method()) else {
      throw OpenSSLErrorQueue.error("create a TLS context")
    }
    pointer = context
    self.role = role
    self.identity = identity
    self.options = options
    self.alpn = alpn
    evaluator = try TrustEvaluator(options: options)

    let minimumVersion = min(TLS1_3_VERSION, maximumVersion)
    guard tictactoe_SSL_CTX_set_proto_versions(context, minimumVersion, maximumVersion) == 1 else {
      throw OpenSSLErrorQueue.error("restrict the context to TLS 1.3")
    }
    guard tictactoe_SSL_CTX_set1_groups_list(context, "X25519:P-256:P-384") == 1 else {
      throw OpenSSLErrorQueue.error("choose the key exchange groups")
    }
    tictactoe_SSL_CTX_harden(context)
    guard SSL_CTX_set_num_tickets(context, 0) == 1 else {
      throw OpenSSLErrorQueue.error("turn off session tickets")
    }

    if let identity {
      guard SSL_CTX_use_certificate(context, identity.certificate.pointer) == 1,
        SSL_CTX_use_PrivateKey(context, identity.key.pointer) == 1,
        SSL_CTX_check_private_key(context) == 1
      else { throw OpenSSLErrorQueue.error("load our identity into the TLS context") }
      for extra in identity.chain where tictactoe_SSL_CTX_add1_chain_cert(context, extra.pointer) != 1 {
        throw OpenSSLErrorQueue.error("add a chain certificate to the TLS context")
      }
    }

    let mode = role == .server ? SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT : SSL_VERIFY_PEER
    SSL_CTX_set_verify(context, mode, nil)
    SSL_CTX_set_cert_verify_callback(context, TLSCallbacks.verifyCertificate, nil)

    switch role {
    case .client:
      let wire = [UInt8(alpn.utf8.count)] + Array(alpn.utf8)
      guard SSL_CTX_set_alpn_protos(context, wire, UInt32(wire.count)) == 0 else {
        throw OpenSSLErrorQueue.error("offer the tictactoe application protocol")
      }
    case .server:
      SSL_CTX_set_alpn_select_cb(context, TLSCallbacks.selectApplicationProtocol, nil)
    }
  }

  deinit {
    SSL_CTX_free(pointer)
  }
}
