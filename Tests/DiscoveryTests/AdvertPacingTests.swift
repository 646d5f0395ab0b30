import Testing

@testable import Discovery

/// The advertisement's count of spectators (`watch=N`) reaches the LAN at most once every 10 s (every DNS-SD browser
/// wakes for each change), on a clock the test moves: a change within the interval is held to its end, only the
/// latest is published, and none when the count went back meanwhile.
@Suite struct AdvertPacingTests {
  @Test func atMostOnceEveryTenSeconds() {
    var pacing = AdvertPacing(0)
    #expect(pacing.changed(to: 1, now: 100) == 1, "the first change goes out at once")
    #expect(pacing.changed(to: 2, now: 101) == nil && pacing.deadline == 110)
    #expect(pacing.changed(to: 5, now: 105) == nil && pacing.held == 5)
    #expect(pacing.due(now: 109.9) == nil)
    #expect(pacing.due(now: 110) == 5 && pacing.published == 5 && pacing.deadline == nil)
    #expect(pacing.due(now: 111) == nil)
    // Every second for a minute, the count goes up: six publications at most.
    var published: [Int] = []
    for second in 0..<60 {
      let now = 120.0 + Double(second)
      if let value = pacing.changed(to: 6 + second, now: now) ?? pacing.due(now: now) { published.append(value) }
    }
    #expect(published.count == 6, "\(published)")
    #expect(published.first == 6)
  }

  @Test func aChangeThatWentBackIsNotPublished() {
    var pacing = AdvertPacing(3)
    #expect(pacing.changed(to: 4, now: 0) == 4)
    #expect(pacing.changed(to: 5, now: 1) == nil)
    #expect(pacing.changed(to: 4, now: 2) == nil && pacing.held == nil && pacing.deadline == nil)
    #expect(pacing.due(now: 20) == nil)
    // Published for another reason (a state change), the interval starts again.
    pacing.publishedAnyway(7, now: 30)
    #expect(pacing.changed(to: 8, now: 35) == nil && pacing.due(now: 40) == 8)
  }

  @Test func theTXTKeySaysWhetherAndHowManyWatch() throws {
    let rules = try #require(ServiceTXT.Rules(rows: 3, columns: 3, k: 3))
    var txt = ServiceTXT(
      protocolVersions: [4], rules: rules, state: .playing, fingerprint: "SHA256:" + String(repeating: "A", count: 43))
    #expect(ServiceTXT(decoding: txt.encoded).watchers == nil)
    txt.watchers = 12
    let read = ServiceTXT(decoding: txt.encoded)
    #expect(read.watchers == 12 && read.problems.isEmpty)
    for bad in ["-1", "x", "", "65536", "123456", " 1"] {
      let strings = TXTRecordStrings.encode(
        ["txtvers=1", "proto=4", "rules=3x3k3", "state=playing", "fp=\(txt.fingerprint!)", "watch=\(bad)"].map {
          Array($0.utf8)
        })
      let decoded = ServiceTXT(decoding: strings)
      #expect(decoded.watchers == nil && decoded.problems == [.invalidValue(key: "watch", value: bad)], "\(bad)")
    }
  }
}
