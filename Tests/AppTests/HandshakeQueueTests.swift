import Testing

@testable import PracticeBot

/// How many waiting TLS handshakes the bot advances in a round: two after a wait that was not full, and after
/// full waits (a saturated bot, whose loop takes 32 connections a wait) two for every 256 connections served.
@Suite struct HandshakeQueueTests {
  @Test func aRoundThatWasNotFullAdvancesTwo() {
    var queue = HandshakeQueue()
    #expect(queue.budget(ready: 0, batch: 32) == 2)
    #expect(queue.budget(ready: 31, batch: 32) == 2)
  }

  @Test func fullRoundsAdvanceTwoForEvery256Served() {
    var queue = HandshakeQueue()
    // Seven full waits serve 224 connections: nothing yet; the eighth makes 256.
    let budgets = (0..<16).map { _ in queue.budget(ready: 32, batch: 32) }
    #expect(budgets == [0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2])
  }

  @Test func aRoundThatWasNotFullStartsTheCountAgain() {
    var queue = HandshakeQueue()
    for _ in 0..<7 { #expect(queue.budget(ready: 32, batch: 32) == 0) }
    #expect(queue.budget(ready: 5, batch: 32) == 2)
    for _ in 0..<7 { #expect(queue.budget(ready: 32, batch: 32) == 0) }
    #expect(queue.budget(ready: 32, batch: 32) == 2)
  }

  @Test func eachConnectionWaitsOnceInArrivalOrder() {
    var queue = HandshakeQueue()
    for fd: Int32 in [7, 3, 7, 9, 3] { queue.add(fd) }
    var order: [Int32] = []
    while let fd = queue.next() { order.append(fd) }
    #expect(order == [7, 3, 9])
    #expect(queue.isEmpty)
    queue.add(7)
    #expect(queue.next() == 7)
  }
}
