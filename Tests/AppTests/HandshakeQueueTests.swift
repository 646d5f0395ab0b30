import Testing

@testable import PracticeBot

/// How many waiting TLS handshakes the bot advances in a round: two after a round that served fewer secured
/// connections than a wait returns (32), and after rounds full of them (a saturated bot) two for every 256 served.
@Suite struct HandshakeQueueTests {
  /// A round that served `count` secured connections, and its budget.
  static func round(_ queue: inout HandshakeQueue, serving count: Int) -> Int {
    for _ in 0..<count { queue.served() }
    return queue.budget(batch: 32)
  }

  @Test func aRoundNotFullOfGamesAdvancesTwo() {
    var queue = HandshakeQueue()
    #expect(Self.round(&queue, serving: 0) == 2)
    #expect(Self.round(&queue, serving: 31) == 2)
    // Joiners alone, however many were ready, are not games served: a burst of them goes as fast as before.
    for fd: Int32 in 10..<42 { queue.add(fd) }
    #expect(Self.round(&queue, serving: 0) == 2)
  }

  @Test func roundsFullOfGamesAdvanceTwoForEvery256Served() {
    var queue = HandshakeQueue()
    // Seven full rounds serve 224 connections: nothing yet; the eighth makes 256.
    let budgets = (0..<16).map { _ in Self.round(&queue, serving: 32) }
    #expect(budgets == [0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 2])
  }

  @Test func aRoundNotFullStartsTheCountAgain() {
    var queue = HandshakeQueue()
    for _ in 0..<7 { #expect(Self.round(&queue, serving: 32) == 0) }
    #expect(Self.round(&queue, serving: 5) == 2)
    for _ in 0..<7 { #expect(Self.round(&queue, serving: 32) == 0) }
    #expect(Self.round(&queue, serving: 32) == 2)
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
