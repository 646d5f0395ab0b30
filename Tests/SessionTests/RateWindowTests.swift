import Testing

@testable import Session

/// The flood limit the chat and the heartbeats share.
@Suite struct RateWindowTests {
  @Test func moreThanTheLimitWithinTheWindowIsAFlood() {
    var window = RateWindow(limit: 3, seconds: 1)
    let verdicts = [10, 10.2, 10.4, 10.6].map { window.allows($0) }
    #expect(verdicts == [true, true, true, false])
  }

  /// An event exactly `seconds` old has left the window.
  @Test func eventsLeaveTheWindowAsTimePasses() {
    var window = RateWindow(limit: 2, seconds: 5)
    // At 5 the one at 0 has left; at 5.5 the ones at 1 and 5 are still within 5 seconds.
    let verdicts = [0, 1, 5, 5.5, 100].map { window.allows($0) }
    #expect(verdicts == [true, true, true, false, true])
  }
}
