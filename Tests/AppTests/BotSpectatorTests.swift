import GameCore
import Security
import Session
import Testing
import WireProtocol

@testable import App
@testable import PracticeBot

/// The practice bot's games cannot be watched yet (issue 27 leaves its game list for later): a spectator's hello is
/// refused as not watchable, and no game begins for it.
@Suite struct BotSpectatorTests {
  @Test func theBotTurnsAwayASpectator() {
    var bot = BotSeat(
      configuration: .init(role: .host, name: "Robo", software: "test", rules: .standard), level: .easy,
      admission: .letIn(remember: false), coinBytes: [UInt8](repeating: 7, count: 32), sha256: Digest.sha256,
      now: 0, chooseMove: { $0.legalMoves.first }, mayStartGame: { _ in nil })
    _ = bot.start(now: 0)
    let reaction = bot.receive(.hello(versions: [4, 3, 2], name: "carol", software: "t", watch: 0), now: 0)
    #expect(!reaction.admitted)
    #expect(reaction.messages.contains { if case .refuse(.notWatchable, _) = $0 { true } else { false } })
    #expect(!reaction.messages.contains { if case .welcome = $0 { true } else { false } })
  }
}
