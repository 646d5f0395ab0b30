import GameCore
import PlayerSettings
import Testing

@testable import TerminalUI

@Suite struct ControllerTests {
  private func p(_ row: Int, _ column: Int) -> Position { Position(row: row, column: column) }

  private func controller(_ configure: (inout Settings) -> Void = { _ in }) -> UIController {
    var settings = Settings()
    configure(&settings)
    return UIController(state: UIState(settings: settings, seed: 1))
  }

  @Test func lobbyStartsAGameAgainstTheComputer() {
    var ui = controller()
    #expect(ui.handle(.enter) == [])
    #expect(ui.state.page == .game)
    #expect(ui.state.match?.opponent == .computer(.normal))
    #expect(ui.state.match?.humanMark == .x)
    #expect(ui.state.match?.cursor == p(1, 1))
  }

  @Test func placingAsksTheComputerAndItsMoveLands() throws {
    var ui = controller()
    _ = ui.handle(.enter)
    let effects = ui.handle(.enter)
    let match = try #require(ui.state.match)
    #expect(match.aiThinking)
    #expect(effects == [.think(game: match.game, level: .normal, token: match.token)])
    // While the computer thinks, the player cannot move.
    _ = ui.handle(.character("1"))
    #expect(ui.state.match?.notice == "Wait for the computer's move.")
    _ = ui.computerMoved(p(0, 0), token: match.token)
    #expect(ui.state.match?.game.board[p(0, 0)] == .o)
    #expect(ui.state.match?.aiThinking == false)
    #expect(ui.state.match?.notice == nil, "the wait is over once the computer has moved")
  }

  @Test func aStaleComputerMoveIsIgnored() throws {
    var ui = controller()
    _ = ui.handle(.enter)
    _ = ui.handle(.enter)
    let token = try #require(ui.state.match?.token)
    _ = ui.handle(.character("u"))  // undo while thinking: the pending answer no longer fits
    _ = ui.computerMoved(p(0, 0), token: token)
    #expect(ui.state.match?.game.history == [])
  }

  @Test func computerStartsWhenThePlayerChoseSo() {
    var ui = controller { $0.first = .them }
    let effects = ui.handle(.enter)
    #expect(ui.state.match?.humanMark == .o)
    #expect(effects.count == 1)
  }

  @Test func occupiedCellsGiveANoticeNotACrash() throws {
    var ui = controller { $0.aiLevel = .perfect }
    _ = ui.handle(.enter)
    _ = ui.handle(.character("5"))
    let token = try #require(ui.state.match?.token)
    _ = ui.computerMoved(p(0, 0), token: token)
    _ = ui.handle(.character("1"))
    #expect(ui.state.match?.notice == "That cell is taken by O. Choose an empty one.")
    _ = ui.handle(.right)
    #expect(ui.state.match?.notice == nil)
  }

  @Test func undoTakesBackTheComputersReplyToo() throws {
    var ui = controller()
    _ = ui.handle(.enter)
    _ = ui.handle(.character("5"))
    _ = ui.computerMoved(p(0, 0), token: try #require(ui.state.match?.token))
    #expect(ui.handle(.character("u")) == [])
    #expect(ui.state.match?.game.history == [])
    _ = ui.handle(.character("u"))
    #expect(ui.state.match?.notice == "Nothing to undo.")
  }

  @Test func hotseatGameToAWinCountsTheScore() {
    var ui = controller()
    _ = ui.handle(.down)
    _ = ui.handle(.enter)
    #expect(ui.state.match?.opponent == .hotseat)
    for digit in ["1", "4", "2", "5", "3"] { #expect(ui.handle(.character(Character(digit))) == []) }
    #expect(ui.state.match?.game.outcome?.winner == .x)
    #expect(
      ui.state.match?.score
        == {
          var s = LocalScore()
          s.first = 1
          return s
        }())
    // Undo after the end takes the result back out of the score.
    _ = ui.handle(.character("u"))
    #expect(ui.state.match?.score == LocalScore())
    _ = ui.handle(.character("3"))
    _ = ui.handle(.character("n"))
    #expect(ui.state.match?.game.history == [])
    #expect(ui.state.match?.score.first == 1)
  }

  @Test func cursorStaysOnTheBoard() {
    var ui = controller()
    _ = ui.handle(.enter)
    for _ in 0..<5 { _ = ui.handle(.up) }
    for _ in 0..<5 { _ = ui.handle(.character("h")) }
    #expect(ui.state.match?.cursor == p(0, 0))
    for _ in 0..<5 { _ = ui.handle(.down) }
    for _ in 0..<5 { _ = ui.handle(.right) }
    #expect(ui.state.match?.cursor == p(2, 2))
  }

  @Test func mouseClickPlacesOnTheClickedCell() throws {
    var ui = controller()
    _ = ui.handle(.down)
    _ = ui.handle(.enter)
    let layout = try #require(GameView.layout(for: ui.state))
    let origin = layout.origin(of: p(2, 0))
    _ = ui.handle(.click(row: origin.row, column: origin.column + 1))
    #expect(ui.state.match?.game.board[p(2, 0)] == .x)
    // A click on a grid line places nothing.
    _ = ui.handle(.click(row: layout.top, column: layout.left))
    #expect(ui.state.match?.game.history.count == 1)
  }

  @Test func optionsChangeTheRulesAndAreSavedOnLeaving() {
    var ui = controller()
    for _ in 0..<4 { _ = ui.handle(.down) }
    _ = ui.handle(.enter)
    #expect(ui.state.page == .options)
    _ = ui.handle(.right)  // size 4, and with it k 4
    #expect(ui.state.settings.k == 4)
    _ = ui.handle(.down)
    _ = ui.handle(.left)  // k 3
    _ = ui.handle(.down)
    _ = ui.handle(.left)  // level easy
    _ = ui.handle(.down)
    _ = ui.handle(.right)  // first: them
    _ = ui.handle(.down)  // your name (Enter would open its field)
    _ = ui.handle(.down)
    _ = ui.handle(.right)  // records: no
    var expected = Settings()
    expected.size = 4
    expected.k = 3
    expected.aiLevel = .easy
    expected.first = .them
    expected.records = false
    #expect(Renderer.render(ui.state).text.contains("Keep records    < no >"))
    #expect(ui.handle(.escape) == [.saveSettings(expected)])
    #expect(ui.state.page == .lobby)
  }

  @Test func growingTheBoardGivesItsNaturalK() {
    var ui = controller()
    for _ in 0..<4 { _ = ui.handle(.down) }
    _ = ui.handle(.enter)
    var seen: [String] = []
    for _ in 0..<12 {
      _ = ui.handle(.right)
      seen.append("\(ui.state.settings.size):\(ui.state.settings.k)")
    }
    #expect(seen == ["4:4", "5:5", "6:5", "7:5", "8:5", "9:5", "10:5", "11:5", "12:5", "13:5", "14:5", "15:5"])
  }

  @Test func shrinkingTheBoardKeepsKOnIt() {
    var ui = controller {
      $0.size = 5
      $0.k = 5
    }
    for _ in 0..<4 { _ = ui.handle(.down) }
    _ = ui.handle(.enter)
    _ = ui.handle(.left)
    #expect(ui.state.settings.size == 4 && ui.state.settings.k == 4)
  }

  @Test func backFromAGameReturnsToTheLobbyOrQuitsWhenStartedDirectly() {
    var ui = controller()
    _ = ui.handle(.enter)
    #expect(ui.handle(.character("q")) == [])
    #expect(ui.state.page == .lobby)
    #expect(ui.handle(.escape) == [.quit])
    var direct = controller()
    _ = direct.startDirect(opponent: .hotseat)
    #expect(direct.handle(.escape) == [.quit])
  }

  @Test func helpOpensAndAnyKeyClosesIt() {
    var ui = controller()
    _ = ui.handle(.enter)
    _ = ui.handle(.character("?"))
    #expect(ui.state.helpVisible)
    _ = ui.handle(.character("5"))
    #expect(!ui.state.helpVisible)
    #expect(ui.state.match?.game.history == [])
  }
}
