import GameCore
import Testing

@testable import TerminalUI

/// Both players see how many spectators watch their game (PROTOCOL.md, "Version 4: watching"): a line under the
/// status on the full screen, beside the board and below it; none while nobody watches.
@Suite struct SpectatorCountScreenTests {
  @Test(arguments: [(3, 80, 24), (15, 100, 30)])
  func theCountIsALineUnderTheStatus(size: Int, width: Int, height: Int) throws {
    var ui = try NetworkScreens.match(
      size: size, k: size == 3 ? 3 : 5, moves: [], glyphs: .unicode, width: width, height: height)
    #expect(!Screens.text(ui).contains("watching"))
    ui.updateNetwork { $0.spectators = 2 }
    let lines = Screens.text(ui).split(separator: "\n").map(String.init)
    let row = try #require(lines.firstIndex { $0.contains("2 watching") }, "\(lines.joined(separator: "\n"))")
    let above = row > 0 ? lines[row - 1] : ""
    #expect(above.contains("Your turn") || above.contains("Waiting for"), "\(lines.joined(separator: "\n"))")
    ui.updateNetwork { $0.spectators = 0 }
    #expect(!Screens.text(ui).contains("watching"))
  }
}
