import GameCore
import Testing

@testable import TerminalUI

/// The full-screen host waiting at a relay asks for a new invite with `i`, confirmed first: a stray key does not
/// stop the invites already sent from working. The question and the keys fit 80×24.
@Suite struct NewInviteKeyTests {
  static func hosting(canMakeNewInvite: Bool = true, width: Int = 80, height: Int = 24) -> UIController {
    var ui = Screens.ui(width, height, .unicode)
    var net = NetGameState(isHost: true, myName: "alice")
    net.info = [
      "Hosting 3×3, 3 in a row as alice on port 7177.",
      "Invite: tictactoe:NfV413ihX7olE1WCeUeMm_iv8kW6FUcxZWvApqxXqTQ@127.0.0.1/7177,relay:127.0.0.1/4001/T2dudvuU",
      "Waiting for an opponent…",
    ]
    net.canMakeNewInvite = canMakeNewInvite
    ui.showNetwork(net)
    return ui
  }

  @Test func iAsksFirstAndOnlyYMakesTheNewInvite() {
    var ui = Self.hosting()
    #expect(Screens.text(ui).contains("i new invite"), "the key is in the legend: \(Screens.text(ui))")
    #expect(ui.handle(.character("i")) == [])
    #expect(ui.state.net?.confirming == .newInvite)
    let asked = Screens.text(ui)
    #expect(asked.contains("Make a new invite?"), "\(asked)")
    #expect(asked.contains("will no longer come in through the relay"), "\(asked)")
    #expect(asked.contains("y make a new invite"), "\(asked)")
    #expect(ui.handle(.character("y")) == [.netNewInvite])
    #expect(ui.state.net?.confirming == nil)
  }

  @Test func aStrayKeyOrNoKeepsTheInvite() {
    for stray in [Key.character("x"), .character("i"), .enter, .character(" "), .character("5")] {
      var ui = Self.hosting()
      _ = ui.handle(.character("i"))
      #expect(ui.handle(stray) == [], "\(stray)")
      #expect(ui.state.net?.confirming == .newInvite, "still asking after \(stray)")
    }
    for no in [Key.character("n"), .escape, .character("q")] {
      var ui = Self.hosting()
      _ = ui.handle(.character("i"))
      #expect(ui.handle(no) == [], "\(no)")
      #expect(ui.state.net?.confirming == nil, "dropped by \(no)")
      #expect(ui.handle(.character("y")) == [], "a later y makes nothing")
    }
  }

  @Test func withoutARelayOrDuringAGameINothing() {
    var ui = Self.hosting(canMakeNewInvite: false)
    #expect(ui.handle(.character("i")) == [] && ui.state.net?.confirming == nil)
    #expect(!Screens.text(ui).contains("new invite"))
    ui = Self.hosting()
    ui.updateNetwork { $0.game = Game(rules: .standard) }
    #expect(ui.handle(.character("i")) == [] && ui.state.net?.confirming == nil)
  }

  @Test func theHelpNamesTheKeyAndFits80By24() {
    var ui = Self.hosting()
    _ = ui.handle(.character("?"))
    let help = Screens.text(ui)
    #expect(help.contains("a new invite: old ones stop at the relay (asks)"), "\(help)")
    #expect(help.contains("Press any key to close."), "the whole box is on the screen: \(help)")
  }
}
