import COpenSSL

/// The C callbacks OpenSSL calls during a handshake. They capture nothing: each finds its
/// `TLSConnection` through the SSL object's ex_data slot and hands over to it.
enum TLSCallbacks {
  /// The SSL ex_data slot holding an unretained pointer to the owning `TLSConnection`.
  static let connectionSlot: Int32 = tictactoe_SSL_get_ex_new_index()

  static func connection(of ssl: OpaquePointer?) -> TLSConnection? {
    guard let ssl, let raw = SSL_get_ex_data(ssl, connectionSlot) else { return nil }
    return Unmanaged<TLSConnection>.fromOpaque(raw).takeUnretainedValue()
  }

  /// Replaces OpenSSL's whole chain verification (SSL_CTX_set_cert_verify_callback) so that
  /// the trust policy sees the complete presented chain once and decides. Returns 1 to go on,
  /// 0 to abort the handshake with the alert matching the error set on the store context.
  static let verifyCertificate: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { store, _ in
    guard let store,
      let raw = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()),
      let connection = connection(of: OpaquePointer(raw))
    else { return 0 }
    return connection.judgePeer(store: store) ? 1 : 0
  }

  /// Server side: selects the context's protocol if the client offered it; otherwise fails
  /// the handshake with the no_application_protocol alert.
  static let selectApplicationProtocol:
    @convention(c) (
      OpaquePointer?, UnsafeMutablePointer<UnsafePointer<UInt8>?>?, UnsafeMutablePointer<UInt8>?,
      UnsafePointer<UInt8>?, UInt32, UnsafeMutableRawPointer?
    ) -> Int32 = { ssl, out, outLength, offered, offeredLength, _ in
      guard let connection = connection(of: ssl), let out, let outLength, let offered else {
        return SSL_TLSEXT_ERR_ALERT_FATAL
      }
      let list = UnsafeBufferPointer(start: offered, count: Int(offeredLength))
      var names: [String] = []
      var index = 0
      var chosen: Int?
      let wanted = Array(connection.context.alpn.utf8)
      while index < list.count {
        let length = Int(list[index])
        let start = index + 1
        guard start + length <= list.count else { break }
        let name = Array(list[start..<start + length])
        names.append(String(decoding: name, as: UTF8.self))
        if chosen == nil && name == wanted { chosen = start }
        index = start + length
      }
      connection.peerOfferedProtocols = names
      guard let chosen else { return SSL_TLSEXT_ERR_ALERT_FATAL }
      out.pointee = offered + chosen
      outLength.pointee = UInt8(wanted.count)
      return SSL_TLSEXT_ERR_OK
    }

  /// Records alerts as they are sent and received.
  static let observe: @convention(c) (OpaquePointer?, Int32, Int32) -> Void = { ssl, event, value in
    guard let connection = connection(of: ssl) else { return }
    let description = value & 0xFF
    if event & SSL_CB_READ_ALERT == SSL_CB_READ_ALERT {
      connection.receivedAlert = connection.receivedAlert ?? description
    } else if event & SSL_CB_WRITE_ALERT == SSL_CB_WRITE_ALERT {
      connection.sentAlert = connection.sentAlert ?? description
    }
  }
}
