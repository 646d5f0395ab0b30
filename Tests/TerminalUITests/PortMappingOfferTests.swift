import GameCore
import Testing

@testable import TerminalUI

/// The full-screen host offers, once, to ask the router to open its port: m yes, M never; the answer is saved.
@Suite struct PortMappingOfferTests {
  static func hosting(offer: UInt16? = 7177) -> UIController {
    var ui = Screens.ui(80, 24, .unicode)
    var net = NetGameState(isHost: true, myName: "alice")
    net.info = ["Hosting 3×3, 3 in a row as alice on port 7177.", "Waiting for an opponent…"]
    net.mapOffer = offer
    ui.showNetwork(net)
    return ui
  }

  @Test func theOfferIsShownWholeAndMOpensThePortAndSavesTheAnswer() {
    var ui = Self.hosting()
    let screen = Screens.text(ui)
    #expect(screen.contains("Let friends on the internet join? m: ask your router to open port 7177 to"), "\(screen)")
    #expect(screen.contains("M: never ask"), "\(screen)")
    var saved = ui.state.settings
    saved.mapPort = true
    // A stray m asks first: the router is asked and the answer saved only after y.
    #expect(ui.handle(.character("m")) == [])
    #expect(ui.state.net?.confirming == .mapPort(open: true))
    let asked = Screens.text(ui)
    #expect(asked.contains("Ask your router to open port 7177?") && asked.contains("y open it"), "\(asked)")
    for no in [Key.character("n"), .escape, .character("q")] {
      var stay = ui
      #expect(stay.handle(no) == [])
      #expect(stay.state.net?.mapOffer == 7177 && stay.state.settings.mapPort == nil, "nothing asked or saved")
    }
    #expect(ui.handle(.character("y")) == [.netMapPort(true), .saveSettings(saved)])
    #expect(ui.state.net?.mapOffer == nil && ui.state.settings.mapPort == true)
    #expect(!Screens.text(ui).contains("Let friends on the internet join"))
    #expect(ui.handle(.character("m")) == [], "asked once")
  }

  @Test func capitalMMeansNeverAsk() {
    var ui = Self.hosting()
    var saved = ui.state.settings
    saved.mapPort = false
    #expect(ui.handle(.character("M")) == [])
    #expect(Screens.text(ui).contains("Never ask about the router again?"))
    #expect(ui.handle(.character("y")) == [.netMapPort(false), .saveSettings(saved)])
    #expect(ui.state.net?.mapOffer == nil)
  }

  @Test func withoutAnOfferMIsNothing() {
    var ui = Self.hosting(offer: nil)
    #expect(ui.handle(.character("m")) == [])
    #expect(!Screens.text(ui).contains("Let friends on the internet join"))
  }
}
