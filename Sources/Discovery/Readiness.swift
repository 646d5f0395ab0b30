import Glibc

/// Waits with poll() for DNS-SD descriptors to become readable: for scripts, tests and `tictactoe list`.
/// The game's own event loop polls the descriptors itself.
public enum Readiness {
  /// The descriptors that are readable (or hung up, or in error: the process calls then report it) within
  /// `timeout`; empty on timeout or when a signal interrupts the wait.
  public static func wait(for descriptors: [Int32], timeout: Duration) -> Set<Int32> {
    var fds = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    let (seconds, attoseconds) = timeout.components
    let milliseconds = max(0, min(Int64(Int32.max), seconds * 1000 + attoseconds / 1_000_000_000_000_000))
    let count = fds.withUnsafeMutableBufferPointer { buffer in
      poll(buffer.baseAddress, nfds_t(buffer.count), Int32(milliseconds))
    }
    guard count > 0 else { return [] }
    var ready: Set<Int32> = []
    for entry in fds where entry.revents & Int16(POLLIN | POLLHUP | POLLERR | POLLNVAL) != 0 {
      ready.insert(entry.fd)
    }
    return ready
  }
}
