import GameCore
import Testing

@testable import TerminalUI

/// The rule of five in a row on the screens: chosen in Options, shown with the board size, and a move renju
/// forbids refused with its reason, on the full screen and in plain mode.
@Suite struct RuleScreenTests {
  /// X's f8, g8, h10 and h9 (O far off on row 15): X's h8 would make two open threes.
  static let opening = ["f8", "a15", "g8", "c15", "h10", "e15", "h9", "g15"]

  private func place(_ move: String, _ ui: inout UIController) {
    _ = ui.handle(.character("g"))
    for character in move { _ = ui.handle(.character(character)) }
    _ = ui.handle(.enter)
    _ = ui.handle(.enter)
  }

  private func renjuHotseat() -> UIController {
    var ui = Screens.ui(80, 24, .unicode, size: 15, k: 5)
    ui.state.settings.rule = .renju
    _ = ui.handle(.down)
    _ = ui.handle(.enter)
    return ui
  }

  @Test func aForbiddenMoveIsRefusedOnTheFullScreenWithItsReason() {
    var ui = renjuHotseat()
    #expect(ui.state.match?.rules.variant == .renju)
    #expect(Screens.text(ui).contains("15×15, 5 in a row, renju"), "\(Screens.text(ui))")
    for move in Self.opening { place(move, &ui) }
    #expect(ui.state.match?.game.history.count == 8)
    place("h8", &ui)
    let text = Screens.text(ui)
    #expect(ui.state.match?.game.history.count == 8, "the foul is not played")
    #expect(text.contains("Forbidden to X under renju (double three)"), "\(text)")
  }

  @Test func theLobbyAndOptionsShowTheRule() throws {
    var ui = Screens.ui(80, 24, .unicode, size: 15, k: 5)
    #expect(!Screens.text(ui).contains("renju"))
    ui.state.page = .options
    ui.state.optionSelection = .rule
    _ = ui.adjust(.rule, by: 1)
    #expect(ui.state.settings.rule == .exactFive)
    _ = ui.adjust(.rule, by: 1)
    #expect(ui.state.settings.rule == .renju)
    #expect(Screens.text(ui).contains("< renju >"), "\(Screens.text(ui))")
    _ = ui.adjust(.rule, by: 1)
    #expect(ui.state.settings.rule == .freestyle)
    // On a small board the rule brings five in a row with it; a k other than 5 shows freestyle.
    var small = Screens.ui(80, 24, .unicode)
    _ = small.adjust(.rule, by: -1)
    #expect(small.state.settings.rules == (try Rules(size: 15, k: 5, variant: .renju)))
    _ = small.adjust(.k, by: -1)
    #expect(small.state.settings.rules.variant == .freestyle)
    small.state.page = .lobby
    _ = small.adjust(.k, by: 1)
    #expect(Screens.text(small).contains("15×15, 5 in a row, renju"), "\(Screens.text(small))")
  }

  @Test func plainModeNamesTheRuleAndRefusesAFoulWithItsReason() throws {
    var session = PlainSession(opponent: .hotseat, rules: try Rules(size: 15, k: 5, variant: .renju), humanMark: .x)
    let introduction = session.introduction()
    #expect(introduction.contains("tictactoe: 15×15, 5 in a row, renju."))
    #expect(introduction.contains("Rule: renju: X wins only by exactly five"))
    for move in Self.opening { _ = session.handle(line: move) }
    let refused = session.handle(line: "h8")
    #expect(refused.contains("h8 is forbidden to X under renju (double three): it would make two open threes"))
    #expect(session.game.history.count == 8)
  }
}
