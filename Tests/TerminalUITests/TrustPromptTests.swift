import GameCore
import Testing
import UntrustedText

@testable import TerminalUI

/// The full-screen trust question: only a lone `y` or `n` answers it; a typed or pasted fingerprint is read
/// whole and must match the key shown.
@Suite struct TrustPromptTests {
  private let key = "SHA256:47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU"

  private func asked() -> UIController {
    var ui = Screens.ui(80, 24, .unicode)
    var net = NetGameState(isHost: false, myName: "bob")
    net.question = .init(lines: ["The host alice is new to you. Trust it?", "Key: \(key)"], fingerprint: key)
    ui.showNetwork(net)
    return ui
  }

  private func type(_ text: String, into ui: inout UIController) -> [Effect] {
    text.flatMap { ui.handle(.character($0)) }
  }

  @Test func aLoneYAcceptsAndALoneNOrEscRefuses() {
    var yes = asked()
    #expect(yes.handle(.character("y")) == [.netAnswer(true)])
    var no = asked()
    #expect(no.handle(.character("N")) == [.netAnswer(false)])
    var escape = asked()
    #expect(escape.handle(.escape) == [.netAnswer(false)])
  }

  @Test func aTypedWrongFingerprintContainingYIsNotAnAnswer() {
    var ui = asked()
    #expect(type("SHA256:QQYQ0000", into: &ui) == [])
    #expect(ui.state.net?.question?.entry == "SHA256:QQYQ0000")
    #expect(ui.handle(.enter) == [])
    #expect(ui.state.net?.question?.problem?.contains("does not match") == true)
    #expect(ui.state.net?.question?.entry == nil)
    #expect(Screens.text(ui).contains("does not match the key shown"))
  }

  @Test func aPastedWrongFingerprintIsRefusedEvenIfItStartsWithY() {
    var ui = asked()
    #expect(ui.handle(.paste("yYyY0000")) == [])
    #expect(ui.handle(.enter) == [])
    #expect(ui.state.net?.question != nil)
    #expect(ui.handle(.paste("SHA256:QQYQ0000")) == [])
    #expect(ui.handle(.enter) == [])
    #expect(ui.state.net?.question?.problem != nil)
  }

  @Test func theRightFingerprintTypedOrPastedAccepts() {
    var typed = asked()
    #expect(type(key, into: &typed) == [])
    #expect(typed.handle(.enter) == [.netAnswer(true)])
    var pasted = asked()
    #expect(pasted.handle(.paste(key + "\n")) == [])
    #expect(pasted.handle(.enter) == [.netAnswer(true)])
    var bare = asked()
    _ = bare.handle(.paste(String(key.dropFirst("SHA256:".count)) + "="))
    #expect(bare.handle(.enter) == [.netAnswer(true)])
  }

  @Test func aFingerprintDifferingOnlyInCaseIsRefused() {
    var ui = asked()
    _ = ui.handle(.paste(key.lowercased()))
    #expect(ui.handle(.enter) == [])
  }

  @Test func escapeLeavesTheFieldAndBackspaceEdits() {
    var ui = asked()
    _ = type("SHA256:x", into: &ui)
    _ = ui.handle(.backspace)
    #expect(ui.state.net?.question?.entry == "SHA256:")
    #expect(ui.handle(.escape) == [])
    #expect(ui.state.net?.question?.entry == nil)
    #expect(ui.handle(.character("y")) == [.netAnswer(true)])
  }

  @Test func theDialogShowsTheFieldAndItsKeys() {
    var ui = asked()
    #expect(Screens.text(ui).contains("y accept · n refuse"))
    _ = ui.handle(.paste("SHA256:abc"))
    let text = Screens.text(ui)
    #expect(text.contains("Fingerprint: SHA256:abc_"))
    #expect(text.contains("Enter check · Esc back"))
  }

  @Test func characterRunsReadTogetherBecomeOnePaste() {
    #expect(KeyMap.groupingText([.character("y")]) == [.character("y")])
    #expect(KeyMap.groupingText([.character("y"), .character("e"), .character("s")]) == [.paste("yes")])
    // A line break inside text read at once is the paste's, so a pasted "ab", new line, "y" is one paste: its
    // y is no answer to a trust question. Enter after the text is still Enter.
    #expect(
      KeyMap.groupingText([.up, .character("a"), .character("b"), .enter, .character("y")])
        == [.up, .paste("ab\ny")])
    #expect(KeyMap.groupingText([.character("a"), .character("b"), .enter]) == [.paste("ab"), .enter])
    #expect(KeyMap.groupingText([.enter, .character("y")]) == [.enter, .character("y")])
  }

  @Test func aPasteWhereNothingIsTypedActsAsItsKeys() {
    var ui = Screens.ui(80, 24, .unicode)
    _ = ui.handle(.down)
    _ = ui.handle(.enter)
    _ = ui.handle(.paste("14"))
    #expect(ui.state.match?.game.board[Position(row: 0, column: 0)] == .x)
    #expect(ui.state.match?.game.board[Position(row: 1, column: 0)] == .o)
  }
}

/// Peer text drawn on the screen: every control, bidirectional or invisible character becomes a visible
/// escape, so no cell can carry terminal control and a NUL cannot cut a line.
@Suite struct HostileScreenTextTests {
  @Test func aHostileNameAndChatAreShownEscaped() {
    var ui = Screens.ui(80, 24, .unicode)
    var net = NetGameState(isHost: true, myName: "alice")
    net.peerName = PeerText("ma\u{0}llory\u{1B}]2;pwned\u{07}")
    net.peerFingerprint = "SHA256:abc"
    net.game = Game(rules: .standard)
    net.myMark = .x
    net.addChat(.peer(name: net.peerName, text: PeerText("x\u{1B}[2J\nFAKE: alice wins!")))
    ui.showNetwork(net)
    let screen = Renderer.render(ui.state)
    for cell in screen.cells {
      #expect(!cell.character.unicodeScalars.contains(where: VisibleText.isUnsafe), "cell \(cell)")
    }
    let text = screen.text
    #expect(text.contains("vs ma\\x00llory\\x1B]2;pwned\\x07 SHA256:abc"))
    #expect(text.contains("x\\x1B[2J\\nFAKE: alice wins!"))
  }

  @Test func rawControlsPutIntoTheBufferAreEscapedToo() {
    var screen = ScreenBuffer(width: 20, height: 1)
    screen.put("a\u{1B}b\u{202E}c", row: 0, column: 0)
    #expect(screen.lines == ["a\\x1Bb\\u{202E}c"])
  }
}

/// A warning about keys is shown whole at 80×24, as OpenSSH prints it: both fingerprints, the file and line,
/// and the command to run; nothing is cut off with "…".
@Suite struct KeyWarningScreenTests {
  @Test func keyChangedIsShownWholeAt80By24() {
    let known = "SHA256:WgkImN8BI+nzbNpiYKH6QUG7u2uLe/mithogm/sn2D4"
    let presented = "SHA256:DDM70ZNVevl2E9VZ3Q9P3t55KaukXzErkfeyf3FQ1Kw"
    let warning = """
      WARNING: alice's key has changed.
        known:     \(known)  (/home/bob/.local/share/tictactoe/known_peers:1)
        presented: \(presented)
      Someone may be pretending to be alice, or alice made a new identity. Compare the new fingerprint with \
      alice by another way; if it is right, run `tictactoe peers forget \(known)` and connect again.
      """
    var ui = Screens.ui(80, 24, .unicode)
    var net = NetGameState(isHost: false, myName: "bob")
    net.info = ["Connecting to 127.0.0.1:7392…"]
    net.ended = warning
    ui.showNetwork(net)
    let text = Screens.text(ui)
    #expect(text.contains("WARNING: alice's key has changed."), "\(text)")
    #expect(text.contains("known:     \(known)"), "\(text)")
    #expect(text.contains("presented: \(presented)"), "\(text)")
    #expect(text.contains("known_peers:1"), "\(text)")
    #expect(text.contains("`tictactoe peers forget \(known)`"), "\(text)")
    // (The "Connecting to …" line ends in an ellipsis of its own.)
    #expect(!text.split(separator: "\n").contains { $0.hasSuffix("…") && !$0.contains("Connecting") }, "\(text)")
  }
}
