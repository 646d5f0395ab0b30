import GameCore
import SessionTestSupport
import Testing
import WireProtocol

@testable import Session

/// A joiner that leaves after the coin toss and comes back within the grace period cannot re-roll the coin:
/// the host keeps the first player of the game it left (`coin kept`, protocol version 2). Version 1, where the
/// coin was tossed again, is no longer spoken: a peer offering only 1 is refused, so it cannot re-roll the coin.
@Suite struct CoinKeptTests {
  /// A new match whose host remembers that it played X (or not) in the game the joiner left.
  static func rejoined(hostPlayedX: Bool, joinerVersions: [UInt16] = ProtocolVersion.supported) -> SessionPair {
    var pair = SessionPair(hostCoin: 0, joinerCoin: hostPlayedX ? 1 : 0)  // the coin would say the opposite
    pair.joiner = NetSession(
      configuration: .init(role: .joiner, name: "Bob", software: "test", versions: joinerVersions),
      coinBytes: Array(repeating: hostPlayedX ? 1 : 0, count: 32), sha256: testHash, now: 0)
    pair.host.keptHostPlaysX = hostPlayedX
    pair.startMatch()
    return pair
  }

  /// In version 2 and in version 3 (a joiner speaking 2 only, or both).
  @Test(arguments: [true, false], [[UInt16(2)], [3, 2]])
  func theFirstPlayerOfTheLeftGameIsKept(hostPlayedX: Bool, joinerVersions: [UInt16]) {
    let pair = Self.rejoined(hostPlayedX: hostPlayedX, joinerVersions: joinerVersions)
    let version = joinerVersions.max()
    #expect(pair.host.version == version && pair.joiner.version == version)
    #expect(pair.host.myMark == (hostPlayedX ? .x : .o))
    #expect(pair.joiner.myMark == (hostPlayedX ? .o : .x))
    #expect(pair.host.firstPlayerWasKept && pair.joiner.firstPlayerWasKept)
    #expect(pair.hostEvents.contains(.send(.coinKept(hostPlaysX: hostPlayedX))))
    #expect(!pair.hostEvents.contains { if case .send(.coinCommit) = $0 { true } else { false } })
    #expect(pair.host.gameNumber == 1 && pair.joiner.gameNumber == 1)
  }

  /// The kept first player is the first game's; later games alternate as always.
  @Test func rematchesStillAlternate() throws {
    var pair = Self.rejoined(hostPlayedX: false)
    pair.deliver(fromJoiner: try pair.joiner.resign(now: 0))
    pair.deliver(fromJoiner: try pair.joiner.offerRematch(now: 0))
    pair.deliver(fromHost: try pair.host.offerRematch(now: 0))
    #expect(pair.host.gameNumber == 2 && pair.host.myMark == .x)
  }

  /// A joiner that offers only version 1 (which does not know `coin kept`) would have the coin tossed again:
  /// it is refused with the version mismatch instead, and no coin is tossed.
  @Test func aJoinerOfferingOnlyVersionOneIsRefusedAndNoCoinIsTossed() {
    let pair = Self.rejoined(hostPlayedX: true, joinerVersions: [1])
    #expect(pair.host.version == nil && pair.host.myMark == nil && pair.joiner.myMark == nil)
    #expect(pair.host.phase == .closed(.versionMismatch(ours: ProtocolVersion.supported, theirs: [1])))
    #expect(!pair.hostEvents.contains { if case .send(.coinCommit) = $0 { true } else { false } })
    #expect(!pair.hostEvents.contains { if case .send(.welcome) = $0 { true } else { false } })
    #expect(!ProtocolVersion.supported.contains(1))
  }

  /// `coin kept` is the host's, once, instead of the commitment, and only in version 2.
  @Test func coinKeptOutOfPlaceIsAViolation() {
    // A joiner configured for version 1 alone (this build offers it to no one) against a host that speaks it.
    var versionOne = NetSession(
      configuration: .init(role: .joiner, name: "Bob", software: "test", versions: [1]),
      coinBytes: Array(repeating: 0, count: 32), sha256: testHash, now: 0)
    _ = versionOne.start(now: 0)
    _ = versionOne.receive(.hello(versions: [1], name: "Alice", software: "t"), now: 0)
    _ = versionOne.receive(.welcome(version: 1, rules: .standard), now: 0)
    let refused = versionOne.receive(.coinKept(hostPlaysX: true), now: 0)
    #expect(refused.contains { if case .closed = $0 { true } else { false } }, "\(refused)")

    var afterCommit = SessionPair()
    afterCommit.send(fromHost: afterCommit.host.start(now: 0))
    afterCommit.send(fromJoiner: afterCommit.joiner.start(now: 0))
    afterCommit.settle()
    _ = afterCommit.joiner.receive(.welcome(version: 2, rules: .standard), now: 0)
    _ = afterCommit.joiner.receive(.coinCommit(digest: Array(repeating: 0, count: 32)), now: 0)
    let late = afterCommit.joiner.receive(.coinKept(hostPlaysX: true), now: 0)
    #expect(late.contains { if case .closed = $0 { true } else { false } }, "\(late)")
    #expect(afterCommit.joiner.myMark == nil)

    var onHost = SessionPair()
    onHost.startMatch()
    let backwards = onHost.host.receive(.coinKept(hostPlaysX: false), now: 0)
    #expect(backwards.contains { if case .closed = $0 { true } else { false } }, "\(backwards)")
  }

  /// What the host keeps: whether it played X in the latest game begun.
  @Test func theHostKnowsWhoPlayedXLast() throws {
    var pair = SessionPair(hostCoin: 0, joinerCoin: 1)
    #expect(pair.host.hostPlayedXLast == nil)
    pair.startMatch()
    #expect(pair.host.hostPlayedXLast == (pair.host.myMark == .x))
    pair.deliver(fromHost: try pair.host.resign(now: 0))
    pair.deliver(fromJoiner: try pair.joiner.offerRematch(now: 0))
    pair.deliver(fromHost: try pair.host.offerRematch(now: 0))
    #expect(pair.host.hostPlayedXLast == (pair.host.myMark == .x))
  }
}

/// Heartbeats keep a connection alive (one every 3 s); a flood of them is a violation, not liveness.
@Suite struct HeartbeatFloodTests {
  @Test func moreThanTwentyWithinASecondEndTheSession() {
    var pair = SessionPair()
    pair.startMatch()
    for index in 0..<NetSession.heartbeatBurst {
      #expect(pair.host.receive(.heartbeat, now: 10 + Double(index) * 0.01).isEmpty)
    }
    let flooded = pair.host.receive(.heartbeat, now: 10.5)
    #expect(flooded.contains { if case .closed = $0 { true } else { false } }, "\(flooded)")
    #expect(flooded.contains(.send(.error(text: "more than 20 heartbeats within a second"))), "\(flooded)")
  }

  @Test func steadyHeartbeatsAreFine() {
    var pair = SessionPair()
    pair.startMatch()
    for index in 0..<200 { #expect(pair.host.receive(.heartbeat, now: 10 + Double(index) * 0.1).isEmpty) }
    #expect(!pair.host.isClosed)
  }
}
