import GameCore
import Testing

@testable import TerminalUI

/// The editing keys in each of the screens' text fields, through the controller, and Ctrl-L everywhere.
@Suite struct FieldEditingTests {
  static func joinScreen(recent: [String] = []) -> UIController {
    var state = Screens.ui(80, 24, .unicode).state
    state.recentAddresses = recent
    state.lobbySelection = .join
    var ui = UIController(state: state)
    _ = ui.handle(.enter)
    #expect(ui.state.page == .joinAddress)
    return ui
  }

  static func keys(_ keys: [Key], into ui: inout UIController) -> [Effect] {
    keys.flatMap { ui.handle($0) }
  }

  @Test("the address field: a recent address edited in the middle, then joined")
  func addressField() {
    var ui = Self.joinScreen(recent: ["alice.example:7177"])
    #expect(ui.state.addressDraft == "alice.example:7177")
    // Ctrl-W takes the last word (the whole address here: no space), Home/End move.
    _ = Self.keys([.home, .delete, .character("A"), .end, .backspace, .character("8")], into: &ui)
    #expect(ui.state.addressDraft == "Alice.example:7178")
    _ = Self.keys([.control("a"), .control("k")], into: &ui)
    #expect(ui.state.addressDraft == "")
    _ = Self.keys([.paste("bob.example"), .left, .left, .left, .left, .left, .left, .left, .control("u")], into: &ui)
    #expect(ui.state.addressDraft == "example")
    #expect(ui.handle(.enter) == [.join("example")])
  }

  @Test("the join screen shows the cursor inside the address, and the end of a long one")
  func addressOnScreen() {
    var ui = Self.joinScreen()
    let long = "[fe80::1234:5678:9abc:def0%enp3s0f1]:7177" + String(repeating: "x", count: 60)
    _ = ui.handle(.paste(long))
    var screen = Renderer.render(ui.state)
    let row = screen.text.split(separator: "\n", omittingEmptySubsequences: false)[5]
    #expect(row.hasSuffix("x_"), "the end of the address and the cursor are in sight: \(row)")
    #expect(!row.contains("…"))
    _ = Self.keys(Array(repeating: Key.home, count: 1), into: &ui)
    screen = Renderer.render(ui.state)
    let start = screen.text.split(separator: "\n", omittingEmptySubsequences: false)[5]
    #expect(start.contains(" Address: [fe80::1234"), "after Home the start shows: \(start)")
    #expect(screen[5, 10].style.reverse, "the cursor's cell is reversed")
    #expect(screen[5, 10].character == "[")
  }

  static func inMatch() -> UIController {
    var ui = Screens.ui(80, 24, .unicode)
    var net = NetGameState(isHost: true, myName: "alice")
    net.game = Game(rules: .standard)
    net.myMark = .x
    ui.showNetwork(net)
    return ui
  }

  @Test("the chat field: typed, edited with the line keys, sent whole; a long line scrolls in its field")
  func chatField() {
    var ui = Self.inMatch()
    _ = Self.keys([.character("c"), .paste("good gme"), .left, .left, .character("a")], into: &ui)
    #expect(ui.state.net?.chatDraft == "good game")
    #expect(Self.keys([.end, .control("w"), .paste("luck")], into: &ui) == [])
    #expect(ui.state.net?.chatDraft == "good luck")
    let long = String(repeating: "word ", count: 30) + "END"
    _ = Self.keys([.control("u"), .paste(long)], into: &ui)
    let text = Screens.text(ui)
    #expect(text.contains("END_"), "the end of what is being typed is on screen:\n\(text)")
    _ = Self.keys([.control("u"), .paste("gg")], into: &ui)
    #expect(ui.handle(.enter) == [.netChat("gg")])
    #expect(ui.state.net?.chatField == nil)
  }

  @Test("the fingerprint field at a trust question takes the line keys; y typed there is text, not an answer")
  func fingerprintField() {
    let key = "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU"
    var ui = Screens.ui(80, 24, .unicode)
    var net = NetGameState(isHost: false, myName: "bob")
    net.question = .init(lines: ["The host alice is new to you. Trust it?", "Key: \(key)"], fingerprint: key)
    ui.showNetwork(net)
    // A paste with a typo in the middle, mended: Home, past the prefix, Delete the wrong character, type y.
    var wrong = Array(key)
    wrong[10] = "Q"
    _ = ui.handle(.paste(String(wrong)))
    _ = Self.keys([.home] + Array(repeating: .right, count: 10) + [.delete], into: &ui)
    #expect(ui.handle(.character(Array(key)[10])) == [])
    #expect(ui.state.net?.question?.entry == key)
    #expect(Screens.text(ui).contains("Fingerprint: "))
    #expect(ui.handle(.enter) == [.netAnswer(true)])
  }

  @Test("Ctrl-L asks for a repaint on every screen and changes nothing else")
  func ctrlL() {
    var lobby = Screens.ui(80, 24, .unicode)
    let before = lobby.state
    #expect(lobby.handle(.control("l")) == [.repaint])
    #expect(lobby.state.page == before.page && lobby.state.lobbySelection == before.lobbySelection)
    var join = Self.joinScreen(recent: ["a.example"])
    #expect(join.handle(.control("l")) == [.repaint])
    #expect(join.state.addressDraft == "a.example")
    var chat = Self.inMatch()
    _ = Self.keys([.character("c"), .paste("hi")], into: &chat)
    #expect(chat.handle(.control("l")) == [.repaint])
    #expect(chat.state.net?.chatDraft == "hi")
  }
}

@Suite struct RecentAddressTests {
  @Test("an address becomes a recent one when its host answers, never when the join fails")
  func onlyAnsweredJoinsAreRemembered() {
    var state = Screens.ui(80, 24, .unicode).state
    state.recentAddresses = ["old.example"]
    state.lobbySelection = .join
    var failing = UIController(state: state)
    _ = failing.handle(.enter)
    _ = failing.handle(.control("u"))
    _ = failing.handle(.paste("127.0.0.1:1"))
    #expect(failing.handle(.enter) == [.join("127.0.0.1:1")])
    #expect(failing.state.recentAddresses == ["old.example"], "not yet: the host has not answered")
    failing.showNetwork(NetGameState(isHost: false, myName: "bob"))
    _ = failing.leaveNetwork()
    #expect(failing.joinAnswered() == nil, "the failed join is forgotten")
    #expect(failing.state.recentAddresses == ["old.example"])

    var answered = UIController(state: state)
    _ = answered.handle(.enter)
    _ = answered.handle(.control("u"))
    _ = answered.handle(.paste("alice.example"))
    _ = answered.handle(.enter)
    #expect(answered.joinAnswered() == ["alice.example", "old.example"])
    #expect(answered.joinAnswered() == nil, "once")
  }
}
