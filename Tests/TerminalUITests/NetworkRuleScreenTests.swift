import GameCore
import Testing

@testable import TerminalUI

/// A network game under a rule other than freestyle (protocol version 4) says the rule in its header, where the
/// board's size shows itself; a freestyle game's header is as before.
@Suite struct NetworkRuleScreenTests {
  @Test func theHeaderNamesARuleOtherThanFreestyle() throws {
    var ui = try NetworkScreens.match(size: 15, k: 5, moves: ["h8"], glyphs: .unicode)
    #expect(!Screens.text(ui).contains("Rule "))
    var net = try #require(ui.state.net)
    net.game = try Game(rules: try Rules(size: 15, k: 5, variant: .renju), moves: [Position(row: 7, column: 7)])
    ui.showNetwork(net)
    let lines = Screens.text(ui).split(separator: "\n")
    #expect(
      lines.prefix(3).contains { $0.contains("Rule renju. Hosting as ") }, "\(lines.prefix(4).joined(separator: "\n"))")
  }
}
