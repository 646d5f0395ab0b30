import Glibc
import Synchronization
import Testing

@testable import Transport

/// Graceful closes that never wait: what a peer has not read goes out as it reads, and a peer that never
/// reads is cut off at the deadline.
@Suite struct ClosingSocketsTests {
  private final class Clock: Sendable {
    let seconds = Mutex(0.0)
    var now: Double { seconds.withLock { $0 } }
  }

  /// A connected pair of non-blocking stream sockets with small buffers.
  private func pair() -> (Int32, Int32) {
    var fds: [Int32] = [-1, -1]
    _ = socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds)
    for fd in fds {
      _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
      var size: Int32 = 4096
      setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
      setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    return (fds[0], fds[1])
  }

  private func readAll(_ fd: Int32) -> (bytes: Int, ended: Bool) {
    var total = 0
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = read(fd, &buffer, buffer.count)
      if count > 0 {
        total += count
        continue
      }
      return (total, count == 0)
    }
  }

  @Test func whatThePeerHasNotTakenGoesOutAsItReadsThenTheSocketCloses() {
    let clock = Clock()
    let closing = ClosingSockets(clock: { clock.now })
    let (ours, theirs) = pair()
    defer { close(theirs) }
    let bytes = [UInt8](repeating: 7, count: 200_000)  // far more than the buffers hold
    closing.adopt(ours, sending: bytes)
    #expect(closing.flush(ours) == false, "everything went out at once: the test proves nothing")
    var received = 0
    var ended = false
    for _ in 0..<10_000 where !ended {
      let (count, end) = readAll(theirs)
      received += count
      ended = end
      if closing.contains(ours) { closing.flush(ours) }
    }
    #expect(received == bytes.count)
    #expect(ended, "the socket was not closed after its last byte")
    #expect(closing.count == 0)
  }

  @Test func aPeerThatNeverReadsIsCutOffAtTheDeadline() {
    let clock = Clock()
    let closing = ClosingSockets(clock: { clock.now })
    let (ours, theirs) = pair()
    defer { close(theirs) }
    closing.adopt(ours, sending: [UInt8](repeating: 1, count: 200_000))
    #expect(closing.flush(ours) == false)
    #expect(closing.nextDeadline == ClosingSockets.linger)
    #expect(closing.expire().isEmpty, "closed before its deadline")
    clock.seconds.withLock { $0 = ClosingSockets.linger }
    #expect(closing.expire() == [ours])
    #expect(closing.count == 0 && closing.nextDeadline == nil)
    _ = readAll(theirs)
    #expect(readAll(theirs).ended, "the socket is still open")
  }
}
