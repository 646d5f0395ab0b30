import GameCore
import Session
import Testing
import WireProtocol

@testable import MatchCoordination

/// Chat among spectators (PROTOCOL.md, "Version 4: watching"): what a spectator says goes to the other spectators
/// and to nobody else, at most 5 messages in 10 s; the players' chat never reaches a spectator.
@Suite struct SpectatorChatTests {
  static func chats(_ pair: MatchPair, to id: ConnectionID) -> [Message] {
    SpectatorCoordinatorTests.sent(pair, to: id).filter {
      switch $0 {
      case .watchChat, .chat: true
      default: false
      }
    }
  }

  @Test func aSpectatorsChatReachesTheOtherSpectatorsOnly() throws {
    var pair = SpectatorCoordinatorTests.pair(.anyone)
    try pair.play([0])
    let carol = SpectatorCoordinatorTests.watch(&pair, from: "192.0.2.9:4000")
    let dave = SpectatorCoordinatorTests.watch(&pair, from: "192.0.2.9:4001", key: MatchPair.key(4))
    let joinerID = pair.links[0].host
    let sentToJoinerBefore = pair.hostCommands.filter { if case .send(joinerID, _) = $0 { true } else { false } }.count
    pair.hostDid(pair.host.received(carol, .chat("nice opening"), now: pair.now))
    #expect(Self.chats(pair, to: dave) == [.watchChat(name: "carol", text: "nice opening")])
    #expect(Self.chats(pair, to: carol).isEmpty, "not echoed to its sender")
    let sentToJoiner = pair.hostCommands.filter { if case .send(joinerID, _) = $0 { true } else { false } }.count
    #expect(sentToJoiner == sentToJoinerBefore, "the joiner is sent nothing of it")
    #expect(!pair.hostEvents.contains { if case .session(.chat) = $0 { true } else { false } }, "nor the host's player")
    // The players' chat reaches no spectator.
    let now = pair.now
    pair.joinerDid(
      try pair.joiner.attempt(now: now) { (session) throws(ActionRefusal) in try session.chat("psst", now: now) })
    pair.deliver()
    #expect(Self.chats(pair, to: carol).isEmpty && Self.chats(pair, to: dave).count == 1)
  }

  @Test func atMostFiveInTenSecondsArePassedOn() throws {
    var pair = SpectatorCoordinatorTests.pair(.anyone)
    try pair.play([0])
    let carol = SpectatorCoordinatorTests.watch(&pair, from: "192.0.2.9:4000")
    let dave = SpectatorCoordinatorTests.watch(&pair, from: "192.0.2.9:4001", key: MatchPair.key(4))
    for index in 0..<7 {
      pair.hostDid(pair.host.received(carol, .chat("line \(index)"), now: pair.now + Double(index) * 0.5))
    }
    #expect(Self.chats(pair, to: dave).count == Spectators.chatsPerWindow)
    #expect(pair.host.spectators.contains(carol), "too much chat is dropped, the spectator is not")
    pair.hostDid(pair.host.received(carol, .chat("later"), now: pair.now + Spectators.chatWindow + 0.1))
    #expect(Self.chats(pair, to: dave).last == .watchChat(name: "carol", text: "later"))
  }
}
