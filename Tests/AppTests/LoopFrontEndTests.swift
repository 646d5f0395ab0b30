import EventLoop
import Glibc
import Testing

@testable import App
@testable import NetworkShell

/// The one shutdown policy of the front ends on the loop (curses, plain network, the bot, a replay).
@Suite struct ShutdownPolicyTests {
  @Test func aResizeRedrawsAndEndsNothing() {
    var shutdown = Shutdown()
    #expect(shutdown.signal(SIGWINCH, now: 1) == .redraw)
    #expect(!shutdown.isEnding)
    #expect(!shutdown.mayStop(goodbyesGoingOut: 0, now: 100))
  }

  @Test func continuingAfterAStopTakesTheTerminalBackAndEndsNothing() {
    var shutdown = Shutdown()
    #expect(shutdown.signal(SIGCONT, now: 1) == .takeTerminalBack)
    #expect(!shutdown.isEnding)
    #expect(shutdown.signal(SIGINT, now: 2) == .sayGoodbye, "a stop and a continue are not the first ending signal")
  }

  @Test(arguments: [SIGINT, SIGTERM, SIGHUP])
  func anEndingSignalSaysGoodbyeOnceThenStopsAtTheSecond(signal: Int32) {
    var shutdown = Shutdown()
    #expect(shutdown.signal(signal, now: 1) == .sayGoodbye)
    #expect(shutdown.status == 128 + signal)
    #expect(shutdown.signal(SIGINT, now: 2) == .stopNow)
    #expect(shutdown.status == 128 + signal, "the first reason to end is the one that counts")
  }

  @Test func hangUpRereadsTheSettingsWhereAFrontEndSaysSoAndEndsNothing() {
    var shutdown = Shutdown()
    #expect(shutdown.signal(SIGHUP, now: 1, hangUpRereads: true) == .rereadSettings)
    #expect(!shutdown.isEnding && shutdown.deadline == nil)
    #expect(shutdown.signal(SIGHUP, now: 2, hangUpRereads: true) == .rereadSettings, "again and again")
    #expect(shutdown.signal(SIGTERM, now: 3, hangUpRereads: true) == .sayGoodbye, "SIGHUP was not a first ending")
    #expect(shutdown.status == 128 + SIGTERM)
    #expect(shutdown.signal(SIGHUP, now: 4, hangUpRereads: true) == .rereadSettings, "nor a second one")
    #expect(shutdown.signal(SIGINT, now: 5, hangUpRereads: true) == .stopNow)
    var other = Shutdown()
    #expect(other.signal(SIGHUP, now: 1, hangUpRereads: false) == .sayGoodbye, "elsewhere it ends, as before")
  }

  @Test func thePlayersOwnEndingIsKeptWhenASignalFollows() {
    var shutdown = Shutdown()
    shutdown.end(30, now: 1)
    #expect(shutdown.signal(SIGTERM, now: 2) == .sayGoodbye)
    #expect(shutdown.status == 30)
    #expect(shutdown.deadline == 1 + Shutdown.patience, "the patience counts from the first ending")
  }

  @Test func theLoopStopsWhenTheGoodbyesAreOutOrThePatienceIsOver() {
    var shutdown = Shutdown()
    shutdown.end(0, now: 10)
    #expect(!shutdown.mayStop(goodbyesGoingOut: 2, now: 10))
    #expect(!shutdown.mayStop(goodbyesGoingOut: 1, now: 10 + Shutdown.patience - 0.01))
    #expect(shutdown.mayStop(goodbyesGoingOut: 0, now: 10.1))
    #expect(shutdown.mayStop(goodbyesGoingOut: 1, now: 10 + Shutdown.patience), "a write stuck for good")
  }
}

/// A front end with a goodbye that takes a while, on a real loop with a clock the test moves.
private final class SlowGoodbye: LoopFrontEnd {
  let loop: EventLoop
  let clock: Clock
  var shutdown = Shutdown()
  var goodbyes: [Int32] = []
  var redraws = 0
  var goodbyesGoingOut = 0

  init() {
    let clock = Clock()
    loop = EventLoop(clock: { clock.now })
    self.clock = clock
  }

  func sayGoodbye(signal: Int32) {
    goodbyes.append(signal)
    goodbyesGoingOut = 1
  }

  func redraw() { redraws += 1 }

  /// One round of the loop as a front end runs it: stop first when done.
  func round() {
    loop.runOnce(maximumWait: 0)
    _ = stopIfDone()
  }

  final class Clock: @unchecked Sendable {
    var now = 0.0
  }
}

@Suite struct LoopFrontEndTests {
  @Test func aSignalIsAGoodbyeAndTheLoopWaitsForIt() {
    let front = SlowGoodbye()
    front.signalled(SIGWINCH)
    #expect(front.redraws == 1 && front.goodbyes.isEmpty)
    front.signalled(SIGTERM)
    #expect(front.goodbyes == [SIGTERM])
    front.round()
    #expect(!front.loop.isStopped, "the goodbye is still going out")
    front.goodbyesGoingOut = 0
    front.round()
    #expect(front.loop.isStopped)
    #expect(front.shutdown.status == 128 + SIGTERM)
  }

  @Test func aGoodbyeThatNeverLeavesIsGivenUpOnAfterThePatience() {
    let front = SlowGoodbye()
    front.signalled(SIGHUP)
    front.clock.now = Shutdown.patience - 0.5
    front.round()
    #expect(!front.loop.isStopped)
    front.clock.now = Shutdown.patience
    front.round()
    #expect(front.loop.isStopped)
  }

  @Test func aSecondSignalStopsAtOnceWithoutASecondGoodbye() {
    let front = SlowGoodbye()
    front.signalled(SIGINT)
    front.signalled(SIGTERM)
    #expect(front.goodbyes == [SIGINT])
    #expect(front.loop.isStopped)
    #expect(front.shutdown.status == 128 + SIGINT)
  }

  @Test func thePlayerLeavingEndsOnceAndKeepsItsStatus() {
    let front = SlowGoodbye()
    front.end(0)
    front.end(30)
    #expect(front.shutdown.status == 0)
    #expect(front.goodbyes.isEmpty, "the player's own leaving said its goodbye already")
    front.round()
    #expect(front.loop.isStopped)
  }
}
