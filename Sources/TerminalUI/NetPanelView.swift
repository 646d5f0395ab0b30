import GameCore

/// The panel of a networked match, below the board or beside it: the status (wrapped, never cut), the moves
/// in notation on a board with coordinates, and the chat pane.
enum NetPanelView {
  static func draw(
    _ net: NetGameState, game: Game, layout: NetScreenLayout, glyphs g: Glyphs, into screen: inout ScreenBuffer
  ) {
    let parts = arrange(net, game: game, layout: layout, glyphs: g)
    let box = layout.panel
    if let clocks = net.clocks {
      let names =
        net.watching.map { ($0.name(.x), $0.name(.o)) } ?? ("You", NetGameView.peerLabel(net).capitalizedFirst)
      let (text, style) = clockLine(clocks, names: names, width: box.width, glyphs: g)
      let column = layout.arrangement == .below ? box.left + max(0, (box.width - text.count) / 2) : box.left
      screen.put(text, row: box.top, column: column, style: style)
    }
    let statusTop = box.top + (net.clocks == nil ? 0 : 1)
    for (index, line) in parts.status.enumerated() {
      let column = layout.arrangement == .below ? box.left + max(0, (box.width - line.count) / 2) : box.left
      screen.put(line, row: statusTop + index, column: column, style: parts.statusStyle)
    }
    for (index, line) in parts.moves.enumerated() {
      screen.put(line, row: parts.movesTop + index, column: box.left, style: Style(dim: true))
    }
    ChatPane.draw(net, box: parts.chat, glyphs: g, into: &screen)
  }

  /// The panel's parts from the top: the status lines, the move lines (from `movesTop`), the chat pane's box.
  static func arrange(_ net: NetGameState, game: Game, layout: NetScreenLayout, glyphs g: Glyphs) -> (
    status: [String], statusStyle: Style, moves: [String], movesTop: Int, chat: NetScreenLayout.Box
  ) {
    var box = layout.panel
    if net.clocks != nil {
      // The clocks take the panel's first row.
      box.top += 1
      box.height -= 1
    }
    let (text, style) = statusLine(net, game: game, glyphs: g)
    // The status may take what the chat pane can spare beyond its three rows.
    let watching = net.spectators > 0 ? ["\(net.spectators) watching"] : []
    let status = Array((Fit.wrap(text, width: box.width) + watching).prefix(max(1, box.height - 3)))
    var row = box.top + status.count
    var moves: [String] = []
    if layout.arrangement == .beside && BoardLayout.isLabelled(game.rules) && !game.history.isEmpty {
      // The moves get at most a third of what is left, the chat the rest (three rows at least).
      let room = min(movesRowLimit, (box.bottom - row - 1) / 3)
      if room >= 1 {
        moves = moveLines(game, width: box.width, rows: room)
        row += 1
      }
    }
    let movesTop = row
    row += moves.count
    if box.bottom - row > 3 { row += 1 }
    let chat = NetScreenLayout.Box(top: row, left: box.left, width: box.width, height: box.bottom - row)
    return (status, style, moves, movesTop, chat)
  }

  /// "▸You 4:32 · bob 5:00 (5+3)" in at most `width` columns: both clocks, the running one marked (the time
  /// control left out, then the other name cut, when the line is short); bold while this player's runs, in the
  /// warning colour when this player's time is low. A network match's panel and a local game's screen draw it.
  static func clockLine(
    _ clocks: NetGameState.Clocks, names: (mine: String, theirs: String), width: Int, glyphs g: Glyphs
  ) -> (String, Style) {
    let mark = { (running: Bool) in running ? (g == .ascii ? ">" : "▸") : "" }
    let mine = mark(clocks.running == .mine) + names.mine + " " + TimeControl.face(clocks.mine)
    let theirFace = " " + TimeControl.face(clocks.theirs)
    let name = names.theirs
    let room = width - mine.count - g.separator.count - mark(clocks.running == .theirs).count - theirFace.count
    let fitted = name.count <= room ? name : Fit.clip(name, width: max(1, room), ellipsis: g.ellipsis)
    let line = mine + g.separator + mark(clocks.running == .theirs) + fitted + theirFace
    let control = " (\(clocks.control))"
    let text = line.count + control.count <= width ? line + control : line
    if clocks.lowMine { return (text, Style(bold: true, color: .warning)) }
    return (text, clocks.running == .mine ? Style(bold: true) : Style(dim: true))
  }

  /// The chat pane's box on this screen, or nil when the board (and so the panel) is not shown.
  static func chatBox(_ state: UIState) -> NetScreenLayout.Box? {
    guard let net = state.net, let game = net.game, let layout = NetGameView.screenLayout(for: state) else {
      return nil
    }
    return arrange(net, game: game, layout: layout, glyphs: state.glyphs).chat
  }

  /// The move list's most rows.
  static let movesRowLimit = 6

  /// The moves as "1. h8 i9" pairs, as many pairs a line as fit, the latest ones when they do not all fit in
  /// `rows` lines.
  static func moveLines(_ game: Game, width: Int, rows: Int) -> [String] {
    let names = Coordinates(game.rules)
    let moves = game.history.map(names.name)
    let pairs = stride(from: 0, to: moves.count, by: 2).map { index -> String in
      let number = "\(index / 2 + 1)."
      let x = moves[index]
      let o = index + 1 < moves.count ? moves[index + 1] : ""
      return String(repeating: " ", count: max(0, 4 - number.count)) + number + " " + pad(x, 3) + " " + o
    }
    let cell = 13
    let perLine = max(1, (width + 1) / (cell + 1))
    // Whole lines from the first move, so a pair keeps its place as moves are added; the latest lines shown.
    var lines: [String] = []
    var current: [String] = []
    for pair in pairs {
      current.append(pad(pair, cell))
      if current.count == perLine {
        lines.append(current.joined(separator: " ").trimmingTrailingSpaces())
        current = []
      }
    }
    if !current.isEmpty { lines.append(current.joined(separator: " ").trimmingTrailingSpaces()) }
    return Array(lines.suffix(rows))
  }

  private static func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }

  /// What the player is told about the game now: the result, whose turn it is, and the last move by name.
  static func statusLine(_ net: NetGameState, game: Game, glyphs g: Glyphs) -> (String, Style) {
    if let unfinished = net.watching?.unfinished { return (unfinished, Style(bold: true, color: .warning)) }
    if let ended = net.ended { return (ended, Style(bold: true, color: .warning)) }
    if let watching = net.watching {
      let over = watching.result != nil || watching.unfinished != nil
      return (watching.status(game), over ? Style(bold: true, color: .accent) : Style(bold: true))
    }
    let peer = NetGameView.peerLabel(net)
    if let dropped = net.dropped, net.result == nil {
      if dropped.claimable {
        return ("\(peer) did not come back: w claim the win\(g.separator)q leave", Style(bold: true, color: .warning))
      }
      let waiting = net.isHost ? "waiting for \(peer) to reconnect" : "reconnecting"
      return ("Connection lost: \(waiting) (\(dropped.clock))", Style(bold: true, color: .warning))
    }
    if let notice = net.notice { return (notice, Style(bold: true, color: .warning)) }
    if let result = net.result {
      let rematch =
        net.rematchOfferedByPeer
        ? "\(peer) offers a rematch: n to accept" : (net.rematchOfferedByMe ? "rematch offered" : "n rematch")
      return ("\(result)  \(rematch)\(g.separator)q leave", Style(bold: true, color: .accent))
    }
    let last = lastMoveText(net, game: game, peer: peer)
    if let opening = net.opening, let said = NetSwap2Words.status(opening, me: net.openingMe, peer: peer) {
      let keys = net.openingChoices.map(NetSwap2Words.key).joined(separator: g.separator)
      return (last + said + (keys.isEmpty ? "" : ": \(keys)"), net.myTurn ? Style(bold: true) : Style(dim: true))
    }
    if net.myTurn { return (last + "Your turn (\(net.myMark.map { "\($0)" } ?? "?"))", Style(bold: true)) }
    return (last + "Waiting for \(peer)'s move.", Style(dim: true))
  }

  /// "bob plays h8. " on a board with coordinates, after a move; nothing on 3×3, where the board says it.
  static func lastMoveText(_ net: NetGameState, game: Game, peer: String) -> String {
    guard BoardLayout.isLabelled(game.rules), let last = game.lastMove, let mark = game.board[last] else { return "" }
    let name = Coordinates(game.rules).name(of: last)
    // A stone of a Swap2 opening is the player's who placed it, whatever its colour.
    let placed = net.opening.flatMap { opening in
      game.history.count <= opening.game.history.count
        ? opening.log.last { if case .stone = $0.action { true } else { false } }?.player : nil
    }
    return (placed.map { $0 == net.openingMe } ?? (mark == net.myMark))
      ? "You play \(name). " : "\(peer) plays \(name). "
  }
}

extension String {
  /// "your opponent" → "Your opponent"; a name as it is.
  fileprivate var capitalizedFirst: String { self == "your opponent" ? "Your opponent" : self }

  fileprivate func trimmingTrailingSpaces() -> String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
