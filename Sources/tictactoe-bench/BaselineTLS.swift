import COpenSSL

/// The baseline: a TLS endpoint written straight against OpenSSL's C API, with the settings the project
/// uses (TLS 1.3 only, groups X25519:P-256:P-384, no tickets, the same ALPN protocol, a client certificate
/// required, the peer accepted by comparing the SHA-256 of its SubjectPublicKeyInfo with a pin).
final class BaselineContext {
  let pointer: OpaquePointer
  private let pin: Pin

  /// The pinned hash, reachable from the capture-less verify callback through its argument.
  final class Pin {
    let bytes: [UInt8]
    init(_ bytes: [UInt8]) { self.bytes = bytes }
  }

  static let alpnWire: [UInt8] = [UInt8("tictactoe/1".utf8.count)] + Array("tictactoe/1".utf8)

  init(server: Bool, certificatePEM: String, privateKeyPEM: String, pinnedSPKISHA256: [UInt8]) throws {
    guard let context = SSL_CTX_new(TLS_method()) else { throw BenchError("SSL_CTX_new failed") }
    pointer = context
    pin = Pin(pinnedSPKISHA256)
    guard tictactoe_SSL_CTX_set_proto_versions(context, TLS1_3_VERSION, TLS1_3_VERSION) == 1,
      tictactoe_SSL_CTX_set1_groups_list(context, "X25519:P-256:P-384") == 1,
      SSL_CTX_set_num_tickets(context, 0) == 1
    else { throw BenchError("cannot configure the baseline TLS context") }
    tictactoe_SSL_CTX_harden(context)

    let certificate = try Self.read(certificatePEM) { PEM_read_bio_X509($0, nil, nil, nil) }
    defer { X509_free(certificate) }
    let key = try Self.read(privateKeyPEM) { PEM_read_bio_PrivateKey($0, nil, nil, nil) }
    defer { EVP_PKEY_free(key) }
    guard SSL_CTX_use_certificate(context, certificate) == 1, SSL_CTX_use_PrivateKey(context, key) == 1 else {
      throw BenchError("cannot load the baseline identity")
    }

    SSL_CTX_set_verify(context, server ? SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT : SSL_VERIFY_PEER, nil)
    SSL_CTX_set_cert_verify_callback(context, verifyPinned, Unmanaged.passUnretained(pin).toOpaque())
    if server {
      SSL_CTX_set_alpn_select_cb(context, selectALPN, nil)
    } else {
      guard SSL_CTX_set_alpn_protos(context, Self.alpnWire, UInt32(Self.alpnWire.count)) == 0 else {
        throw BenchError("cannot offer ALPN")
      }
    }
  }

  deinit { SSL_CTX_free(pointer) }

  private static func read(_ pem: String, _ parse: (OpaquePointer) -> OpaquePointer?) throws -> OpaquePointer {
    let bytes = Array(pem.utf8)
    let parsed: OpaquePointer? = bytes.withUnsafeBytes { buffer in
      guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
      defer { BIO_free(bio) }
      return parse(bio)
    }
    guard let parsed else { throw BenchError("cannot parse a PEM block for the baseline") }
    return parsed
  }
}

/// Accepts the peer when the SHA-256 of its DER SubjectPublicKeyInfo equals the pin.
private let verifyPinned: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { store, argument in
  guard let store, let argument, let certificate = X509_STORE_CTX_get0_cert(store),
    let key = X509_get0_pubkey(certificate)
  else { return 0 }
  let pin = Unmanaged<BaselineContext.Pin>.fromOpaque(argument).takeUnretainedValue()
  let length = i2d_PUBKEY(key, nil)
  guard length > 0 else { return 0 }
  var der = [UInt8](repeating: 0, count: Int(length))
  der.withUnsafeMutableBufferPointer { buffer in
    var cursor = buffer.baseAddress
    _ = i2d_PUBKEY(key, &cursor)
  }
  var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
  var size: UInt32 = 0
  guard EVP_Digest(der, der.count, &digest, &size, EVP_sha256(), nil) == 1,
    digest.prefix(Int(size)).elementsEqual(pin.bytes)
  else {
    X509_STORE_CTX_set_error(store, X509_V_ERR_CERT_REJECTED)
    return 0
  }
  X509_STORE_CTX_set_error(store, X509_V_OK)
  return 1
}

/// Server side: selects "tictactoe/1" when the client offers it.
private let selectALPN:
  @convention(c) (
    OpaquePointer?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, UnsafeMutablePointer<UInt8>?,
    UnsafePointer<UInt8>?, UInt32, UnsafeMutableRawPointer?
  ) -> Int32 = { _, out, outLength, offered, offeredLength, _ in
    guard let out, let outLength, let offered else { return SSL_TLSEXT_ERR_ALERT_FATAL }
    let wanted = BaselineContext.alpnWire
    var index = 0
    while index < Int(offeredLength) {
      let length = Int(offered[index])
      if length == wanted.count - 1, index + 1 + length <= Int(offeredLength),
        (0..<length).allSatisfy({ offered[index + 1 + $0] == wanted[1 + $0] })
      {
        out.pointee = offered + index + 1
        outLength.pointee = UInt8(length)
        return SSL_TLSEXT_ERR_OK
      }
      index += 1 + length
    }
    return SSL_TLSEXT_ERR_ALERT_FATAL
  }

/// One baseline connection over two memory BIOs.
final class BaselineConnection {
  let ssl: OpaquePointer
  let incoming: OpaquePointer
  let outgoing: OpaquePointer

  init(context: BaselineContext, server: Bool) throws {
    guard let ssl = SSL_new(context.pointer), let incoming = BIO_new(BIO_s_mem()),
      let outgoing = BIO_new(BIO_s_mem())
    else { throw BenchError("cannot create a baseline connection") }
    SSL_set_bio(ssl, incoming, outgoing)
    self.ssl = ssl
    self.incoming = incoming
    self.outgoing = outgoing
    if server { SSL_set_accept_state(ssl) } else { SSL_set_connect_state(ssl) }
  }

  deinit { SSL_free(ssl) }

  /// True once complete; false when it needs the peer's bytes.
  func handshake() throws -> Bool {
    let result = SSL_do_handshake(ssl)
    if result == 1 { return true }
    let code = SSL_get_error(ssl, result)
    guard code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE else {
      ERR_clear_error()
      throw BenchError("the baseline handshake failed (SSL_get_error \(code))")
    }
    return false
  }
}

/// A baseline client and server, with a scratch buffer to move bytes between them.
final class BaselineTLSPair {
  let client: BaselineConnection
  let server: BaselineConnection
  private var scratch = [UInt8](repeating: 0, count: 16_384)

  init(client: BaselineContext, server: BaselineContext) throws {
    self.client = try BaselineConnection(context: client, server: false)
    self.server = try BaselineConnection(context: server, server: true)
  }

  /// Moves everything `from` wrote into `to`'s input.
  func pump(from: BaselineConnection, to: BaselineConnection) {
    scratch.withUnsafeMutableBytes { buffer in
      while BIO_ctrl_pending(from.outgoing) > 0 {
        let count = BIO_read(from.outgoing, buffer.baseAddress, Int32(buffer.count))
        if count <= 0 { break }
        _ = BIO_write(to.incoming, buffer.baseAddress, count)
      }
    }
  }

  func handshake() throws {
    var clientDone = false
    var serverDone = false
    var flights = 0
    while !(clientDone && serverDone) {
      if !clientDone { clientDone = try client.handshake() }
      pump(from: client, to: server)
      if !serverDone { serverDone = try server.handshake() }
      pump(from: server, to: client)
      flights += 1
      guard flights < 20 else { throw BenchError("the baseline handshake did not finish in 20 flights") }
    }
  }

  /// Sends `payload` from `sender` and reads it on `receiver` into `buffer`.
  func send(
    _ payload: UnsafeRawBufferPointer, from sender: BaselineConnection, to receiver: BaselineConnection,
    into buffer: UnsafeMutableRawBufferPointer
  ) throws {
    guard SSL_write(sender.ssl, payload.baseAddress, Int32(payload.count)) == Int32(payload.count) else {
      throw BenchError("baseline SSL_write failed")
    }
    pump(from: sender, to: receiver)
    guard let base = buffer.baseAddress else { return }
    var received = 0
    while received < payload.count {
      let count = SSL_read(receiver.ssl, base + received, Int32(buffer.count - received))
      guard count > 0 else { throw BenchError("baseline SSL_read failed") }
      received += Int(count)
    }
  }
}
