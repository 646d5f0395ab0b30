import Glibc

/// Connections being closed gracefully: their last bytes (a goodbye, TLS's close_notify) go out as the peer
/// takes them, and each is closed when they are all out or its deadline passes, whichever comes first. Nothing
/// here waits: the owner's event loop watches each for POLLOUT from `adopted` to `closing` (told of both), calls
/// `flush` when one is writable and `expire` at `nextDeadline`. So one peer that stops reading cannot stall anyone
/// else.
public final class ClosingSockets {
  /// How long a peer has to take the last bytes.
  public static let linger = 0.5

  private struct Closing {
    var bytes: [UInt8]
    let deadline: Double
  }

  private var closing: [Int32: Closing] = [:]
  private let clock: () -> Double
  /// Told of each descriptor taken over (to watch it for writing), and of each just before it is closed (to stop
  /// watching it first: its number is free for the next socket once it is closed).
  public var adopted: (Int32) -> Void = { _ in }
  public var closingNow: (Int32) -> Void = { _ in }

  public init(clock: @escaping () -> Double) {
    self.clock = clock
  }

  deinit {
    for fd in closing.keys { close(fd) }
  }

  /// Takes over `fd` with `bytes` still to send.
  func adopt(_ fd: Int32, sending bytes: [UInt8]) {
    closing[fd] = Closing(bytes: bytes, deadline: clock() + ClosingSockets.linger)
    adopted(fd)
  }

  /// The descriptors still closing (watch each for POLLOUT).
  public var descriptors: [Int32] { Array(closing.keys) }

  public var count: Int { closing.count }

  public func contains(_ fd: Int32) -> Bool { closing[fd] != nil }

  public var nextDeadline: Double? { closing.values.map(\.deadline).min() }

  /// Sends what `fd` takes now; true when it is done and closed (stop watching it).
  @discardableResult
  public func flush(_ fd: Int32) -> Bool {
    guard var entry = closing[fd] else { return true }
    while !entry.bytes.isEmpty {
      let written = entry.bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
      if written > 0 {
        entry.bytes.removeFirst(written)
      } else if written < 0 && errno == EINTR {
        continue
      } else if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
        closing[fd] = entry
        return false
      } else {
        break  // the peer is gone: nothing more will go out
      }
    }
    finish(fd, sentEverything: entry.bytes.isEmpty)
    return true
  }

  /// Closes every connection whose deadline passed; returns their descriptors (stop watching them).
  @discardableResult
  public func expire() -> [Int32] {
    let now = clock()
    let due = closing.filter { $0.value.deadline <= now }.map(\.key)
    for fd in due { finish(fd, sentEverything: false) }
    return due
  }

  private func finish(_ fd: Int32, sentEverything: Bool) {
    closing[fd] = nil
    closingNow(fd)
    if sentEverything { shutdown(fd, Int32(SHUT_WR)) }
    close(fd)
  }
}
