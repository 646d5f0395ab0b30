import GameCore
import Testing

@testable import TerminalUI

/// The networked match screen while the connection is down: the countdown, then the claim.
@Suite struct NetworkScreenTests {
  private func match(isHost: Bool, dropped: NetGameState.Dropped?) -> UIController {
    var ui = Screens.ui(80, 24, .unicode)
    var net = NetGameState(isHost: isHost, myName: "alice")
    net.peerName = "bob"
    net.game = Game(rules: .standard)
    net.myMark = .x
    net.dropped = dropped
    ui.showNetwork(net)
    return ui
  }

  @Test func theCountdownReadsInMinutesAndSeconds() {
    #expect(NetGameState.Dropped(secondsLeft: 120).clock == "2:00")
    #expect(NetGameState.Dropped(secondsLeft: 65).clock == "1:05")
    #expect(NetGameState.Dropped(secondsLeft: 9).clock == "0:09")
    #expect(NetGameState.Dropped(secondsLeft: -3).clock == "0:00")
  }

  @Test func theHostWaitsAndTheJoinerReconnects() {
    let host = Screens.text(match(isHost: true, dropped: .init(secondsLeft: 117)))
    #expect(host.contains("Connection lost: waiting for bob to reconnect (1:57)"))
    let joiner = Screens.text(match(isHost: false, dropped: .init(secondsLeft: 5)))
    #expect(joiner.contains("Connection lost: reconnecting (0:05)"))
  }

  @Test func onlyAClaimableGameIsClaimedWithW() {
    var waiting = match(isHost: true, dropped: .init(secondsLeft: 30))
    #expect(waiting.handle(.character("w")) == [])
    var expired = match(isHost: true, dropped: .init(secondsLeft: 0, claimable: true))
    let text = Screens.text(expired)
    #expect(text.contains("bob did not come back: w claim the win"))
    #expect(text.contains("w claim the win · c chat · q leave"))
    #expect(expired.handle(.character("w")) == [.netClaim])
    var connected = match(isHost: true, dropped: nil)
    #expect(connected.handle(.character("w")) == [])
  }
}
