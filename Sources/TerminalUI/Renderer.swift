/// Turns the whole UI state into a screen: the current page, the help overlay, or a "too small" line.
public enum Renderer {
  public static func render(_ state: UIState) -> ScreenBuffer {
    var screen = ScreenBuffer(width: state.width, height: state.height)
    let needed = minimumSize(state)
    guard state.width >= needed.width, state.height >= needed.height else {
      drawTooSmall(needed: needed, state: state, into: &screen)
      return screen
    }
    switch state.page {
    case .lobby: LobbyView.draw(state, into: &screen)
    case .options: OptionsView.draw(state, into: &screen)
    case .game:
      if let match = state.match, let layout = GameView.layout(for: state) {
        GameView.draw(state, match: match, layout: layout, into: &screen)
      }
    case .joinAddress: JoinView.draw(state, into: &screen)
    case .network:
      if let net = state.net { NetGameView.draw(state, net: net, into: &screen) }
    }
    if state.helpVisible { HelpView.draw(state, into: &screen) }
    return screen
  }

  /// The smallest terminal the current page can be drawn in.
  public static func minimumSize(_ state: UIState) -> (width: Int, height: Int) {
    if state.page == .game, let rules = state.match?.rules { return GameView.minimumSize(for: rules) }
    if state.page == .network, let net = state.net { return NetGameView.minimumSize(net, width: state.width) }
    return LobbyView.minimumSize
  }

  /// One line, the longest version that fits, naming the size needed.
  static func drawTooSmall(needed: (width: Int, height: Int), state: UIState, into screen: inout ScreenBuffer) {
    let g = state.glyphs
    let size = "\(needed.width)\(g.times)\(needed.height)"
    let candidates = [
      "Terminal too small: need \(size), have \(state.width)\(g.times)\(state.height). Enlarge it or press q.",
      "Terminal too small: need \(size), have \(state.width)\(g.times)\(state.height)",
      "Too small: need \(size)",
      "Need \(size)",
    ]
    let text = candidates.first { $0.count <= state.width } ?? candidates[candidates.count - 1]
    screen.put(text, row: state.height / 2, column: max(0, (state.width - text.count) / 2), style: Style(bold: true))
  }
}
