import COpenSSL
import NetworkFacts
import PeerTrust

/// One TLS 1.3 connection driven through memory buffers: no sockets inside.
///
/// The caller moves bytes: `feed(ciphertext:)` what the socket delivered, then call
/// `handshake()` until it returns true, then `readPlaintext()` / `writePlaintext(_:)`; after
/// EVERY call, send what `takeCiphertext()` returns. Not thread-safe: use it from one thread
/// (the event loop).
public final class TLSConnection {
  let ssl: OpaquePointer
  /// Owned by `ssl` (SSL_set_bio hands them over; SSL_free frees them).
  private let incoming: OpaquePointer
  private let outgoing: OpaquePointer
  let context: TLSContext
  /// The name we expect the peer to have (client: the server's name; server: nil = the name
  /// in the client's certificate).
  public let peerName: String?

  /// What the peer presented, once its certificate was seen.
  public internal(set) var peerCertificate: PeerCertificate?
  /// The trust verdict, once the peer's certificate was judged. After a successful handshake
  /// it is `.trusted` or `.askUser` (ask the player before playing).
  public internal(set) var trustDecision: TrustDecision?

  // Filled in by the callbacks.
  var trustFailure: TrustFailure?
  var peerOfferedProtocols: [String]?
  var receivedAlert: Int32?
  var sentAlert: Int32?

  private var probe: TLSHelloProbe
  private var probing = true
  private var inputRefused = false
  private var handshakeDone = false
  /// A failure to report on the next call (sticky: the connection is unusable afterwards).
  private var failure: TLSError?
  /// A failure that happened after some plaintext was read; reported on the next read.
  private var deferredReadFailure: TLSError?
  private var sentCloseNotify = false

  /// A connection for `context`. `serverName` (client only) is sent as SNI when it is a host
  /// name and is the name the server is judged as; `peerName` overrides the judged name on
  /// either side.
  public init(context: TLSContext, serverName: String?, peerName: String? = nil) throws(TLSError) {
    guard let ssl = SSL_new(context.pointer) else {
      throw TLSError.internalError(
        "cannot create a TLS connection: " + OpenSSLErrorQueue.drain().joined(separator: "; "))
    }
    guard let incoming = BIO_new(BIO_s_mem()) else {
      SSL_free(ssl)
      throw TLSError.internalError("cannot allocate a TLS input buffer")
    }
    guard let outgoing = BIO_new(BIO_s_mem()) else {
      BIO_free(incoming)
      SSL_free(ssl)
      throw TLSError.internalError("cannot allocate a TLS output buffer")
    }
    SSL_set_bio(ssl, incoming, outgoing)
    self.ssl = ssl
    self.incoming = incoming
    self.outgoing = outgoing
    self.context = context
    self.peerName = peerName ?? (context.role == .client ? serverName : nil)
    self.probe = TLSHelloProbe(role: context.role)

    SSL_set_ex_data(ssl, TLSCallbacks.connectionSlot, Unmanaged.passUnretained(self).toOpaque())
    SSL_set_info_callback(ssl, TLSCallbacks.observe)
    switch context.role {
    case .client:
      SSL_set_connect_state(ssl)
      if let serverName, HostName.isValid(serverName) {
        _ = tictactoe_SSL_set_tlsext_host_name(ssl, serverName)
      }
    case .server:
      SSL_set_accept_state(ssl)
    }
  }

  deinit {
    SSL_free(ssl)
  }

  // MARK: moving bytes

  /// Hands over bytes received from the socket. The very first bytes are checked to be TLS
  /// before OpenSSL sees them; if they are not, the next call throws `TLSError.notTLS`.
  public func feed(ciphertext: [UInt8]) {
    if inputRefused || ciphertext.isEmpty { return }
    if probing {
      probe.observe(ciphertext)
      if !probe.looksLikeTLS {
        inputRefused = true
        failure = failure ?? .notTLS
        return
      }
    }
    let written = ciphertext.withUnsafeBytes { BIO_write(incoming, $0.baseAddress, Int32($0.count)) }
    if written != Int32(ciphertext.count) {
      failure = failure ?? .internalError("cannot buffer received data")
    }
  }

  /// Tells the connection that the socket reached end of file: a read that then finds no
  /// close_notify reports `TLSError.unexpectedEOF`.
  /// `feed(ciphertext:)` for bytes read into a scratch buffer: once the handshake's probe is over they go to
  /// OpenSSL from there, without an array made and freed for each read.
  public func feed(ciphertext buffer: UnsafeRawBufferPointer) {
    if inputRefused || buffer.isEmpty { return }
    if probing { return feed(ciphertext: Array(buffer)) }
    let written = BIO_write(incoming, buffer.baseAddress, Int32(buffer.count))
    if written != Int32(buffer.count) {
      failure = failure ?? .internalError("cannot buffer received data")
    }
  }

  public func feedEndOfStream() {
    _ = tictactoe_BIO_set_mem_eof_return(incoming, 0)
  }

  /// Bytes to send to the socket now (empty if none). Call after every other call.
  public func takeCiphertext() -> [UInt8] {
    MemoryBIO.drain(outgoing)
  }

  /// `takeCiphertext()` appended to `output` (a connection's outbox).
  public func takeCiphertext(appendingTo output: inout [UInt8]) {
    MemoryBIO.drain(outgoing, appendingTo: &output)
  }

  // MARK: handshake and data

  /// Advances the handshake: true once complete, false when it needs more input.
  /// Throws the precise cause when it fails.
  public func handshake() throws(TLSError) -> Bool {
    if let failure { throw failure }
    if handshakeDone { return true }
    OpenSSLErrorQueue.clear()
    let result = SSL_do_handshake(ssl)
    if result == 1 {
      probing = false
      try finishHandshake()
      handshakeDone = true
      return true
    }
    let code = SSL_get_error(ssl, result)
    if code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE { return false }
    let error = classify(code: code)
    failure = error
    throw error
  }

  /// Checks made once OpenSSL reports the handshake done.
  private func finishHandshake() throws(TLSError) {
    // OpenSSL consults the server's ALPN callback only when the client offers ALPN at all: a client that
    // offers none is refused here (on both sides the protocol must be exactly ours).
    if negotiatedProtocol != context.alpn {
      let error = TLSError.noCommonApplicationProtocol(offered: context.role == .client ? [context.alpn] : [])
      failure = error
      shutdown()
      throw error
    }
    guard let decision = trustDecision else {
      let error = TLSError.untrusted(.noCertificate)
      trustDecision = .rejected(.noCertificate)
      failure = error
      shutdown()
      throw error
    }
    if case .rejected(let rejection) = decision {
      let error = TLSError.untrusted(rejection)
      failure = error
      throw error
    }
  }

  /// Encrypts `bytes` for the peer (then send `takeCiphertext()`). Still allowed after the peer's close_notify:
  /// TLS 1.3 closes each direction on its own, so a last word (the error that says why a peer that sent half a
  /// frame and closed broke the protocol) can still reach it.
  public func writePlaintext(_ bytes: [UInt8]) throws(TLSError) {
    if let failure, failure != .closedByPeer { throw failure }
    guard handshakeDone else { throw TLSError.internalError("data written before the handshake finished") }
    if bytes.isEmpty { return }
    OpenSSLErrorQueue.clear()
    var written = 0
    let result = bytes.withUnsafeBytes { SSL_write_ex(ssl, $0.baseAddress, $0.count, &written) }
    if result != 1 {
      let error = classify(code: SSL_get_error(ssl, result))
      failure = error
      throw error
    }
  }

  /// All plaintext that can be decrypted from the bytes fed so far (empty if none yet).
  /// Reads until OpenSSL holds nothing more, so no decrypted byte is left waiting.
  /// Throws `closedByPeer` after a close_notify, and any refusal the peer sent late
  /// (with TLS 1.3, a client learns here that the server refused its certificate).
  public func readPlaintext() throws(TLSError) -> [UInt8] {
    var plaintext: [UInt8] = []
    try readPlaintext { plaintext += $0 }
    return plaintext
  }

  /// `readPlaintext()` handing each piece to `take` as it is decrypted, from the thread's scratch space (no
  /// array made for them); the pieces' bytes in all. `take` runs while that space is lent: what it reads or
  /// drains through `ThreadScratch` itself gets space of its own, made and freed for the call.
  @discardableResult
  public func readPlaintext(_ take: (UnsafeRawBufferPointer) -> Void) throws(TLSError) -> Int {
    if let deferredReadFailure {
      failure = deferredReadFailure
      self.deferredReadFailure = nil
    }
    if let failure { throw failure }
    guard handshakeDone else {
      guard try handshake() else { return 0 }
      return try readPlaintext(take)
    }
    // One record's worth of the thread's scratch space (not cleared: SSL_read_ex says how much it filled).
    return try ThreadScratch.withSpace { (chunk) throws(TLSError) in
      var total = 0
      OpenSSLErrorQueue.clear()
      while true {
        var count = 0
        let result = SSL_read_ex(ssl, chunk.baseAddress, chunk.count, &count)
        if result == 1 {
          take(UnsafeRawBufferPointer(rebasing: chunk[0..<count]))
          total += count
          // Nothing buffered in OpenSSL and no more ciphertext fed: another read could only say "want read".
          if SSL_has_pending(ssl) == 0 && BIO_ctrl_pending(incoming) == 0 { break }
          continue
        }
        let code = SSL_get_error(ssl, result)
        if code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE { break }
        let error = classify(code: code)
        if total == 0 {
          failure = error
          throw error
        }
        deferredReadFailure = error
        break
      }
      return total
    }
  }

  /// Sends close_notify (then send `takeCiphertext()` and close the socket).
  public func shutdown() {
    if sentCloseNotify { return }
    sentCloseNotify = true
    OpenSSLErrorQueue.clear()
    _ = SSL_shutdown(ssl)
    OpenSSLErrorQueue.clear()
  }

  // MARK: state

  /// Whether the connection can no longer carry data (closed by either side or failed).
  public var isClosed: Bool {
    sentCloseNotify || failure != nil || deferredReadFailure != nil
  }

  /// Whether the handshake has completed.
  public var isHandshakeComplete: Bool {
    handshakeDone
  }

  /// The application protocol agreed by ALPN, if any.
  public var negotiatedProtocol: String? {
    var data: UnsafePointer<UInt8>?
    var length: UInt32 = 0
    SSL_get0_alpn_selected(ssl, &data, &length)
    guard let data, length > 0 else { return nil }
    return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
  }

  /// The TLS version in use, e.g. "TLSv1.3".
  public var protocolVersion: String {
    guard let name = SSL_get_version(ssl) else { return "" }
    return String(cString: name)
  }

  /// The cipher suite in use, e.g. "TLS_AES_256_GCM_SHA384" (empty before the handshake).
  public var cipher: String {
    guard let cipher = SSL_get_current_cipher(ssl), let name = SSL_CIPHER_get_name(cipher) else { return "" }
    return String(cString: name)
  }

  /// `count` bytes of keying material exported for `label` (RFC 8446 §7.5), the same on both ends of this
  /// TLS session and on no other; nil before the handshake has finished.
  public func exportedKeyingMaterial(label: String, count: Int) -> [UInt8]? {
    guard handshakeDone, count > 0 else { return nil }
    var out = [UInt8](repeating: 0, count: count)
    let labelBytes = Array(label.utf8)
    let status = labelBytes.withUnsafeBufferPointer { labelBuffer in
      labelBuffer.withMemoryRebound(to: CChar.self) { label in
        SSL_export_keying_material(ssl, &out, count, label.baseAddress, label.count, nil, 0, 0)
      }
    }
    return status == 1 ? out : nil
  }

  /// The words both players compare aloud (see `VerificationCode`); nil before the handshake has finished.
  public var verificationCode: VerificationCode? {
    exportedKeyingMaterial(label: VerificationCode.exporterLabel, count: 8).flatMap(VerificationCode.init(material:))
  }

  /// The highest TLS version in the peer's first hello, for explaining version mismatches.
  var peerHelloVersion: UInt16? {
    probe.helloVersion
  }
}
