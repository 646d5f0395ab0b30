import GameCore
import Testing

@testable import TerminalUI

/// Leaving and resigning a network game ask first; the help lists the keys of the screen it was opened on.
@Suite struct NetworkKeysTests {
  static func inGame(result: String? = nil) -> UIController {
    var ui = Screens.ui(80, 24, .unicode)
    var net = NetGameState(isHost: true, myName: "alice")
    net.game = Game(rules: .standard)
    net.myMark = .x
    net.result = result
    ui.showNetwork(net)
    return ui
  }

  @Test("q or Esc during a game asks; y leaves, n or Esc stays")
  func leavingAsks() {
    for key in [Key.escape, .character("q")] {
      var ui = Self.inGame()
      #expect(ui.handle(key) == [])
      #expect(ui.state.net?.confirming == .leave)
      #expect(Screens.text(ui).contains("counts as a loss for you"))
      #expect(ui.handle(.character("y")) == [.netLeave])
      var stay = Self.inGame()
      _ = stay.handle(key)
      #expect(stay.handle(.escape) == [])
      #expect(stay.state.net?.confirming == nil)
      #expect(stay.handle(.character("5")) == [.netPlay(Position(row: 1, column: 1))], "the game goes on")
    }
  }

  @Test("after the game, q leaves at once")
  func leavingAfterTheGame() {
    var ui = Self.inGame(result: "You win!")
    #expect(ui.handle(.character("q")) == [.netLeave])
  }

  @Test("R asks before resigning; n plays on")
  func resigningAsks() {
    var ui = Self.inGame()
    #expect(ui.handle(.character("R")) == [])
    #expect(Screens.text(ui).contains("Resign this game?"))
    #expect(ui.handle(.character("n")) == [])
    _ = ui.handle(.character("R"))
    #expect(ui.handle(.character("y")) == [.netResign])
    var over = Self.inGame(result: "You resigned.")
    #expect(over.handle(.character("R")) == [] && over.state.net?.confirming == nil, "nothing to resign")
  }

  @Test("the help in a network game lists its keys, not undo or new game; the footer offers it")
  func networkHelp() {
    var ui = Self.inGame()
    #expect(Screens.text(ui).contains("? help"))
    _ = ui.handle(.character("?"))
    let help = Screens.text(ui)
    for key in ["c  ", "R  ", "n  ", "v  ", "w  ", "Ctrl-L", "PgUp PgDn"] {
      #expect(help.contains(key), "\(key)\n\(help)")
    }
    #expect(!help.contains("undo"))
    #expect(!help.contains("new game"))
  }

  @Test("the help on the join screen lists the field's keys")
  func joinHelp() {
    var state = Screens.ui(80, 24, .unicode).state
    state.lobbySelection = .join
    var ui = UIController(state: state)
    _ = ui.handle(.enter)
    _ = ui.handle(.function(1))
    let help = Screens.text(ui)
    #expect(help.contains("Ctrl-W") && help.contains("a recent address"), "\(help)")
  }
}

@Suite struct JoinerWaitingTests {
  @Test("a joiner that knows its host but has no game yet is told the host is letting it in")
  func waitingToBeLetIn() {
    var ui = Screens.ui(80, 24, .unicode)
    var net = NetGameState(isHost: false, myName: "bob")
    ui.showNetwork(net)
    #expect(!Screens.text(ui).contains("to let you in"), "before the host's hello there is no name to wait for")
    net.peerName = "alice"
    ui.showNetwork(net)
    #expect(Screens.text(ui).contains("Waiting for alice to let you in."))
    net.game = Game(rules: .standard)
    net.myMark = .o
    ui.showNetwork(net)
    #expect(!Screens.text(ui).contains("to let you in"), "the game started")
    var host = Screens.ui(80, 24, .unicode)
    var hosting = NetGameState(isHost: true, myName: "alice")
    hosting.peerName = "bob"
    host.showNetwork(hosting)
    #expect(!Screens.text(host).contains("to let you in"))
  }
}
