import GameCore

/// Where the parts of a networked match go on a screen of a given size: the header (who plays whom, warnings),
/// wrapped whole; the board; and the panel that holds the status, the move list and the chat. The panel goes
/// below a 3×3 board and beside a larger one, whichever fits first, so 9×9 and 15×15 fit 80×24. Pure.
struct NetScreenLayout: Equatable {
  enum Arrangement: Equatable { case below, beside }

  /// A rectangle of screen cells.
  struct Box: Equatable {
    var top: Int
    var left: Int
    var width: Int
    var height: Int
    var bottom: Int { top + height }
  }

  /// The header's lines, from row 1 (row 0 has the title and score).
  let header: [String]
  let arrangement: Arrangement
  let board: BoardLayout
  let panel: Box

  /// The narrowest panel beside a board: a status line and a chat line must be readable in it.
  static let panelMinimumWidth = 24
  /// The fewest panel rows: a status line and three chat rows (the last one the chat field).
  static let panelMinimumRows = 4
  /// The narrowest screen the match is drawn on, as the rest of the program.
  static let minimumWidth = 30

  /// The layout for `net` on a screen of `width` × `height`, or nil when the board does not fit.
  static func make(_ net: NetGameState, rules: Rules, width: Int, height: Int) -> NetScreenLayout? {
    let header = headerLines(net, width: width)
    for (arrangement, kind) in candidates(rules) {
      if let layout = place(arrangement, kind, rules: rules, header: header, width: width, height: height) {
        return layout
      }
    }
    return nil
  }

  /// The smallest screen the board fits: the narrowest width any arrangement takes, and the height it then
  /// needs at the current width (or at that narrowest width when the screen is narrower still).
  static func minimumSize(_ net: NetGameState, rules: Rules, width: Int) -> (width: Int, height: Int) {
    let widths = candidates(rules).map { requiredWidth($0.0, $0.1, rules: rules) }
    let narrowest = widths.min() ?? minimumWidth
    let at = max(width, narrowest)
    let header = headerLines(net, width: at).count
    let heights = candidates(rules).compactMap { arrangement, kind -> Int? in
      guard requiredWidth(arrangement, kind, rules: rules) <= at else { return nil }
      return requiredHeight(arrangement, kind, rules: rules, headerCount: header)
    }
    return (narrowest, heights.min() ?? 24)
  }

  /// The arrangements to try, best first: a 3×3 board with the panel below, a larger one beside it.
  static func candidates(_ rules: Rules) -> [(Arrangement, BoardLayout.Kind)] {
    let order: [Arrangement] = BoardLayout.isLabelled(rules) ? [.beside, .below] : [.below, .beside]
    return order.flatMap { arrangement in [(arrangement, .boxed), (arrangement, .compact)] }
  }

  static func requiredWidth(_ arrangement: Arrangement, _ kind: BoardLayout.Kind, rules: Rules) -> Int {
    let board = BoardLayout.width(of: rules, kind: kind)
    switch arrangement {
    case .below: return max(minimumWidth, board + 2)
    case .beside: return max(minimumWidth, 1 + board + 2 + panelMinimumWidth + 1)
    }
  }

  /// Title row, header, the body, the legend row.
  static func requiredHeight(_ arrangement: Arrangement, _ kind: BoardLayout.Kind, rules: Rules, headerCount: Int)
    -> Int
  {
    let board = BoardLayout.height(of: rules, kind: kind)
    switch arrangement {
    case .below: return 1 + headerCount + board + 1 + panelMinimumRows + 1
    case .beside: return 1 + headerCount + max(board, panelMinimumRows) + 1
    }
  }

  private static func place(
    _ arrangement: Arrangement, _ kind: BoardLayout.Kind, rules: Rules, header: [String], width: Int, height: Int
  ) -> NetScreenLayout? {
    guard requiredWidth(arrangement, kind, rules: rules) <= width,
      requiredHeight(arrangement, kind, rules: rules, headerCount: header.count) <= height
    else { return nil }
    let bodyTop = 1 + header.count
    let bodyHeight = height - 1 - bodyTop
    let boardWidth = BoardLayout.width(of: rules, kind: kind)
    let boardHeight = BoardLayout.height(of: rules, kind: kind)
    switch arrangement {
    case .below:
      // A blank row above the board when there is room for it.
      let spare = bodyHeight - (boardHeight + 1 + panelMinimumRows)
      let top = bodyTop + min(1, spare)
      let board = BoardLayout(rules: rules, kind: kind, top: top, left: (width - boardWidth) / 2)
      let panelTop = top + boardHeight + 1
      let panel = Box(top: panelTop, left: 1, width: width - 2, height: height - 1 - panelTop)
      return NetScreenLayout(header: header, arrangement: .below, board: board, panel: panel)
    case .beside:
      let top = bodyTop + min(1, bodyHeight - boardHeight)
      let board = BoardLayout(rules: rules, kind: kind, top: top, left: 1)
      let panelLeft = 1 + boardWidth + 2
      let panel = Box(top: top, left: panelLeft, width: width - panelLeft - 1, height: height - 1 - top)
      return NetScreenLayout(header: header, arrangement: .beside, board: board, panel: panel)
    }
  }

  /// Who plays whom and the opponent's key, then each warning, wrapped whole to the screen's width.
  static func headerLines(_ net: NetGameState, width: Int) -> [String] {
    subtitleLines(net, width: width) + net.warnings.flatMap { Fit.wrap("! " + $0, width: max(1, width - 2)) }
  }

  /// "Hosting as alice vs bob SHA256:…", wrapped.
  static func subtitleLines(_ net: NetGameState, width: Int) -> [String] {
    var subtitle = net.isHost ? "Hosting as \(net.myName)" : "Joined as \(net.myName)"
    if let name = net.peerName { subtitle += " vs \(name)" }
    if let fingerprint = net.peerFingerprint { subtitle += " \(fingerprint)" }
    if let watching = net.watching { subtitle = watching.playersLine }
    // The board shows its size; a rule other than freestyle cannot be seen, so it is said (version 4).
    if let variant = net.game?.rules.variant, variant != .freestyle { subtitle = "Rule \(variant.name). " + subtitle }
    return Fit.wrap(subtitle, width: max(1, width - 2))
  }
}
