import EventLoop
import Glibc
import Synchronization
import Testing

/// A clock the test moves by hand.
private final class ManualClock: Sendable {
  let seconds = Mutex(100.0)
  var now: Double { seconds.withLock { $0 } }
  func advance(_ by: Double) { seconds.withLock { $0 += by } }
}

private func makePipe() -> (read: Int32, write: Int32) {
  var fds: [Int32] = [-1, -1]
  _ = pipe(&fds)
  for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
  return (fds[0], fds[1])
}

private func poke(_ fd: Int32) {
  var byte: UInt8 = 1
  _ = write(fd, &byte, 1)
}

@Suite("The event loop: descriptors, timers, signals and work off the loop")
struct EventLoopTests {
  @Test func timersRunInTheOrderTheyAreDueAndOnlyWhenDue() {
    let clock = ManualClock()
    let loop = EventLoop(clock: { clock.now })
    var ran: [String] = []
    loop.schedule(at: 102) { ran.append("b") }
    loop.schedule(at: 101) { ran.append("a") }
    let cancelled = loop.schedule(at: 101.5) { ran.append("cancelled") }
    loop.cancel(cancelled)
    loop.runOnce(maximumWait: 0)
    #expect(ran.isEmpty)
    clock.advance(1)
    loop.runOnce(maximumWait: 0)
    #expect(ran == ["a"])
    clock.advance(5)
    loop.runOnce(maximumWait: 0)
    #expect(ran == ["a", "b"])
  }

  @Test func aReadyDescriptorCallsItsHandlerUntilUnwatched() {
    let loop = EventLoop()
    let pipe = makePipe()
    defer {
      close(pipe.read)
      close(pipe.write)
    }
    var calls = 0
    loop.watch(pipe.read, events: Int16(POLLIN)) { revents in
      #expect(revents & Int16(POLLIN) != 0)
      calls += 1
    }
    loop.runOnce(maximumWait: 0)
    #expect(calls == 0)
    poke(pipe.write)
    loop.runOnce(maximumWait: 1)
    loop.runOnce(maximumWait: 0)  // level-triggered: unread input is reported again
    #expect(calls == 2)
    loop.unwatch(pipe.read)
    loop.runOnce(maximumWait: 0)
    #expect(calls == 2 && !loop.isWatching(pipe.read))
  }

  @Test func runReturnsWhenAHandlerStopsTheLoop() {
    let loop = EventLoop()
    var rounds = 0
    loop.beforeEachWait {
      rounds += 1
      if rounds == 3 { loop.stop() }
    }
    loop.schedule(at: loop.now) {}
    loop.schedule(at: loop.now + 0.001) {}
    loop.run()
    #expect(rounds == 3 && loop.isStopped)
  }

  @Test func workOffTheLoopAnswersOnTheLoop() {
    let loop = EventLoop()
    var answer: Int?
    loop.perform({ (1...1000).reduce(0, +) }, then: { answer = $0 })
    #expect(loop.workInFlight == 1)
    var rounds = 0
    while answer == nil && rounds < 1000 {
      loop.runOnce(maximumWait: 1)
      rounds += 1
    }
    #expect(answer == 500_500)
    #expect(loop.workInFlight == 0)
  }

  @Test func aSignalReachesItsHandlerOnTheLoop() {
    let loop = EventLoop()
    var received: [Int32] = []
    loop.handleSignals { received.append($0) }
    // The test runner's threads block some signals; this one takes SIGWINCH (raise sends to the caller).
    var only = sigset_t()
    sigemptyset(&only)
    sigaddset(&only, SIGWINCH)
    pthread_sigmask(SIG_UNBLOCK, &only, nil)
    raise(SIGWINCH)
    var rounds = 0
    while received.isEmpty && rounds < 100 {
      loop.runOnce(maximumWait: 0.1)
      rounds += 1
    }
    #expect(received == [SIGWINCH])
  }

  @Test func aDescriptorNumberReusedByANewOwnerIsRegisteredAfresh() {
    let loop = EventLoop()
    var seen: [Int32] = []
    let sync = DescriptorSync(loop: loop) { fd, _ in seen.append(fd) }
    final class Owner {}
    let first = Owner()
    let second = Owner()
    let old = makePipe()
    sync.update([.init(fd: old.read, events: Int16(POLLIN), owner: ObjectIdentifier(first))])
    let number = old.read
    close(old.read)  // epoll forgets it; the number is free again
    var fresh = makePipe()
    if fresh.read != number {  // make the new pipe's read end take the old number
      _ = dup2(fresh.read, number)
      close(fresh.read)
      fresh.read = number
    }
    defer {
      close(fresh.read)
      close(fresh.write)
      close(old.write)
    }
    sync.update([.init(fd: number, events: Int16(POLLIN), owner: ObjectIdentifier(second))])
    poke(fresh.write)
    loop.runOnce(maximumWait: 1)
    #expect(seen == [number], "the reused descriptor was not watched")
    sync.clear()
    #expect(!loop.isWatching(number))
  }

  /// A descriptor handed from the sync's owner to another that watches it itself (the bot lets a connection in
  /// from its door) stays watched by the new owner after the next update.
  @Test func aReleasedDescriptorIsLeftToItsNewOwner() {
    let loop = EventLoop()
    var seen: [String] = []
    let sync = DescriptorSync(loop: loop) { _, _ in seen.append("door") }
    final class Owner {}
    let door = Owner()
    let pipe = makePipe()
    defer {
      close(pipe.read)
      close(pipe.write)
    }
    sync.update([.init(fd: pipe.read, events: Int16(POLLIN), owner: ObjectIdentifier(door))])
    sync.release(pipe.read)
    loop.watch(pipe.read, events: Int16(POLLIN)) { _ in seen.append("connection") }
    sync.update([])
    poke(pipe.write)
    loop.runOnce(maximumWait: 1)
    #expect(seen == ["connection"], "the new owner's watch was taken away")
    loop.unwatch(pipe.read)
  }
}

/// One signal policy for every front end.
@Suite struct SignalMeaningTests {
  /// After kill -STOP and kill -CONT (or Ctrl-Z and fg) the shell has left the terminal cooked: the loop hears
  /// SIGCONT and the front end takes the terminal back.
  @Test func continuingAfterAStopTakesTheTerminalBackAndEndsNothing() {
    #expect(SignalPipe.handled.contains(SIGCONT))
    #expect(SignalMeaning(SIGCONT) == .resumed)
  }

  @Test func theWindowRedrawsAndTheEndingSignalsEndWith128PlusTheirNumber() {
    #expect(SignalMeaning(SIGWINCH) == .resized)
    #expect(SignalMeaning(SIGINT) == .end(status: 130))
    #expect(SignalMeaning(SIGTERM) == .end(status: 143))
    #expect(SignalMeaning(SIGHUP) == .end(status: 129))
    // Every other signal the pipe hands the loop ends the program.
    for number in SignalPipe.handled where number != SIGWINCH && number != SIGCONT {
      #expect(SignalMeaning(number) == .end(status: 128 + number))
    }
  }
}
