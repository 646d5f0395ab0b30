import Foundation
import Testing

@testable import TerminalUI

/// docs/KEYS.md is the one key map: every single key the help of a game lists is in it, and none of the keys it
/// keeps for later work is bound today.
@Suite struct KeyMapDocTests {
  private static let document: String = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    return (try? String(contentsOf: root.appendingPathComponent("docs/KEYS.md"), encoding: .utf8)) ?? ""
  }()

  /// The one-character keys a help entry names: "D, u" gives D and u, "q or Esc" gives q.
  private static func letters(_ keys: String) -> [String] {
    keys.split { $0 == "," || $0 == " " }.map(String.init).filter { $0.count == 1 && $0 != "-" }
  }

  @Test func everyKeyTheHelpListsIsInTheKeyMap() throws {
    #expect(!Self.document.isEmpty)
    var local = Screens.ui(80, 24, .ascii, size: 15, k: 5)
    _ = local.handle(.enter)
    var network = try NetworkScreens.match(size: 15, k: 5, moves: ["h8"], glyphs: .ascii)
    network.updateNetwork {
      $0.canMakeNewInvite = true
      $0.hasGameFlow = true
    }
    for state in [local.state, network.state] {
      let entries = HelpView.lines(for: state)
      #expect(entries.count > 8)
      for (keys, _) in entries {
        for key in Self.letters(keys) {
          #expect(Self.document.contains("`\(key)`"), "\(key) (\(keys)) is not in docs/KEYS.md")
        }
      }
    }
  }

  @Test func theKeysKeptForLaterAreNotBound() throws {
    let kept = Self.document.components(separatedBy: "## Kept for work to come").last ?? ""
    let keys = kept.split(separator: "\n").compactMap { line -> Character? in
      guard line.hasPrefix("| `"), line.count > 4 else { return nil }
      return line[line.index(line.startIndex, offsetBy: 3)]
    }
    #expect(keys.count == 3)
    for key in keys {
      #expect(KeyMap.action(for: .character(key), in: .game(digitsPlace: false)) == nil, "\(key) is bound")
      var ui = try NetworkScreens.match(size: 15, k: 5, moves: ["h8"], glyphs: .ascii)
      let before = ui.state
      #expect(ui.handle(.character(key)) == [] && ui.state == before, "\(key) does something in a network game")
    }
  }
}
