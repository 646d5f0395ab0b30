import COpenSSL

/// An OpenSSL memory BIO owned by Swift: a byte buffer OpenSSL functions read from and write to.
final class MemoryBIO {
  let pointer: OpaquePointer

  /// An empty buffer.
  init() throws(SecurityError) {
    guard let bio = BIO_new(BIO_s_mem()) else {
      throw OpenSSLErrorQueue.error("allocate a memory buffer")
    }
    pointer = bio
  }

  /// A buffer holding `bytes`.
  convenience init(bytes: [UInt8]) throws(SecurityError) {
    try self.init()
    try write(bytes)
  }

  /// A buffer holding the UTF-8 of `text`.
  convenience init(text: String) throws(SecurityError) {
    try self.init(bytes: Array(text.utf8))
  }

  deinit {
    BIO_free(pointer)
  }

  func write(_ bytes: [UInt8]) throws(SecurityError) {
    if bytes.isEmpty { return }
    let written = bytes.withUnsafeBytes { BIO_write(pointer, $0.baseAddress, Int32($0.count)) }
    guard written == Int32(bytes.count) else {
      throw OpenSSLErrorQueue.error("fill a memory buffer")
    }
  }

  /// Removes and returns everything buffered.
  func readAll() -> [UInt8] {
    MemoryBIO.drain(pointer)
  }

  /// The buffered bytes as text.
  func readString() -> String {
    String(decoding: readAll(), as: UTF8.self)
  }

  /// Removes and returns everything buffered in any memory BIO (also one owned by an SSL).
  static func drain(_ bio: OpaquePointer) -> [UInt8] {
    var output: [UInt8] = []
    drain(bio, appendingTo: &output)
    return output
  }

  /// Removes everything buffered in `bio` and appends it to `output`, through the thread's scratch space (a
  /// connection's outbox keeps its room between sends: no array made for each one).
  static func drain(_ bio: OpaquePointer, appendingTo output: inout [UInt8]) {
    ThreadScratch.withSpace { scratch in
      while BIO_ctrl_pending(bio) > 0 {
        let count = Int(BIO_read(bio, scratch.baseAddress, Int32(scratch.count)))
        if count <= 0 { break }
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<count]))
      }
    }
  }
}
