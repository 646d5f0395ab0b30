import GameCore
import SessionTestSupport
import Testing

@testable import Session

/// The coin toss alone, without a session around it.
@Suite struct CoinTossTests {
  static func coin(_ byte: UInt8) -> CoinToss { CoinToss(bytes: Array(repeating: byte, count: 32), sha256: testHash) }

  /// The host commits, the joiner shares, the host reveals and the joiner checks: both learn the same first
  /// player, which the lowest bits of the two first bytes decide together.
  @Test(arguments: [(0, 0, true), (1, 0, false), (0, 1, false), (3, 1, true), (2, 4, true)])
  func bothSidesLearnTheSameFirstPlayer(secret: UInt8, share: UInt8, hostFirst: Bool) {
    var host = Self.coin(secret)
    var joiner = Self.coin(share)
    let sharedBytes = joiner.committed(to: host.digest)
    #expect(sharedBytes == Array(repeating: share, count: 32))
    #expect(joiner.commitment == testHash(Array(repeating: secret, count: 32)))
    let revealed = host.shared(sharedBytes)
    #expect(revealed == Array(repeating: secret, count: 32))
    let matched = joiner.revealed(revealed)
    #expect(matched)
    #expect(host.hostFirst == hostFirst && joiner.hostFirst == hostFirst)
    #expect(host.firstMark(of: .host) == (hostFirst ? .x : .o))
    #expect(joiner.firstMark(of: .joiner) == (hostFirst ? .o : .x))
    #expect(!host.wasKept && !joiner.wasKept)
  }

  /// A secret other than the one committed to decides nothing.
  @Test func aRevealThatDoesNotMatchTheCommitmentIsRefused() {
    var joiner = Self.coin(0)
    _ = joiner.committed(to: Self.coin(1).digest)
    let matched = joiner.revealed(Array(repeating: 2, count: 32))
    #expect(!matched)
    #expect(joiner.hostFirst)  // still the default: nothing was decided
    var uncommitted = Self.coin(0)
    let matchedNothing = uncommitted.revealed(Array(repeating: 1, count: 32))
    #expect(!matchedNothing)
  }

  @Test(arguments: [true, false]) func aKeptFirstPlayerReplacesTheToss(hostPlaysX: Bool) {
    var coin = Self.coin(0)
    coin.keep(hostPlaysX: hostPlaysX)
    #expect(coin.wasKept && coin.hostFirst == hostPlaysX)
    #expect(coin.firstMark(of: .host) == (hostPlaysX ? .x : .o))
    #expect(coin.firstMark(of: .joiner) == (hostPlaysX ? .o : .x))
  }
}
