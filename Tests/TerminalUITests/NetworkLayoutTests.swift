import GameCore
import Testing
import UntrustedText

@testable import TerminalUI

/// No move is taken while the board is off the screen; the chat scrolls back and marks what came meanwhile.
@Suite struct NetworkLayoutTests {
  @Test func noMoveIsTakenWhileTheBoardIsNotShown() throws {
    var ui = try NetworkScreens.match(size: 15, k: 5, moves: [], glyphs: .unicode, width: 60, height: 20)
    #expect(Screens.text(ui).contains("Terminal too small"))
    let cursor = ui.state.net?.cursor
    for key in [Key.enter, .character(" "), .right, .character("k"), .click(row: 10, column: 20)] {
      #expect(ui.handle(key) == [], "\(key)")
    }
    #expect(ui.state.net?.cursor == cursor, "the cursor did not move unseen")
    ui.resize(width: 80, height: 24)
    #expect(ui.handle(.enter) == [.netPlay(Position(row: 7, column: 7))])
  }

  @Test func noLocalMoveIsTakenWhileTheBoardIsNotShown() {
    var ui = Screens.ui(40, 12, .unicode, size: 15, k: 5)
    _ = ui.handle(.down)
    _ = ui.handle(.enter)
    #expect(Screens.text(ui).contains("small: need"))
    _ = ui.handle(.enter)
    #expect(ui.state.match?.game.history == [])
    ui.resize(width: 80, height: 24)
    _ = ui.handle(.enter)
    #expect(ui.state.match?.game.history.count == 1)
  }

  @Test func leavingStillWorksWhileTheBoardIsNotShown() throws {
    var ui = try NetworkScreens.match(size: 15, k: 5, moves: ["h8"], glyphs: .unicode, width: 60, height: 20)
    _ = ui.handle(.character("q"))
    #expect(ui.state.net?.confirming == .leave)
    #expect(Screens.text(ui).contains("Leave the match?"), "the question is drawn though the board does not fit")
    #expect(ui.handle(.character("y")) == [.netLeave])
  }

  private func chatty(_ count: Int) throws -> UIController {
    var ui = try NetworkScreens.match(size: 3, k: 3, moves: [], glyphs: .unicode)
    ui.updateNetwork { net in
      for n in 1...count { net.addChat(.peer(name: "bob", text: PeerText("message \(n)"))) }
    }
    return ui
  }

  @Test func pageUpShowsEarlierMessagesAndPageDownComesBack() throws {
    var ui = try chatty(30)
    #expect(Screens.text(ui).contains("bob: message 30"))
    _ = ui.handle(.pageUp)
    _ = ui.handle(.pageUp)
    var text = Screens.text(ui)
    #expect(text.contains("bob: message 20") && !text.contains("bob: message 21"))
    #expect(text.contains("↓ 10 more · PgDn"))
    for _ in 0..<10 { _ = ui.handle(.pageUp) }
    text = Screens.text(ui)
    #expect(text.contains("· Game 4: you play X and move first."), "back to the first message, no further")
    #expect(text.contains("bob: message 1\n"), "the pane stays full")
    for _ in 0..<10 { _ = ui.handle(.pageDown) }
    text = Screens.text(ui)
    #expect(text.contains("bob: message 30") && !text.contains("more · PgDn"))
  }

  @Test func messagesThatComeWhileScrolledBackAreMarkedNew() throws {
    var ui = try chatty(30)
    _ = ui.handle(.pageUp)
    ui.updateNetwork { net in
      net.addChat(.peer(name: "bob", text: "are you there?"))
      net.addChat(.peer(name: "bob", text: "hello?"))
    }
    var text = Screens.text(ui)
    #expect(text.contains("↓ 2 new · PgDn"))
    #expect(!text.contains("hello?"), "the view stays where the player scrolled it")
    #expect(text.contains("bob: message 25"))
    _ = ui.handle(.pageDown)
    _ = ui.handle(.pageDown)
    text = Screens.text(ui)
    #expect(text.contains("bob: hello?") && !text.contains("new · PgDn"))
    #expect(ui.state.net?.chatUnread == 0)
  }

  @Test func theChatScrollsWhileTyping() throws {
    var ui = try chatty(30)
    _ = ui.handle(.character("c"))
    _ = ui.handle(.paste("hi"))
    _ = ui.handle(.pageUp)
    #expect(ui.state.net?.chatBack == UIController.chatPage)
    #expect(ui.state.net?.chatDraft == "hi", "PgUp is not typed into the field")
  }

  @Test func aJoinerWhoseMatchEndedJoinsAgainWithROnlyWhenOffered() throws {
    var ui = try NetworkScreens.match(size: 3, k: 3, moves: [], glyphs: .unicode)
    ui.updateNetwork { net in
      net.isHost = false
      net.ended = "The host left the game."
    }
    #expect(Screens.text(ui).contains(" any key: leave"))
    var offered = ui
    #expect(ui.handle(.character("r")) == [.netLeave])
    offered.updateNetwork { $0.canRejoin = true }
    #expect(Screens.text(offered).contains(" r join again · any other key: leave"))
    var other = offered
    #expect(offered.handle(.character("r")) == [.netRejoin])
    #expect(other.handle(.character("x")) == [.netLeave])
  }

  @Test func theHistoryKeepsTheLatestMessages() {
    var net = NetGameState(isHost: true, myName: "alice")
    for n in 1...(NetGameState.chatHistory + 20) { net.addChat(.note("\(n)")) }
    #expect(net.chat.count == NetGameState.chatHistory)
    #expect(net.chat.first == .note("21"))
  }
}

/// The move list beside a big board: pairs in notation, the latest lines when not all fit.
@Suite struct MoveListTests {
  @Test func theLatestPairsAreShownInWholeLines() throws {
    let rules = try Rules(size: 15, k: 5)
    var game = Game(rules: rules)
    // 29 moves along the top rows: a15, b15, ..., o15, then a14, b14, ... (X and O alternate: no five). Move 21
    // is f14 (row 2 from the top, the sixth column), the first of pair 11.
    for index in 0..<29 { try game.play(Position(row: index / 15, column: index % 15)) }
    let lines = NetPanelView.moveLines(game, width: 28, rows: 3)
    #expect(lines == [" 11. f14 g14   12. h14 i14", " 13. j14 k14   14. l14 m14", " 15. n14"])
    let one = NetPanelView.moveLines(game, width: 13, rows: 2)
    #expect(one == [" 14. l14 m14", " 15. n14"])
  }
}

/// Chat typed or pasted, and the count of messages not yet seen.
@Suite struct ChatPasteTests {
  private func typing() throws -> UIController {
    var ui = try NetworkScreens.match(size: 3, k: 3, moves: [], glyphs: .unicode)
    _ = ui.handle(.character("c"))
    return ui
  }

  @Test func aMultiLinePasteIsOneMessageWithSpacesBetweenItsLines() throws {
    var ui = try typing()
    _ = ui.handle(.paste("good game\nwell played\r\n\nagain?\tsure"))
    #expect(ui.state.net?.chatDraft == "good game well played again? sure")
    // An address or a fingerprint pasted over two lines stays one word.
    var field = TextField(limit: 100)
    field.insert("SHA256:ab\ncd")
    #expect(field.text == "SHA256:abcd")
  }

  @Test func aPasteCutToTheLimitSaysSo() throws {
    var ui = try typing()
    _ = ui.handle(.paste(String(repeating: "word ", count: 120)))  // 600 characters
    #expect(ui.state.net?.chatDraft?.utf8.count == NetGameState.chatLimit)
    #expect(Screens.text(ui).contains("Cut to fit: a message holds at most 400 bytes"), "\(Screens.text(ui))")
    var fits = try typing()
    _ = fits.handle(.paste("short"))
    #expect(!Screens.text(fits).contains("Cut to fit"))
  }

  /// Long messages that came while scrolled back: PgDn shows each one before it stops counting as new.
  @Test func pageDownSkipsNoUnreadMessage() throws {
    var ui = try NetworkScreens.match(size: 3, k: 3, moves: [], glyphs: .unicode)
    ui.updateNetwork { net in
      for n in 1...30 { net.addChat(.peer(name: "bob", text: PeerText("message \(n)"))) }
    }
    _ = ui.handle(.pageUp)
    let long = (1...6).map { "start\($0) " + String(repeating: "and so on and on ", count: 6) + "end\($0)" }
    ui.updateNetwork { net in for text in long { net.addChat(.peer(name: "bob", text: PeerText(text))) } }
    #expect(ui.state.net?.chatUnread == 6)
    var seen = Set<Int>()
    for _ in 0..<20 {
      _ = ui.handle(.pageDown)
      let text = Screens.text(ui)
      for n in 1...6 where text.contains("start\(n)") && text.contains("end\(n)") { seen.insert(n) }
      let nowUnread = ui.state.net?.chatUnread ?? 0
      // The messages no longer counted new are the oldest of the six: each was on the screen whole.
      for n in 1...6 where n <= 6 - nowUnread {
        #expect(seen.contains(n), "message \(n) stopped being new without being shown:\n\(text)")
      }
      if nowUnread == 0 { break }
    }
    #expect(ui.state.net?.chatUnread == 0)
  }
}

/// A reconnection's attempts are one line of the chat pane that changes, not two more lines a retry.
@Suite struct ReconnectNoteTests {
  @Test func attemptsUpdateOneLineUntilSomethingElseIsSaid() throws {
    var ui = try NetworkScreens.match(size: 15, k: 5, moves: ["h8"], glyphs: .unicode)
    let before = ui.state.net?.chat.count ?? 0
    ui.updateNetwork { net in
      for attempt in 1...6 {
        net.updateNote("Reconnecting to alice.local:7177 (attempt \(attempt))…")
        net.updateNote("Reconnection attempt \(attempt) failed: Connection refused. Next try in 2 s.")
      }
    }
    #expect(ui.state.net?.chat.count == before + 1)
    #expect(
      ui.state.net?.chat.last
        == .note("Reconnection attempt 6 failed: Connection refused. Next try in 2 s."))
    #expect(!Screens.text(ui).contains("attempt 5"))
    ui.updateNetwork { net in
      net.addChat(.peer(name: "alice", text: "back in a minute"))
      net.updateNote("Reconnecting to alice.local:7177 (attempt 7)…")
    }
    #expect(ui.state.net?.chat.count == before + 3, "after a message, a new line: the order stays true")
  }
}

/// A new game clears what the status line said about the moment before it.
@Suite struct StaleStatusTests {
  @Test func aRematchDropsTheVerificationCodeAndANotNowNotice() throws {
    var ui = try NetworkScreens.match(size: 3, k: 3, moves: ["b2", "a1"], glyphs: .unicode)
    ui.updateNetwork { $0.verificationCode = "apple banana cherry" }
    _ = ui.handle(.character("v"))
    #expect(Screens.text(ui).contains("Verification code: apple banana cherry"))
    ui.updateNetwork { $0.beginGame(try? Game(rules: Rules(size: 3, k: 3)), mark: .o) }
    #expect(ui.state.net?.notice == nil)
    #expect(!Screens.text(ui).contains("Verification code: apple"), "\(Screens.text(ui))")
    ui.updateNetwork { $0.notice = "Not now: the match has not started yet." }
    ui.updateNetwork { $0.beginGame(try? Game(rules: Rules(size: 3, k: 3)), mark: .x) }
    #expect(!Screens.text(ui).contains("Not now"))
    #expect(ui.state.net?.cursor == Position(row: 1, column: 1) && ui.state.net?.myMark == .x)
  }
}
