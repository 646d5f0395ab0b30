import GameCore
import PlayerSettings
import Testing

@testable import TerminalUI

/// Screens as the player sees them, at a few sizes, in UTF-8 and ASCII.
enum Screens {
  static func ui(_ width: Int, _ height: Int, _ glyphs: Glyphs, size: Int = 3, k: Int = 3) -> UIController {
    var settings = Settings()
    settings.size = size
    settings.k = k
    var state = UIState(settings: settings, seed: 1)
    state.width = width
    state.height = height
    state.glyphs = glyphs
    return UIController(state: state)
  }

  static func text(_ ui: UIController) -> String { Renderer.render(ui.state).text }

  /// A hot-seat game X wins along the top row (cells 1, 2, 3).
  static func hotseatWin(_ width: Int, _ height: Int, _ glyphs: Glyphs) -> UIController {
    var ui = ui(width, height, glyphs)
    _ = ui.handle(.down)
    _ = ui.handle(.enter)
    for digit in ["1", "4", "2", "5", "3"] { _ = ui.handle(.character(Character(digit))) }
    return ui
  }

  static var all: [(String, UIController)] {
    var hotseatMidGame = ui(40, 12, .ascii)
    _ = hotseatMidGame.handle(.down)
    _ = hotseatMidGame.handle(.enter)
    for digit in ["1", "4", "2", "5"] { _ = hotseatMidGame.handle(.character(Character(digit))) }
    var big = ui(80, 24, .unicode, size: 15, k: 5)
    _ = big.handle(.enter)
    _ = big.handle(.enter)
    var options = ui(80, 24, .unicode)
    for _ in 0..<4 { _ = options.handle(.down) }
    _ = options.handle(.enter)
    var help = ui(80, 24, .ascii)
    _ = help.handle(.enter)
    _ = help.handle(.character("?"))
    var small = ui(20, 6, .unicode)
    _ = small.handle(.enter)
    var leaving = ui(80, 24, .unicode)
    _ = leaving.handle(.enter)
    for key in [Key.character("5"), .character("q")] { _ = leaving.handle(key) }
    return [
      ("lobby80x24", ui(80, 24, .unicode)),
      ("lobby40x12ascii", ui(40, 12, .ascii)),
      ("won80x24", hotseatWin(80, 24, .unicode)),
      ("won80x24ascii", hotseatWin(80, 24, .ascii)),
      ("midgame40x12ascii", hotseatMidGame),
      ("thinking15x15", big),
      ("options80x24", options),
      ("help80x24ascii", help),
      ("tooSmall20x6", small),
      ("leaveAsked80x24", leaving),
    ]
  }
}

@Suite struct ScreenTests {
  @Test(arguments: Screens.all.map(\.0))
  func screenMatchesItsGolden(name: String) throws {
    let ui = try #require(Screens.all.first { $0.0 == name }?.1)
    let golden = try #require(Goldens.screens[name])
    let actual = Screens.text(ui)
    #expect(actual == golden, "\(name):\n\(actual)")
  }

  @Test func winningLineIsBoldAndUnderlinedNotJustColoured() throws {
    let ui = Screens.hotseatWin(80, 24, .unicode)
    let layout = try #require(GameView.layout(for: ui.state))
    let screen = Renderer.render(ui.state)
    for column in 0..<3 {
      let origin = layout.origin(of: Position(row: 0, column: column))
      let cell = screen[origin.row, origin.column + 1]
      #expect(cell.character == "X")
      #expect(cell.style.bold && cell.style.underline && cell.style.color == .winningLine)
    }
    let other = layout.origin(of: Position(row: 1, column: 0))
    #expect(!screen[other.row, other.column + 1].style.underline)
  }

  @Test func cursorIsBracketedAndReversed() throws {
    var ui = Screens.ui(80, 24, .unicode)
    _ = ui.handle(.enter)
    let layout = try #require(GameView.layout(for: ui.state))
    let origin = layout.origin(of: Position(row: 1, column: 1))
    let screen = Renderer.render(ui.state)
    #expect(screen[origin.row, origin.column].character == "[")
    #expect(screen[origin.row, origin.column + 2].character == "]")
    #expect(screen[origin.row, origin.column + 1].style.reverse)
  }

  @Test(arguments: Array(3...15))
  func everyBoardFitsAnEightyByTwentyFourTerminal(size: Int) throws {
    var ui = Screens.ui(80, 24, .unicode, size: size, k: 3)
    _ = ui.handle(.down)
    _ = ui.handle(.enter)
    let layout = try #require(GameView.layout(for: ui.state))
    #expect(layout.kind == (size <= 8 ? .boxed : .compact))  // a boxed 9×9 needs 25 rows
    #expect(!Screens.text(ui).contains("too small"))
  }

  @Test func tooSmallRecoversWhenTheTerminalGrows() {
    var ui = Screens.ui(20, 6, .unicode)
    _ = ui.handle(.enter)
    #expect(Screens.text(ui).contains("Too small: need 30×9"))
    ui.resize(width: 80, height: 24)
    #expect(Screens.text(ui).contains("Your turn (X)"))
    ui.resize(width: 29, height: 24)
    #expect(Screens.text(ui).contains("need 30×9"))
    ui.resize(width: 80, height: 9)
    #expect(Screens.text(ui).contains("Your turn (X)"))
  }

  @Test func everyLineFitsItsWidth() {
    for (name, ui) in Screens.all {
      for line in Renderer.render(ui.state).lines {
        #expect(line.count <= ui.state.width, "\(name): \(line)")
      }
    }
  }
}
