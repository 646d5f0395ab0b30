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

/// A new pipe whose read end has `number`, the old descriptor with that number closed (by dup2, at once: tests
/// run in parallel, and a number left free for a moment could be another test's next descriptor).
private func reuse(_ number: Int32) -> (read: Int32, write: Int32) {
  let fresh = makePipe()
  _ = dup2(fresh.read, number)  // closes what `number` was: epoll forgets it
  close(fresh.read)
  return (number, fresh.write)
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
    let fresh = reuse(number)
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
}

/// `LoopRegistration`: a descriptor's owner registers it once, changes its events, and gives it up once.
@Suite struct LoopRegistrationTests {
  /// What is ready goes to the registration's handler; an unchanged interest costs no epoll_ctl, a changed one
  /// costs one.
  @Test func readinessGoesToTheHandlerAndOnlyAChangedInterestCostsASystemCall() {
    let loop = EventLoop()
    let pipe = makePipe()
    defer {
      close(pipe.read)
      close(pipe.write)
    }
    var seen: [Int16] = []
    let registration = LoopRegistration(loop: loop, fd: pipe.read, events: Int16(POLLIN)) { seen.append($0) }
    poke(pipe.write)
    loop.runOnce(maximumWait: 1)
    #expect(seen.count == 1 && seen[0] & Int16(POLLIN) != 0)
    let before = loop.descriptorChanges
    registration.want(Int16(POLLIN))
    #expect(loop.descriptorChanges == before, "the same events again made a system call")
    registration.want(0)
    #expect(loop.descriptorChanges == before + 1)
    loop.runOnce(maximumWait: 0)
    #expect(seen.count == 1, "a descriptor kept with no events still woke its handler")
    registration.cancel()
    #expect(!loop.isWatching(pipe.read))
  }

  /// Handed over (a socket at the door goes in as a connection): the old owner gives it up and the new one
  /// registers it; the old owner giving it up again later (closing) leaves the new one watched and touches
  /// nothing.
  @Test func aRegistrationHandedOverIsGivenUpOnce() {
    let loop = EventLoop()
    let pipe = makePipe()
    defer {
      close(pipe.read)
      close(pipe.write)
    }
    var seen: [String] = []
    let door = LoopRegistration(loop: loop, fd: pipe.read, events: Int16(POLLIN)) { _ in seen.append("door") }
    door.cancel()
    let connection = LoopRegistration(loop: loop, fd: pipe.read, events: Int16(POLLIN)) { _ in
      seen.append("connection")
    }
    let after = loop.descriptorChanges
    door.cancel()
    door.want(Int16(POLLOUT))
    #expect(!door.isActive && connection.isActive)
    #expect(loop.descriptorChanges == after, "a registration given up touched the loop again")
    poke(pipe.write)
    loop.runOnce(maximumWait: 1)
    #expect(seen == ["connection"], "the new owner's registration was taken away")
    connection.cancel()
  }

  /// A descriptor closed without being given up and reused by a new owner: the new owner's registration is
  /// watched (epoll forgot the old descriptor), the old owner hears nothing more, and the old registration
  /// given up late leaves the new one watched.
  @Test func aReusedDescriptorNeverReachesItsOldOwner() {
    let loop = EventLoop()
    var seen: [String] = []
    let old = makePipe()
    let number = old.read
    let first = LoopRegistration(loop: loop, fd: number, events: Int16(POLLIN)) { _ in seen.append("old") }
    let fresh = reuse(number)
    defer {
      close(fresh.read)
      close(fresh.write)
      close(old.write)
    }
    let second = LoopRegistration(loop: loop, fd: number, events: Int16(POLLIN)) { _ in seen.append("new") }
    poke(fresh.write)
    loop.runOnce(maximumWait: 1)
    #expect(seen == ["new"], "the reused descriptor was not watched for its new owner")
    first.cancel()
    #expect(second.isActive && !first.isActive)
    loop.runOnce(maximumWait: 1)
    #expect(seen == ["new", "new"], "giving up the old registration took the new one's away")
    second.cancel()
    #expect(!loop.isWatching(number))
  }

  /// A handler that closes another descriptor and registers a new one under its number, in the round that
  /// found both ready: the new owner does not hear the old descriptor's readiness (a connecting socket would
  /// take it for its connect done).
  @Test func aNumberReusedInTheRoundDoesNotHearTheOldReadiness() {
    let loop = EventLoop()
    var seen: [String] = []
    let first = makePipe()
    let old = makePipe()
    var fresh: (read: Int32, write: Int32)?
    var replacement: LoopRegistration?
    var oldRegistration: LoopRegistration?
    let firstRegistration = LoopRegistration(loop: loop, fd: first.read, events: Int16(POLLIN)) { _ in
      var byte: UInt8 = 0
      _ = read(first.read, &byte, 1)
      seen.append("first")
      oldRegistration?.cancel()
      fresh = reuse(old.read)  // nothing to read in it yet
      replacement = LoopRegistration(loop: loop, fd: old.read, events: Int16(POLLIN)) { _ in seen.append("new") }
    }
    oldRegistration = LoopRegistration(loop: loop, fd: old.read, events: Int16(POLLIN)) { _ in seen.append("old") }
    poke(first.write)  // ready first, so its handler runs before the old descriptor's turn
    poke(old.write)
    loop.runOnce(maximumWait: 1)
    #expect(seen == ["first"], "the new owner heard what was ready for the descriptor it replaced")
    loop.runOnce(maximumWait: 0)
    #expect(seen == ["first"], "the new descriptor, with nothing to read, was heard")
    if let fresh { poke(fresh.write) }
    loop.runOnce(maximumWait: 1)
    #expect(seen == ["first", "new"])
    firstRegistration.cancel()
    replacement?.cancel()
    for fd in [first.read, first.write, old.write, fresh?.read ?? -1, fresh?.write ?? -1] where fd >= 0 { close(fd) }
  }

  /// Given up before the close, as owners do: the next owner of the number costs one epoll_ctl (its add), and
  /// only it hears the descriptor.
  @Test func givenUpBeforeTheCloseTheNextOwnerCostsOneAdd() {
    let loop = EventLoop()
    var seen: [String] = []
    let old = makePipe()
    let number = old.read
    let first = LoopRegistration(loop: loop, fd: number, events: Int16(POLLIN)) { _ in seen.append("old") }
    first.cancel()
    let fresh = reuse(number)
    close(old.write)
    defer {
      close(fresh.read)
      close(fresh.write)
    }
    let before = loop.descriptorChanges
    let second = LoopRegistration(loop: loop, fd: fresh.read, events: Int16(POLLIN)) { _ in seen.append("new") }
    #expect(loop.descriptorChanges == before + 1)
    poke(fresh.write)
    loop.runOnce(maximumWait: 1)
    #expect(seen == ["new"])
    second.cancel()
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
