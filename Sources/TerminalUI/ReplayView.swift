import GameCore

/// The full-screen replay: the players and result at the top, the board on the left drawn as the game view draws
/// it (the move shown underlined, the winning line marked), the move list on the right (the move shown reversed),
/// and the keys at the bottom.
public enum ReplayView {
  /// The columns the move list takes ("Move 12 of 40", "12. X h8").
  static let movesWidth = 14

  public static func render(_ replay: Replay, width: Int, height: Int, glyphs: Glyphs) -> ScreenBuffer {
    var screen = ScreenBuffer(width: width, height: height)
    let rules = replay.record.rules
    // The board as the game view draws it (boxed where it fits, else compact), the move list to its right.
    let fits = { (kind: BoardLayout.Kind) in
      BoardLayout.width(of: rules, kind: kind) + 1 + 3 + movesWidth <= width
        && BoardLayout.height(of: rules, kind: kind) + 5 <= height
    }
    guard let kind = [BoardLayout.Kind.boxed, .compact].first(where: fits) else {
      let needed = (
        width: BoardLayout.width(of: rules, kind: .compact) + 1 + 3 + movesWidth,
        height: BoardLayout.height(of: rules, kind: .compact) + 5
      )
      screen.put("The screen is too small for this replay:", row: 0, column: 0)
      screen.put("it needs \(needed.width)\(glyphs.times)\(needed.height); q quits.", row: 1, column: 0)
      return screen
    }
    screen.put("Replay: " + replay.players, row: 0, column: 0, style: Style(bold: true, color: .title))
    screen.put(replay.summary, row: 1, column: 0)
    let layout = BoardLayout(rules: rules, kind: kind, top: 3, left: 1)
    GameView.drawBoard(replay.game, cursor: nil, layout: layout, glyphs: glyphs, into: &screen)
    let moveColumn = layout.left + layout.width + 3
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
