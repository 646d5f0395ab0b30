import GameCore
import Testing

@testable import TerminalUI

/// The network screens at 80×24 (and a smaller terminal), UTF-8 and ASCII, with the longest texts a player meets:
/// nothing is cut, big boards fit, a dialog is drawn where a board would not fit.
@Suite struct NetworkGoldenTests {
  @Test(arguments: NetworkScreens.all.map(\.0))
  func screenMatchesItsGolden(name: String) throws {
    let make = try #require(NetworkScreens.all.first { $0.0 == name }?.1)
    let golden = try #require(NetworkGoldens.screens[name])
    let actual = Screens.text(try make())
    #expect(actual == golden, "\(name):\n\(actual)")
  }

  @Test(arguments: NetworkScreens.all.map(\.0))
  func noLineIsCutAndEveryLineFits(name: String) throws {
    let ui = try #require(try NetworkScreens.all.first { $0.0 == name }?.1())
    for line in Renderer.render(ui.state).lines {
      #expect(!line.hasSuffix("…") && !line.hasSuffix("..."), "\(name): \(line)")
      #expect(line.count <= ui.state.width, "\(name): \(line)")
    }
  }

  /// In ASCII the match screens are ASCII through and through (the fixtures' own texts are).
  @Test(arguments: ["net15x15ascii", "net9x9ascii", "net3x3ascii", "scrolledBackAscii", "joinerEndedAscii"])
  func asciiMatchScreensHoldOnlyASCII(name: String) throws {
    let ui = try #require(try NetworkScreens.all.first { $0.0 == name }?.1())
    let text = Screens.text(ui)
    let ascii = text.unicodeScalars.allSatisfy { $0.isASCII }
    #expect(ascii, "\(name):\n\(text)")
  }

  @Test(arguments: [(9, 5), (15, 5), (7, 4), (3, 3)])
  func aNetworkGameFitsEightyByTwentyFourWithTheLongestNames(size: Int, k: Int) throws {
    for glyphs in [Glyphs.unicode, .ascii] {
      let ui = try NetworkScreens.match(size: size, k: k, moves: ["a1"], glyphs: glyphs)
      let layout = try #require(NetGameView.screenLayout(for: ui.state), "\(size)×\(size)")
      #expect(layout.arrangement == (size == 3 ? .below : .beside))
      let text = Screens.text(ui)
      #expect(!text.contains("too small"))
      // Every cell is on the screen, inside it.
      for row in 0..<size {
        for column in 0..<size {
          let origin = layout.board.origin(of: Position(row: row, column: column))
          #expect(origin.row < 23 && origin.column + 2 < 80)
        }
      }
      #expect(layout.panel.left >= layout.board.left + layout.board.width || layout.panel.top > layout.board.top)
    }
  }

  @Test func theLongChatLineIsThereWholeOverSeveralRows() throws {
    let ui = try NetworkScreens.match(size: 15, k: 5, moves: ["h8"], glyphs: .unicode)
    let layout = try #require(NetGameView.screenLayout(for: ui.state))
    let panel = Renderer.render(ui.state).lines.map { line -> String in
      let characters = Array(line)
      guard characters.count > layout.panel.left else { return "" }
      return String(characters[layout.panel.left...]).trimmingCharacters()
    }
    // A name longer than the pane's width is cut into pieces over two rows: compared without spaces.
    let shown = panel.joined().filter { $0 != " " }
    #expect(shown.contains("\(NetworkScreens.joiner): \(NetworkScreens.longChat)".filter { $0 != " " }))
  }

  @Test func theHostsAddressesAreShownWholeWithTheZone() {
    let text = Screens.text(NetworkScreens.hostWaiting(glyphs: .unicode))
    #expect(text.contains("[fe80::1c2b:3aff:fe4d:5e6f%enp0s31f6]:7177"))
    #expect(text.contains("[2001:db8:85a3:1234:5678:8a2e:370:7334]:7177"))
    #expect(text.contains("SHA256:q8W1r4c0ZkQm0yXbT9vN2pLsE7hJfU3aG6dK5iOwYzA again."))
  }

  @Test func theLastMoveIsNamedInTheStatusAndTheMovesAreListed() throws {
    let ui = try NetworkScreens.match(size: 15, k: 5, moves: ["h8", "i9"], glyphs: .unicode)
    let text = Screens.text(ui).split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
      .joined(separator: " ")
    #expect(text.contains("plays i9. Your turn (X)"))
    #expect(text.contains("1. h8 i9"))
  }
}

extension String {
  fileprivate func trimmingCharacters() -> String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}
