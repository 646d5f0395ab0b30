/// The help overlay: every key, in a box over the current screen.
public enum HelpView {
  static func lines(glyphs g: Glyphs) -> [(String, String)] {
    [
      ("\(g.arrows), hjkl", "move the cursor / choose"),
      ("Enter, Space", "place your mark / select"),
      ("1-9", "place on that cell (3\(g.times)3; 1 is top left)"),
      ("mouse click", "place on the clicked cell"),
      ("u", "undo your last move"),
      ("n", "new game"),
      ("? or F1", "this help"),
      ("q or Esc", "back to the menu / quit"),
      ("Ctrl-C", "quit at once"),
    ]
  }

  public static func draw(_ state: UIState, into screen: inout ScreenBuffer) {
    let g = state.glyphs
    let entries = lines(glyphs: g)
    let keyWidth = entries.map(\.0.count).max() ?? 0
    let body = entries.map { $0.0 + String(repeating: " ", count: keyWidth - $0.0.count) + "  " + $0.1 }
    let inner = max(body.map(\.count).max() ?? 0, 24)
    let boxWidth = inner + 4
    let boxHeight = body.count + 6
    let top = max(0, (state.height - boxHeight) / 2)
    let left = max(0, (state.width - boxWidth) / 2)
    let horizontal = String(repeating: g.horizontal, count: boxWidth - 2)
    screen.put("\(g.topLeft)\(horizontal)\(g.topRight)", row: top, column: left)
    for row in (top + 1)..<(top + boxHeight - 1) {
      screen.put(
        "\(g.vertical)" + String(repeating: " ", count: boxWidth - 2) + "\(g.vertical)", row: row, column: left)
    }
    screen.put("\(g.bottomLeft)\(horizontal)\(g.bottomRight)", row: top + boxHeight - 1, column: left)
    screen.put("Keys", row: top + 1, column: left + 2, style: Style(bold: true, color: .title))
    for (i, line) in body.enumerated() {
      screen.put(line, row: top + 3 + i, column: left + 2)
    }
    screen.put("Press any key to close.", row: top + boxHeight - 2, column: left + 2, style: Style(dim: true))
  }
}
