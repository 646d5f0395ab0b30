/// Draws the join screen: an address field and the last few addresses used.
public enum JoinView {
  public static func draw(_ state: UIState, into screen: inout ScreenBuffer) {
    let g = state.glyphs
    screen.putCentred("Join a game by address", row: 1, style: Style(bold: true, color: .title))
    screen.put(
      " HOST, HOST:PORT or [IPv6]:PORT (the port defaults to 7177)", row: 3, column: 0, style: Style(dim: true))
    screen.put(
      " or an invite (tictactoe:…), which pins the host's key: nothing to check", row: 4, column: 0,
      style: Style(dim: true))
    screen.put(" Address: ", row: 5, column: 0, style: Style(bold: true))
    FieldView.draw(state.addressField, row: 5, column: 10, width: max(1, state.width - 12), into: &screen)
    if !state.recentAddresses.isEmpty {
      screen.put(" Recent (\(g.upDown) to pick):", row: 7, column: 0, style: Style(dim: true))
      for (index, address) in state.recentAddresses.prefix(5).enumerated() {
        let chosen = address == state.addressDraft
        screen.put((chosen ? g.pointer : " ") + " " + address, row: 8 + index, column: 2, style: Style(bold: chosen))
      }
    }
    let legend = Fit.legend(
      [("Enter connect", 0), ("Esc back", 1), ("\(g.upDown) recent", 2), ("F1 help", 3)], separator: g.separator,
      width: state.width - 1
    )
    screen.put(" " + legend, row: state.height - 1, column: 0, style: Style(dim: true))
  }
}
