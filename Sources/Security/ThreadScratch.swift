import Glibc

/// A thread's own scratch space for reads (a socket's bytes, a TLS record's plaintext): 16 KiB, made once per
/// thread and kept until the thread ends, never cleared (whoever reads into it says how much it filled).
///
/// Why not `withUnsafeTemporaryAllocation`: on Linux it puts only up to 1,024 bytes on the stack and takes
/// anything larger from `malloc`, so a 16 KiB buffer there cost a `malloc` and a `free` of a chunk too large
/// for glibc's thread cache on every read (measured in the bot's benchmark, BENCHMARKS.md 2026-12-05).
public enum ThreadScratch {
  /// The space `withSpace` lends.
  public static let byteCount = 16_384

  /// The thread's slot: its buffer, made at its first use; the buffer's first byte says whether it is lent now,
  /// and the space lent starts `header` bytes after it.
  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { buffer in free(buffer) }
    precondition(status == 0, "pthread_key_create failed: \(status)")
    return key
  }()
  private static let header = 16

  /// Lends `body` the thread's scratch space. A use inside another (which nothing here does) gets space of its
  /// own, freed after it, so two users never share the bytes.
  public static func withSpace<Result, Failure: Error>(
    _ body: (UnsafeMutableRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    let key = ThreadScratch.key
    let kept: UnsafeMutableRawPointer
    if let existing = pthread_getspecific(key) {
      kept = existing
    } else {
      kept = allocate(header + byteCount)
      kept.storeBytes(of: 0, as: UInt8.self)
      let status = pthread_setspecific(key, kept)
      precondition(status == 0, "pthread_setspecific failed: \(status)")
    }
    guard kept.load(as: UInt8.self) == 0 else {
      let own = allocate(byteCount)
      defer { free(own) }
      return try body(UnsafeMutableRawBufferPointer(start: own, count: byteCount))
    }
    kept.storeBytes(of: 1, as: UInt8.self)
    defer { kept.storeBytes(of: 0, as: UInt8.self) }
    return try body(UnsafeMutableRawBufferPointer(start: kept + header, count: byteCount))
  }

  private static func allocate(_ count: Int) -> UnsafeMutableRawPointer {
    guard let pointer = malloc(count) else { fatalError("out of memory for \(count) bytes") }
    return pointer
  }
}
