import GameCore
import Testing

@testable import TerminalUI

/// Boards larger than 3×3 carry gomoku coordinates: letters above each column, numbers from the bottom.
@Suite struct BoardCoordinatesTests {
  @Test(arguments: [4, 7, 9, 15])
  func eachColumnHasItsLetterAboveAndEachRowItsNumberLeft(size: Int) throws {
    var ui = Screens.ui(80, 24, .unicode, size: size, k: 3)
    _ = ui.handle(.down)
    _ = ui.handle(.enter)
    let layout = try #require(GameView.layout(for: ui.state))
    let screen = Renderer.render(ui.state)
    let names = Coordinates(layout.rules)
    for column in 0..<size {
      let cell = layout.origin(of: Position(row: 0, column: column))
      #expect(String(screen[layout.top, cell.column + 1].character) == names.columnName(column))
    }
    let lines = screen.lines
    for row in 0..<size {
      let cell = layout.origin(of: Position(row: row, column: 0))
      let label = String(Array(lines[cell.row])[layout.left..<(layout.left + 2)])
      #expect(label.trimmingCharacters(in: " ") == String(size - row))
    }
  }

  @Test func theLastMoveIsNamedInTheStatusOnABoardWithCoordinates() throws {
    var ui = Screens.ui(80, 24, .unicode, size: 9, k: 5)
    _ = ui.handle(.down)
    _ = ui.handle(.enter)
    _ = ui.handle(.enter)  // the cursor starts on the centre, e5
    #expect(Screens.text(ui).contains("X plays e5. O to move (P2)"))
    _ = ui.computerMoved(Position(row: 0, column: 0), token: 0)  // ignored: not a computer game
    var computer = Screens.ui(80, 24, .unicode, size: 9, k: 5)
    _ = computer.handle(.enter)
    _ = computer.handle(.enter)
    let token = try #require(computer.state.match?.token)
    _ = computer.computerMoved(Position(row: 0, column: 0), token: token)
    #expect(Screens.text(computer).contains("The computer plays a9. Your turn (X)"))
  }

  @Test func theClassicBoardHasNoCoordinates() throws {
    var ui = Screens.ui(80, 24, .unicode)
    _ = ui.handle(.enter)
    let layout = try #require(GameView.layout(for: ui.state))
    #expect(layout.gridOrigin == (layout.top, layout.left))
    let lines = Renderer.render(ui.state).lines
    #expect(lines[layout.top].hasSuffix("┌───┬───┬───┐"))
    #expect(lines[layout.top - 1].isEmpty)
  }

  @Test func aClickOnALabelledBoardPlacesTheCellUnderIt() throws {
    var ui = Screens.ui(80, 24, .unicode, size: 9, k: 5)
    _ = ui.handle(.down)
    _ = ui.handle(.enter)
    let layout = try #require(GameView.layout(for: ui.state))
    let e5 = try #require(Coordinates(layout.rules).position(named: "e5"))
    let origin = layout.origin(of: e5)
    _ = ui.handle(.click(row: origin.row, column: origin.column + 1))
    #expect(ui.state.match?.game.board[e5] == .x)
    #expect(layout.position(atRow: layout.top, column: origin.column + 1) == nil)  // the letters are no cell
  }
}

extension String {
  fileprivate func trimmingCharacters(in set: Character) -> String {
    String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
  }
}

/// On 3×3 the status says where the computer (or the other player) moved, by the cell's number.
@Suite struct ClassicLastMoveTests {
  @Test func theComputersMoveIsNamedByItsCell() throws {
    var ui = Screens.ui(80, 24, .unicode)
    _ = ui.handle(.enter)
    _ = ui.handle(.character("5"))
    let token = try #require(ui.state.match?.token)
    _ = ui.computerMoved(Position(row: 2, column: 0), token: token)
    #expect(Screens.text(ui).contains("The computer plays 7. Your turn (X)"), "\(Screens.text(ui))")
    var hotseat = Screens.ui(80, 24, .unicode)
    _ = hotseat.handle(.down)
    _ = hotseat.handle(.enter)
    _ = hotseat.handle(.character("3"))
    #expect(Screens.text(hotseat).contains("X plays 3. O to move (P2)"))
  }
}
