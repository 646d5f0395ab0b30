import GameCore
import Testing
import UntrustedText

@testable import TerminalUI

/// A spectator's full screen (`tictactoe watch`): the board, both players with their keys shortened, whose turn,
/// the clocks, the last move, the result and the score, how many watch; q leaves at once; a name from the host
/// reaches the screen only through the sanitiser.
@Suite struct WatchScreenTests {
  static let hostKey = "SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA"
  static let joinerKey = "SHA256:Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0PpOoNnMmLlKkJ"

  /// A spectator's screen of game `number` on `size`×`size` with `moves` in notation.
  static func watching(
    size: Int, k: Int, moves: [String], host: String = "alice", joiner: String = "bob", number: Int = 2,
    result: String? = nil, width: Int = 80, height: Int = 24, glyphs: Glyphs = .unicode
  ) throws -> UIController {
    var ui = Screens.ui(width, height, glyphs)
    var net = NetGameState(isHost: false, myName: "carol")
    net.peerName = PeerText(host)
    var watching = NetGameState.Watching()
    watching.host = .init(name: PeerText(host), key: NetGameState.Watching.shortKey(hostKey))
    watching.joiner = .init(name: PeerText(joiner), key: NetGameState.Watching.shortKey(joinerKey))
    watching.hostPlaysX = false
    watching.gameNumber = number
    watching.score = [1, 0, 0]
    watching.result = result
    net.watching = watching
    let rules = try Rules(size: size, k: k)
    net.game = try Game(rules: rules, moves: moves.compactMap(Coordinates(rules).position(named:)))
    net.spectators = 3
    net.addChat(.note("Game \(number), a rematch: \(joiner) (X) against \(host) (O)."))
    ui.showNetwork(net)
    return ui
  }

  @Test func fifteenByFifteenAtEightyByTwentyFour() throws {
    var ui = try Self.watching(size: 15, k: 5, moves: ["h8", "h9", "i9"])
    ui.updateNetwork { $0.clocks = .init(mine: 272_000, theirs: 300_000, running: .theirs, control: "5+3") }
    let text = Screens.text(ui)
    #expect(text == WatchScreenGoldens.fifteen, "\(text)")
  }

  @Test func threeByThreeWithTheResult() throws {
    let ui = try Self.watching(
      size: 3, k: 3, moves: ["a1", "a2", "b1", "b2", "c1"], result: "bob (X) wins with a line")
    let text = Screens.text(ui)
    #expect(text == WatchScreenGoldens.three, "\(text)")
  }

  @Test func theStatusSaysWhoseTurnAndTheLastMove() throws {
    let ui = try Self.watching(size: 15, k: 5, moves: ["h8"])
    let text = Screens.text(ui)
    #expect(text.contains("bob plays h8. alice (O) to\n") && text.contains(" move.\n"), "\(text)")
    #expect(text.contains("Watching game 2: bob (X) SHA256:Zz9Yy8Xx7Ww6 vs alice (O) SHA256:q8W1r4c0ZkQm"), "\(text)")
    #expect(text.contains("alice 1 · bob 0 · draws 0") && text.contains("3 watching"), "\(text)")
  }

  /// The host left mid-game: the panel says the game ended unfinished and why, not the player's "your opponent
  /// left", and any key leaves.
  @Test func anUnfinishedGameSaysWhyInTheSpectatorsWords() throws {
    var ui = try Self.watching(size: 15, k: 5, moves: ["h8", "h9"])
    ui.updateNetwork {
      $0.watching?.unfinished = "Game 2 ended unfinished: the match is over: alice, the host, left."
      $0.ended = "Your opponent left: the match is over: alice, the host, left"
    }
    let text = Screens.text(ui)
    #expect(text.contains("Game 2 ended unfinished: the") && !text.contains("Your opponent"), "\(text)")
    #expect(text.contains("any key: leave") && !text.contains("join again"), "\(text)")
    #expect(ui.handle(.character("x")) == [.netLeave])
  }

  @Test func aTerminalTooSmallSaysSoAndQStillLeaves() throws {
    var ui = try Self.watching(size: 15, k: 5, moves: ["h8"], width: 40, height: 12)
    #expect(Screens.text(ui).contains("Too small: need 50×25"), "\(Screens.text(ui))")
    #expect(ui.handle(.character("q")) == [.netLeave])
  }

  @Test func qOrEscLeavesAtOnceAndNoKeyReachesTheBoard() throws {
    for key in [Key.character("q"), .escape] {
      var ui = try Self.watching(size: 15, k: 5, moves: ["h8"])
      #expect(ui.handle(key) == [.netLeave], "\(key)")
      #expect(ui.state.net?.confirming == nil)
    }
    var ui = try Self.watching(size: 3, k: 3, moves: ["a1"])
    let before = ui.state.net
    for key in [Key.enter, .character("5"), .character("R"), .character("n"), .character("D"), .down] {
      #expect(ui.handle(key) == [], "\(key)")
    }
    #expect(ui.state.net == before)
  }

  @Test func cOpensTheSpectatorsChatAndEnterSendsIt() throws {
    var ui = try Self.watching(size: 15, k: 5, moves: ["h8"])
    #expect(ui.handle(.character("c")) == [] && ui.state.net?.chatField != nil)
    for character in "gg" { _ = ui.handle(.character(character)) }
    #expect(ui.handle(.character("q")) == [], "q is typed into the field, it does not leave")
    #expect(ui.handle(.enter) == [.netChat("ggq")] && ui.state.net?.chatField == nil)
  }

  /// Names and a result made of escapes, C1 controls, bidi overrides and line breaks: no control or format
  /// character (Unicode's categories Cc and Cf) reaches the screen.
  @Test func hostileNamesNeverReachTheScreenAsControls() throws {
    let hostile = "\u{1B}]0;pwned\u{07}\u{1B}[2J\u{9B}31m\u{202E}evil\n\r\u{200B}"
    let ui = try Self.watching(size: 15, k: 5, moves: ["h8", "i9"], host: hostile, joiner: hostile + "2")
    let text = Renderer.render(ui.state).lines.joined()
    let bad = text.unicodeScalars.filter {
      [.control, .format].contains($0.properties.generalCategory)
    }
    #expect(bad.isEmpty, "\(bad.map { String($0.value, radix: 16) })")
    #expect(text.contains("pwned"), "the name is shown, made harmless: \(text)")
  }
}
