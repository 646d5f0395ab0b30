import EventLoop
import Glibc
import Testing

@Suite struct PollSetTests {
  private func makePipe() -> (read: Int32, write: Int32) {
    var fds: [Int32] = [-1, -1]
    _ = pipe(&fds)
    return (fds[0], fds[1])
  }

  @Test func reportsOnlyWhatIsReadyAndKeepsTrackAcrossRemovals() {
    let a = makePipe()
    let b = makePipe()
    let c = makePipe()
    defer { for fd in [a.read, a.write, b.read, b.write, c.read, c.write] { close(fd) } }
    let set = PollSet()
    for fd in [a.read, b.read, c.read] { set.insert(fd, events: Int16(POLLIN)) }
    #expect(set.count == 3 && set.wait(timeout: 0).isEmpty)
    var byte: UInt8 = 1
    _ = write(c.write, &byte, 1)
    _ = write(a.write, &byte, 1)
    #expect(Set(set.wait(timeout: 0).map(\.fd)) == [a.read, c.read])
    // Removing the first entry moves the last one into its place; both must still be found by descriptor.
    set.remove(a.read)
    #expect(!set.contains(a.read) && set.contains(c.read) && set.count == 2)
    #expect(set.wait(timeout: 0).map(\.fd) == [c.read])
    set.setEvents(c.read, 0)
    #expect(set.events(of: c.read) == 0 && set.wait(timeout: 0).isEmpty)
    set.insert(c.read, events: Int16(POLLIN))
    #expect(set.count == 2 && set.wait(timeout: 0).first?.revents == Int16(POLLIN))
    set.remove(a.read)  // twice: nothing happens
    #expect(set.count == 2)
  }

  @Test func aWriterIsReportedWritable() {
    let p = makePipe()
    defer {
      close(p.read)
      close(p.write)
    }
    let set = PollSet()
    set.insert(p.write, events: Int16(POLLOUT))
    let ready = set.wait(timeout: 0)
    #expect(ready.count == 1 && ready[0].revents & Int16(POLLOUT) != 0)
  }

  @Test func aHungUpWriterIsReportedAndOneWaitReturnsAtMostABatch() {
    let pipes = (0..<3).map { _ in makePipe() }
    defer { for p in pipes { close(p.read) } }
    let set = PollSet(batch: 2)
    for p in pipes { set.insert(p.read, events: Int16(POLLIN)) }
    for p in pipes { close(p.write) }
    let first = set.wait(timeout: 0)
    #expect(first.count == 2)
    #expect(first.allSatisfy { $0.revents & Int16(POLLHUP) != 0 })
    // Level-triggered, like poll(): what is still ready is reported again, the third one included.
    var seen = Set(first.map(\.fd))
    for _ in 0..<3 { seen.formUnion(set.wait(timeout: 0).map(\.fd)) }
    #expect(seen == Set(pipes.map(\.read)))
  }

  @Test func aNanosecondWaitReturnsWhatIsReadyAndOtherwiseTimesOut() {
    let p = makePipe()
    defer {
      close(p.read)
      close(p.write)
    }
    let set = PollSet()
    set.insert(p.read, events: Int16(POLLIN))
    #expect(set.wait(nanoseconds: 200_000).isEmpty)
    var byte: UInt8 = 1
    _ = write(p.write, &byte, 1)
    #expect(set.wait(nanoseconds: 200_000).map(\.fd) == [p.read])
    #expect(set.wait(nanoseconds: -1).map(\.fd) == [p.read])  // forever, but it is ready
  }

  /// epoll refuses regular files and /dev/null (EPERM); poll() calls them always ready, and so does the set, so
  /// a game whose input is redirected from a file reads it instead of waiting for ever.
  @Test func aRegularFileOrDevNullIsAlwaysReadyAndDoesNotLetAWaitSleep() {
    let path = "/tmp/pollset-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let file = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
    let null = open("/dev/null", O_RDONLY)
    let p = makePipe()
    defer {
      for fd in [file, null, p.read, p.write] { close(fd) }
      unlink(path)
    }
    let set = PollSet()
    set.insert(p.read, events: Int16(POLLIN))
    set.insert(file, events: Int16(POLLIN))
    set.insert(null, events: Int16(POLLIN))
    #expect(set.count == 3)
    var ready = set.wait(timeout: 5_000)
    #expect(Set(ready.map(\.fd)) == [file, null] && ready.allSatisfy { $0.revents == Int16(POLLIN) })
    ready = set.wait(nanoseconds: 5_000_000_000)
    #expect(Set(ready.map(\.fd)) == [file, null], "a precise wait does not sleep either")
    set.setEvents(file, 0)
    #expect(set.wait(timeout: 0).map(\.fd) == [null], "kept, but not watched for anything now")
    set.remove(null)
    set.remove(file)
    #expect(set.count == 1 && set.wait(timeout: 0).isEmpty)
  }

  /// A regular file kept with no events does not keep a wait from sleeping.
  @Test func aRegularFileWatchedForNothingLetsTheWaitSleep() {
    let path = "/tmp/pollset-idle-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let file = open(path, O_RDWR | O_CREAT | O_TRUNC, 0o600)
    defer {
      close(file)
      unlink(path)
    }
    let set = PollSet()
    set.insert(file, events: 0)
    var start = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    #expect(set.wait(timeout: 100).isEmpty)
    var end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &end)
    let waited = Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
    #expect(waited >= 0.09, "the wait returned after \(waited) s")
  }
}
