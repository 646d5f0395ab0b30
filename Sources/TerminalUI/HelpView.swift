/// The help overlay: every key, in a box over the current screen.
public enum HelpView {
  /// The keys of the screen the help was opened on.
  static func lines(for state: UIState) -> [(String, String)] {
    let g = state.glyphs
    let common = [("? or F1", "this help"), ("Ctrl-L", "draw the screen again"), ("Ctrl-C", "quit at once")]
    switch state.page {
    case .lobby, .options:
      return [
        ("\(g.upDown), jk", "choose"), ("Enter, Space", "select"), ("\(g.leftRight), hl", "change a setting"),
        ("q or Esc", "back / quit"),
      ] + (state.page == .options ? [("Enter on a name", "type the name others see")] : []) + common
    case .joinAddress:
      return [
        ("Enter", "connect"), ("\(g.upDown)", "a recent address"), ("Home End", "to the start, the end"),
        ("Ctrl-U Ctrl-K", "delete to the start, the end"), ("Ctrl-W", "delete a word"), ("Esc", "back"),
      ] + common
    case .game:
      let digits = state.match?.rules == .standard
      return [("\(g.arrows), hjkl", "move the cursor"), ("Enter, Space", "place your mark")]
        + (digits ? [("1-9", "place on that cell (1 is top left)")] : []) + [
          ("mouse click", "place on the clicked cell"), ("u", "undo your last move"),
        ]
        + (state.match?.swap2 != nil
          ? [("b, o, p", "Swap2's choice: take X (black), take O (white), place 2 more")] : []) + [
          ("g", "go to a cell: type it (h8), Enter"), ("n", "new game (asks first during a game)"),
          ("q or Esc", "back to the menu / quit (asks first too)"),
        ] + common
    case .network:
      let digits = state.net?.game?.rules == .standard
      return [("\(g.arrows), hjkl", "move the cursor"), ("Enter, Space", "place your mark")]
        + (digits ? [("1-9", "place on that cell (1 is top left)")] : []) + [
          ("mouse click", "place on the clicked cell"), ("g", "go to a cell: type it (h8), Enter"),
          ("c", "chat (Enter sends, Esc cancels)"),
          ("PgUp PgDn", "scroll the chat back, forward"), ("R", "resign the game (asks first)"),
        ]
        + (state.net?.opening != nil
          ? [("b, o, p", "Swap2's choice: take X (black), take O (white), place 2 more")] : [])
        + (state.net?.hasGameFlow == true
          ? [
            ("D, u", "offer a draw, ask to take your move back; or accept theirs"),
            ("x", "decline their offer"), ("A", "abort before both have moved"),
          ] : []) + [
          ("n", "rematch, once a game is over")
        ] + (state.net?.canMakeNewInvite == true ? [("i", "a new invite: old ones stop at the relay (asks)")] : []) + [
          ("v", "the verification code to compare"), ("w", "claim the win if they do not come back"),
          ("q or Esc", "leave (asks first during a game)"),
        ] + common
    }
  }

  public static func draw(_ state: UIState, into screen: inout ScreenBuffer) {
    let g = state.glyphs
    let entries = lines(for: state)
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
