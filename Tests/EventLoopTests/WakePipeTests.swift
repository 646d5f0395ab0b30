import Dispatch
import Glibc
import Testing

@testable import EventLoop

/// A worker's answer rings the loop's wake pipe. A loop let go while work is out must not leave the worker
/// writing into a descriptor number that something else has been given since (the test suite once saw a child's
/// standard input get "\x01\x01" from two such workers).
@Suite struct WakePipeTests {
  /// The inode of what `fd` is now, or nil when it is closed.
  private func inode(_ fd: Int32) -> UInt? {
    var status = stat()
    guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFIFO else { return nil }
    return UInt(status.st_ino)
  }

  @Test func thePipeOutlivesTheLoopUntilTheLastWorkerRangAndIsClosedThen() throws {
    let gate = DispatchSemaphore(value: 0)
    var loop: EventLoop? = EventLoop()
    let writer = try #require(loop?.wake.write)
    let pipe = try #require(inode(writer), "the wake pipe's write end is a pipe")
    loop?.perform({ gate.wait() }, then: {})
    loop = nil
    // The worker still holds the pipe: its descriptor is the same pipe, not closed and not given to another.
    #expect(inode(writer) == pipe)
    gate.signal()
    // Once the worker rang and let go, the pipe is closed (the number may be someone else's by then).
    var closed = false
    for _ in 0..<500 where !closed {
      closed = inode(writer) != pipe
      if !closed { usleep(10_000) }
    }
    #expect(closed, "the wake pipe was not closed after its last worker")
  }
}
