import Testing

@testable import App
@testable import MatchCoordination
@testable import PlayerFiles

@Suite struct TokenBucketTests {
  @Test func aBurstIsAllowedThenTheRateOnAVirtualClock() {
    var bucket = TokenBucket(rate: 2, burst: 3, now: 0)
    let taken = (0..<5).map { _ in bucket.take(now: 0) }
    #expect(taken == [true, true, true, false, false])
    #expect(bucket.wait(now: 0) == 0.5)
    let check1 = !bucket.take(now: 0.4)
    #expect(check1)
    let check2 = bucket.take(now: 0.5)
    #expect(check2)
    // A long quiet spell gives back the burst, never more.
    let again = (0..<4).map { _ in bucket.take(now: 100) }
    #expect(again == [true, true, true, false])
  }

  @Test func aClockGoingBackwardsGivesNothingBack() {
    var bucket = TokenBucket(rate: 1, burst: 1, now: 10)
    let check3 = bucket.take(now: 10)
    #expect(check3)
    let check4 = !bucket.take(now: 5)
    #expect(check4)
    let check5 = !bucket.take(now: 10.5)
    #expect(check5)
    let check6 = bucket.take(now: 11)
    #expect(check6)
  }

  @Test func bucketsPerKeyAreSeparateAndFullOnesAreForgotten() {
    var buckets = TokenBuckets<String>(rate: 1, burst: 2, capacity: 2)
    let check7 = buckets.take("a", now: 0) && buckets.take("a", now: 0)
    #expect(check7)
    let check8 = !buckets.take("a", now: 0)
    #expect(check8)
    let check9 = buckets.take("b", now: 0)
    #expect(check9)
    // At capacity a third key is refused while the others are still limited...
    let check10 = !buckets.take("c", now: 0.5)
    #expect(check10)
    // ...and let in once a full bucket can be forgotten ("b" is full again after a second).
    let check11 = buckets.take("c", now: 2)
    #expect(check11)
    #expect(buckets.count <= 2)
    // "a" was full too and forgotten: it starts again with its burst.
    let check12 = buckets.take("a", now: 2)
    #expect(check12)
  }
}

@Suite struct DenyListTests {
  @Test func addressesAndPrefixesOfBothFamilies() throws {
    let list = try DenyList(parsing: "203.0.113.0/24, 2001:db8::/32,198.51.100.7 , 10.0.0.0/9")
    #expect(list.refuses("203.0.113.9:4000"))
    #expect(list.refuses("203.0.113.255"))
    #expect(!list.refuses("203.0.114.1:4000"))
    #expect(list.refuses("[2001:db8:ffff::1]:7177"))
    #expect(!list.refuses("[2001:db9::1]:7177"))
    #expect(list.refuses("198.51.100.7:1"))
    #expect(!list.refuses("198.51.100.8:1"))
    #expect(list.refuses("10.127.0.1:1") && !list.refuses("10.128.0.1:1"))
    // An IPv4 client on a dual-stack listener arrives as a mapped IPv6 address.
    #expect(list.refuses("[::ffff:203.0.113.5]:80"))
    #expect(list.setting == "203.0.113.0/24, 2001:db8:0:0:0:0:0:0/32, 198.51.100.7, 10.0.0.0/9")
    #expect(try DenyList(parsing: list.setting) == list)
  }

  @Test(arguments: ["203.0.113.0/33", "example.com", "1.2.3", "2001:db8::/129", "1.2.3.4/x", "[::1]"])
  func nonsenseIsRefusedWithTheEntry(entry: String) {
    #expect(throws: DenyList.EntryError.self) { try DenyList(parsing: "192.0.2.1, \(entry)") }
  }

  @Test func noneIsAnEmptyList() throws {
    #expect(try DenyList(parsing: "none").isEmpty)
    #expect(DenyList().setting == "none")
    #expect(!DenyList().refuses("192.0.2.1:1"))
  }

  @Test func theSettingsFileReadsAndWritesTheLists() throws {
    let settings = try SettingsFile.parse("deny = 203.0.113.0/24, 198.51.100.7\nlimits_exempt = none\n", path: "s")
    #expect(settings.deny == "203.0.113.0/24, 198.51.100.7")
    #expect(settings.limitsExempt == "none")
    #expect(try SettingsFile.parse(SettingsFile.render(settings), path: "s") == settings)
    let error = #expect(throws: FileError.self) {
      try SettingsFile.parse("size = 3\ndeny = 203.0.113.0/40\n", path: "s")
    }
    #expect(error?.line == 2)
    #expect(error?.reason == "deny: \"203.0.113.0/40\": the prefix length must be a number from 0 to 32")
  }
}

@Suite struct SourceLimitsTests {
  @Test func sourceAddressesCountIPv6ByItsSlash64() {
    #expect(SourceAddress("[2001:db8:1:2::5]:7177") == SourceAddress("2001:db8:1:2:ffff::9"))
    #expect(SourceAddress("[2001:db8:1:3::5]:7177") != SourceAddress("2001:db8:1:2::5"))
    #expect(SourceAddress("192.0.2.1:5") == SourceAddress("[::ffff:192.0.2.1]:6"))
    #expect(SourceAddress("2001:db8:1:2::5")?.description == "2001:db8:1:2::/64")
    #expect(SourceAddress("nonsense") == nil)
  }

  @Test func connectionsAtOnceArePerAddressAndFreedWhenClosed() {
    var numbers = SourceLimits.Numbers()
    numbers.connectionsPerAddress = 2
    var limits = SourceLimits(numbers: numbers, now: 0)
    let check13 = limits.connected("192.0.2.1:1", now: 0) == nil
    #expect(check13)
    let check14 = limits.connected("192.0.2.1:2", now: 0) == nil
    #expect(check14)
    let check15 = limits.connected("192.0.2.1:3", now: 0) == .tooManyConnections(2)
    #expect(check15)
    let check16 = limits.connected("192.0.2.2:1", now: 0) == nil
    #expect(check16)
    limits.disconnected("192.0.2.1:1")
    let check17 = limits.connected("192.0.2.1:4", now: 0) == nil
    #expect(check17)
    #expect(limits.openConnections(from: "192.0.2.1:9") == 2)
  }

  @Test func reconnectingDoesNotResetTheConnectionRate() {
    var limits = SourceLimits(now: 0)
    var allowed = 0
    // A client that closes each connection at once and opens the next, for ten seconds.
    for step in 0..<1000 {
      let now = Double(step) / 100
      if limits.connected("192.0.2.1:\(step)", now: now) == nil {
        allowed += 1
        limits.disconnected("192.0.2.1:\(step)")
      }
    }
    let numbers = SourceLimits.Numbers()
    #expect(allowed == Int(numbers.connectionBurst + 9.99 * numbers.connectionsPerSecond))
  }

  @Test func theDenyListComesFirstAndExemptAddressesAreNotLimited() throws {
    var numbers = SourceLimits.Numbers()
    numbers.connectionsPerAddress = 1
    var limits = SourceLimits(numbers: numbers, deny: try DenyList(parsing: "127.0.0.0/8"), now: 0)
    let check18 = limits.connected("127.0.0.1:1", now: 0) == .denied
    #expect(check18)
    var open = SourceLimits(numbers: numbers, now: 0)
    let check19 = open.connected("127.0.0.1:1", now: 0) == nil && open.connected("127.0.0.1:2", now: 0) == nil
    #expect(check19)
    let check20 = open.connected("[::1]:1", now: 0) == nil && open.connected("[::1]:2", now: 0) == nil
    #expect(check20)
    let check21 = open.connected("127.0.0.2:1", now: 0) == nil && open.connected("127.0.0.2:2", now: 0) != nil
    #expect(check21)
  }

  @Test func newKeysArePerAddressAndInAll() {
    var limits = SourceLimits(now: 0)
    let numbers = SourceLimits.Numbers()
    var fromOne = 0
    for _ in 0..<50 where limits.newKey(from: "192.0.2.1:1", now: 0) == nil { fromOne += 1 }
    #expect(fromOne == Int(numbers.newKeyBurst))
    // A minute later the address has its burst back... at the rate, not all at once.
    let check22 = limits.newKey(from: "192.0.2.1:1", now: 12) == nil
    #expect(check22)
    let check23 = limits.newKey(from: "192.0.2.1:1", now: 12) == .tooManyNewKeys
    #expect(check23)
    // Many addresses together meet the limit on all new keys (full again after 12 s, less the one just taken).
    var inAll = 0
    for index in 0..<500 where limits.newKey(from: "198.51.100.\(index % 250):1", now: 12) == nil { inAll += 1 }
    #expect(inAll == Int(numbers.allNewKeysBurst) - 1)
  }

  /// How many of `tries` games `start` let start (nil: started).
  private static func started(_ tries: Int, _ start: () -> SourceLimits.Refusal?) -> Int {
    (0..<tries).filter { _ in start() == nil }.count
  }

  @Test func gamesAreLimitedPerKeyAndPerAddressSoReconnectingOrANewKeyDoesNotReset() {
    var limits = SourceLimits(now: 0)
    let burst = Int(SourceLimits.Numbers().gameBurst)
    #expect(Self.started(1000) { limits.game(key: "K1", from: "192.0.2.1:1", now: 1) } == burst)
    // The same key from another address, and another key from the same address, are both still limited.
    let check24 = limits.game(key: "K1", from: "198.51.100.1:1", now: 1) == .tooManyGames(wait: 3)
    #expect(check24)
    let check25 = limits.game(key: "K2", from: "192.0.2.1:2", now: 1) == .tooManyGames(wait: 3)
    #expect(check25)
    let check26 = limits.game(key: "K2", from: "198.51.100.1:1", now: 1) == nil
    #expect(check26)
    let check27 = limits.game(key: "K1", from: "192.0.2.1:1", now: 4) == nil
    #expect(check27)
  }

  /// A game the bot offered and nobody played is given back to both limits, once per game, never past the burst.
  @Test func aGameNotPlayedIsGivenBackToTheKeyAndTheAddressButNeverPastTheBurst() {
    var limits = SourceLimits(now: 0)
    let burst = Int(SourceLimits.Numbers().gameBurst)
    #expect(Self.started(100) { limits.game(key: "K1", from: "192.0.2.1:1", now: 1) } == burst)
    limits.gameNotPlayed(key: "K1", from: "192.0.2.1:1", now: 1)
    // One back for the key and for the address: one more game, then the limit again.
    #expect(limits.game(key: "K1", from: "192.0.2.1:7", now: 1) == nil)
    #expect(limits.game(key: "K1", from: "192.0.2.1:7", now: 1) == .tooManyGames(wait: 3))
    // Given back to the address too: another key from it gets the game that was given back.
    limits.gameNotPlayed(key: "K1", from: "192.0.2.1:1", now: 1)
    #expect(limits.game(key: "K2", from: "192.0.2.1:2", now: 1) == nil)
    // A full bucket takes nothing more: giving back to a fresh key and address does not raise their burst.
    for _ in 0..<5 { limits.gameNotPlayed(key: "K9", from: "198.51.100.9:1", now: 1) }
    #expect(Self.started(100) { limits.game(key: "K9", from: "198.51.100.9:1", now: 1) } == burst)
    var bucket = TokenBucket(rate: 0, burst: 2, now: 0)
    bucket.giveBack(now: 0)
    #expect(bucket.tokens == 2)
    #expect(bucket.take(now: 0) && bucket.take(now: 0) && !bucket.take(now: 0))
    bucket.giveBack(now: 0)
    #expect(bucket.take(now: 0) && !bucket.take(now: 0))
  }

  /// A connection's address is read once (`SourceLimits.Peer`) for all its games; whether it is exempt is still
  /// decided at each game, so a SIGHUP that changes the exempt addresses applies to games already connected.
  @Test func anAddressReadOnceIsLimitedLikeItsTextAndByTheExemptionsOfTheMoment() throws {
    var limits = SourceLimits(now: 0)
    let peer = SourceLimits.Peer("192.0.2.1:1")
    let burst = Int(SourceLimits.Numbers().gameBurst)
    #expect(Self.started(100) { limits.game(key: "K1", from: peer, now: 1) } == burst)
    // Counted under the same address as its text: another key from it is refused too.
    #expect(limits.game(key: "K2", from: "192.0.2.1:2", now: 1) == .tooManyGames(wait: 3))
    // Made exempt after it was read: no longer limited; exempt no more: limited again.
    limits.reread(deny: DenyList(), exempt: try DenyList(parsing: "192.0.2.0/24"), connectionsPerAddress: 32)
    #expect(limits.game(key: "K1", from: peer, now: 1) == nil)
    limits.reread(deny: DenyList(), exempt: SourceLimits.loopback, connectionsPerAddress: 32)
    #expect(limits.game(key: "K1", from: peer, now: 1) == .tooManyGames(wait: 3))
    // Loopback is exempt by default; text that is not an address is not limited.
    let local = SourceLimits.Peer("127.0.0.1:5000")
    let junk = SourceLimits.Peer("proxy")
    for _ in 0..<100 {
      #expect(limits.game(key: "K3", from: local, now: 1) == nil)
      #expect(limits.game(key: "K4", from: junk, now: 1) == nil)
    }
  }
}
