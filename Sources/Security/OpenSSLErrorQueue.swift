import COpenSSL

/// OpenSSL's per-thread error queue, drained into readable lines and reason codes.
enum OpenSSLErrorQueue {
  /// One entry of the queue: the packed code and OpenSSL's text for it.
  struct Entry: Sendable, Equatable {
    let code: UInt
    let text: String

    /// The reason part of the code (for example `SSL_R_UNSUPPORTED_PROTOCOL`).
    var reason: Int32 { ERR_GET_REASON(code) }
    /// The library part of the code (for example `ERR_LIB_SSL`).
    var library: Int32 { ERR_GET_LIB(code) }
  }

  /// Empties the queue so the next call's errors are its own.
  static func clear() {
    ERR_clear_error()
  }

  /// Removes and returns every queued entry, oldest first.
  static func drainEntries() -> [Entry] {
    var entries: [Entry] = []
    while true {
      let code = ERR_get_error()
      if code == 0 { break }
      var buffer = [CChar](repeating: 0, count: 256)
      ERR_error_string_n(code, &buffer, buffer.count)
      let text = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      entries.append(Entry(code: code, text: String(decoding: text, as: UTF8.self)))
    }
    return entries
  }

  /// Removes and returns every queued entry as text.
  static func drain() -> [String] {
    drainEntries().map(\.text)
  }

  /// A `SecurityError` for a failed operation, carrying the drained queue.
  static func error(_ operation: String) -> SecurityError {
    .openSSL(operation: operation, reasons: drain())
  }
}
