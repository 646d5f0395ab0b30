import GameCore

/// The full-screen replay: the players and result at the top, the board with its coordinates on the left, the
/// move list on the right (the move on the board marked), and the keys at the bottom.
public enum ReplayView {
  public static func render(_ replay: Replay, width: Int, height: Int, glyphs: Glyphs) -> ScreenBuffer {
    var screen = ScreenBuffer(width: width, height: height)
    let rules = replay.record.rules
    let boardWidth = 3 + rules.columns * 2 + 1
    let needed = (width: boardWidth + 14, height: rules.rows + 7)
    guard width >= needed.width, height >= needed.height else {
      screen.put("The screen is too small for this replay:", row: 0, column: 0)
      screen.put("it needs \(needed.width)\(glyphs.times)\(needed.height); q quits.", row: 1, column: 0)
      return screen
    }
    screen.put("Replay: " + replay.players, row: 0, column: 0, style: Style(bold: true, color: .title))
    screen.put(replay.summary, row: 1, column: 0)
    let game = replay.game
    let last = replay.shown > 0 ? replay.record.moves[replay.shown - 1] : nil
    let lines = Replay.boardText(game).split(separator: "\n").map(String.init)
    for (index, line) in lines.enumerated() {
      screen.put(line, row: 3 + index, column: 1)
      guard index < rules.rows else { continue }
      for column in 0..<rules.columns {
        let position = Position(row: index, column: column)
        let x = 1 + String(rules.rows).count + 1 + column * 2
        if let mark = game.board[position] {
          var style = Style(bold: position == last, color: mark == .x ? .xMark : .oMark)
          style.reverse = position == last
          screen.restyle(row: 3 + index, column: x, count: 1) { $0 = style }
        }
      }
    }
    let moveColumn = boardWidth + 3
    let listHeight = height - 6
    let count = replay.record.moves.count
    let heading = "Move \(replay.shown) of \(count)"
    screen.put(heading, row: 3, column: moveColumn, style: Style(bold: true))
    // Enough of the list around the move on the board to keep it in sight.
    let first = max(1, min(replay.shown - listHeight / 2, count - listHeight + 2))
    for (row, number) in (first...max(first, count)).prefix(listHeight - 1).enumerated() where number <= count {
      let text = replay.moveText(number)
      screen.put(text, row: 4 + row, column: moveColumn, style: number == replay.shown ? Style(reverse: true) : .plain)
    }
    if replay.shown == count { screen.put("Result: \(replay.record.result)", row: height - 2, column: 0) }
    let keys = "\(glyphs.leftRight) a move  Home End start, end  q quit"
    screen.put(keys, row: height - 1, column: 0, style: Style(dim: true))
    return screen
  }
}
