import GameCore

/// Draws a networked match: who plays whom (with the opponent's key), the board, the status line, chat,
/// any trust question as a dialog, and the key legend.
public enum NetGameView {
  /// Rows for chat below the status line.
  static let chatRows = 4

  public static func layout(for state: UIState) -> BoardLayout? {
    guard let net = state.net, let game = net.game else { return nil }
    return GameView.layout(
      rules: game.rules, width: state.width, height: state.height, extraRows: chatRows + 1 + net.warnings.count)
  }

  /// The smallest terminal a networked match fits in.
  public static func minimumSize(_ net: NetGameState) -> (width: Int, height: Int) {
    guard let rules = net.game?.rules else { return (40, 12) }
    let board = GameView.minimumSize(for: rules)
    return (board.width, board.height + chatRows + 1 + net.warnings.count)
  }

  /// The board's place below the header and warnings (used for drawing and for mouse clicks).
  public static func boardLayout(for state: UIState) -> BoardLayout? {
    guard let net = state.net, let layout = layout(for: state) else { return nil }
    let top = max(layout.top, 3 + net.warnings.count)
    return BoardLayout(rules: layout.rules, kind: layout.kind, top: top, left: layout.left)
  }

  public static func draw(_ state: UIState, net: NetGameState, into screen: inout ScreenBuffer) {
    let g = state.glyphs
    let peer = net.peerName.map { "\($0)" } ?? "opponent"
    screen.put(" tictactoe", row: 0, column: 0, style: Style(bold: true, color: .title))
    let score = "You \(net.wins)\(g.separator)\(peer) \(net.losses)\(g.separator)draws \(net.draws)"
    if net.game != nil { screen.put(score, row: 0, column: max(0, state.width - score.count - 1)) }
    var subtitle = net.isHost ? "Hosting as \(net.myName)" : "Joined as \(net.myName)"
    if let name = net.peerName { subtitle += " vs \(name)" }
    if let fingerprint = net.peerFingerprint { subtitle += " \(fingerprint)" }
    screen.put(
      " " + Fit.clip(subtitle, width: state.width - 2, ellipsis: g.ellipsis), row: 1, column: 0, style: Style(dim: true)
    )
    var row = 2
    if net.game == nil, let connection = net.connection {
      screen.put(
        " " + Fit.clip(connection, width: state.width - 2, ellipsis: g.ellipsis), row: row, column: 0,
        style: Style(dim: true))
      row += 1
    }
    for warning in net.warnings {
      screen.put(
        " " + Fit.clip("! " + warning, width: state.width - 2, ellipsis: g.ellipsis), row: row, column: 0,
        style: Style(bold: true, color: .warning))
      row += 1
    }
    if let game = net.game, let shifted = boardLayout(for: state) {
      GameView.drawBoard(game, cursor: net.myTurn ? net.cursor : nil, layout: shifted, glyphs: g, into: &screen)
      let (status, style) = statusLine(net, game: game, glyphs: g)
      let statusRow = shifted.top + shifted.height + 1
      screen.putCentred(Fit.clip(status, width: state.width, ellipsis: g.ellipsis), row: statusRow, style: style)
      drawChat(net, from: statusRow + 1, state: state, into: &screen)
    } else {
      // The joiner knows the host (its hello came) but has no game yet: the host is deciding whether to let
      // it in (or the coin is being tossed, a moment).
      if !net.isHost, net.ended == nil, net.question == nil, let host = net.peerName {
        screen.putCentred(
          Fit.clip("Waiting for \(host) to let you in\(g.ellipsis)", width: state.width, ellipsis: g.ellipsis),
          row: state.height - 3, style: Style(bold: true))
      }
      for (index, line) in net.info.suffix(max(0, state.height - row - 4)).enumerated() {
        screen.put(" " + Fit.clip(line, width: state.width - 2, ellipsis: g.ellipsis), row: row + 1 + index, column: 0)
      }
      if let ended = net.ended {
        // Whole, as OpenSSH prints its warnings: both fingerprints, the file and line, the command to run.
        let lines = endedLines(ended, width: state.width - 2)
        let top = max(row + 1, state.height - 2 - lines.count)
        for (index, line) in lines.enumerated() where top + index < state.height - 1 {
          screen.put(
            " " + Fit.clip(line, width: state.width - 2, ellipsis: g.ellipsis), row: top + index, column: 0,
            style: index == 0 ? Style(bold: true, color: .warning) : .plain)
        }
      }
    }
    if let question = net.question { drawQuestion(question, state: state, into: &screen) }
    switch net.confirming {
    case .leave:
      drawDialog(
        ["Leave the match?", "The game in progress counts as a loss for you, and a win for \(peerLabel(net))."],
        footer: "y leave\(g.separator)n stay", state: state, into: &screen)
    case .resign:
      drawDialog(
        ["Resign this game?", "It counts as a loss for you, and a win for \(peerLabel(net))."],
        footer: "y resign\(g.separator)n play on", state: state, into: &screen)
    case nil: break
    }
    screen.put(
      " " + legend(net, width: state.width - 1, glyphs: g), row: state.height - 1, column: 0, style: Style(dim: true))
  }

  /// Why the match ended, in lines of at most `width`: its own lines kept (indented ones stay indented), long
  /// ones wrapped at spaces.
  static func endedLines(_ text: String, width: Int) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).flatMap { line -> [String] in
      let line = String(line)
      guard line.count > width else { return [line] }
      // Break at spaces, keeping runs of spaces inside a line (the aligned fingerprints).
      let indent = String(line.prefix { $0 == " " })
      var lines: [String] = []
      var current = ""
      for word in line.dropFirst(indent.count).split(separator: " ", omittingEmptySubsequences: false) {
        let candidate = current.isEmpty ? String(word) : current + " " + word
        if !current.trimmingCharacters(" ").isEmpty
          && (lines.isEmpty ? indent : indent + "  ").count
            + candidate.count > width
        {
          lines.append(current.trimmingCharacters(" "))
          current = String(word)
        } else {
          current = candidate
        }
      }
      lines.append(current.trimmingCharacters(" "))
      // A word longer than the line (a long path) is cut into pieces rather than lost behind an ellipsis.
      return lines.enumerated().flatMap { index, part -> [String] in
        let lead = index == 0 ? indent : indent + "  "
        var pieces: [String] = []
        var rest = Substring(part)
        let room = max(10, width - lead.count)
        repeat {
          pieces.append(lead + rest.prefix(room))
          rest = rest.dropFirst(room)
        } while !rest.isEmpty
        return pieces
      }
    }
  }

  static func statusLine(_ net: NetGameState, game: Game, glyphs g: Glyphs) -> (String, Style) {
    if let ended = net.ended { return (ended, Style(bold: true, color: .warning)) }
    let peer = peerLabel(net)
    if let dropped = net.dropped, net.result == nil {
      if dropped.claimable {
        return ("\(peer) did not come back: w claim the win\(g.separator)q leave", Style(bold: true, color: .warning))
      }
      let waiting =
        net.isHost ? "waiting for \(peer) to reconnect" : "reconnecting"
      return ("Connection lost: \(waiting) (\(dropped.clock))", Style(bold: true, color: .warning))
    }
    if let notice = net.notice { return (notice, Style(bold: true, color: .warning)) }
    if let result = net.result {
      let rematch =
        net.rematchOfferedByPeer
        ? "\(peer) offers a rematch: n to accept" : (net.rematchOfferedByMe ? "rematch offered" : "n rematch")
      return ("\(result)  \(rematch)\(g.separator)q leave", Style(bold: true, color: .accent))
    }
    if net.myTurn { return ("Your turn (\(net.myMark.map { "\($0)" } ?? "?"))", Style(bold: true)) }
    return ("Waiting for \(peer)\(g.ellipsis)", Style(dim: true))
  }

  static func drawChat(_ net: NetGameState, from top: Int, state: UIState, into screen: inout ScreenBuffer) {
    let lines = Array(net.chat.suffix(chatRows - 1))
    for (index, line) in lines.enumerated() where top + index < state.height - 1 {
      screen.put(
        " " + Fit.clip(line, width: state.width - 2, ellipsis: state.glyphs.ellipsis), row: top + index, column: 0)
    }
    let row = top + lines.count
    if let field = net.chatField, row < state.height - 1 {
      screen.put(" say: ", row: row, column: 0, style: Style(bold: true))
      FieldView.draw(field, row: row, column: 6, width: max(1, state.width - 7), into: &screen)
    }
  }

  static func drawQuestion(_ question: NetGameState.TrustPrompt, state: UIState, into screen: inout ScreenBuffer) {
    let g = state.glyphs
    var lines = question.lines
    if let problem = question.problem { lines += ["", "! " + problem] }
    if let field = question.entryField {
      let label = "Fingerprint: "
      lines += ["", label]
      let box = drawDialog(lines, footer: "Enter check\(g.separator)Esc back", state: state, into: &screen)
      FieldView.draw(
        field, row: box.top + lines.count, column: box.left + 2 + label.count, width: max(1, box.inner - label.count),
        into: &screen)
    } else {
      lines += ["", "Or type or paste their fingerprint to check it."]
      drawDialog(lines, footer: "y accept\(g.separator)n refuse", state: state, into: &screen)
    }
  }

  /// A box in the middle of the screen: `lines`, a blank line, and `footer`. Returns where it went: line i of
  /// `lines` is on row top + 1 + i, its text from column left + 2, at most `inner` columns.
  @discardableResult
  static func drawDialog(_ lines: [String], footer: String, state: UIState, into screen: inout ScreenBuffer) -> (
    top: Int, left: Int, inner: Int
  ) {
    let g = state.glyphs
    let body = lines + ["", footer]
    let inner = min(state.width - 4, max(30, body.map(\.count).max() ?? 0))
    let top = max(0, (state.height - body.count - 2) / 2)
    let left = max(0, (state.width - inner - 4) / 2)
    let horizontal = String(repeating: g.horizontal, count: inner + 2)
    screen.put("\(g.topLeft)\(horizontal)\(g.topRight)", row: top, column: left)
    for (index, line) in body.enumerated() {
      let text = Fit.clip(line, width: inner, ellipsis: g.ellipsis)
      screen.put(
        "\(g.vertical) " + text + String(repeating: " ", count: inner - text.count) + " \(g.vertical)",
        row: top + 1 + index, column: left, style: Style(bold: index == 0))
    }
    screen.put("\(g.bottomLeft)\(horizontal)\(g.bottomRight)", row: top + body.count + 1, column: left)
    return (top, left, inner)
  }

  /// The opponent's name as shown, or "your opponent" before its hello.
  static func peerLabel(_ net: NetGameState) -> String {
    net.peerName.map { "\($0)" } ?? "your opponent"
  }

  static func legend(_ net: NetGameState, width: Int, glyphs g: Glyphs) -> String {
    if net.ended != nil { return "any key: leave" }
    if let confirming = net.confirming {
      return confirming == .leave
        ? "y leave the match\(g.separator)n or Esc stay" : "y resign\(g.separator)n or Esc play on"
    }
    if let question = net.question {
      if question.entry != nil { return "type or paste the fingerprint\(g.separator)Enter check\(g.separator)Esc back" }
      return "y accept\(g.separator)n refuse\(g.separator)or type the fingerprint"
    }
    if net.chatDraft != nil { return "type a message\(g.separator)Enter send\(g.separator)Esc cancel" }
    if net.game == nil { return "q leave" }
    if net.dropped?.claimable == true, net.result == nil {
      return Fit.legend([("w claim the win", 0), ("c chat", 2), ("q leave", 1)], separator: g.separator, width: width)
    }
    let over = !net.gameInProgress
    let items =
      [("\(g.arrows)/hjkl move", 4), ("Enter place", 0), ("c chat", 3)]
      + (over ? [("n rematch", 5)] : [("R resign", 6)]) + [("? help", 2), ("q leave", 1)]
    return Fit.legend(items, separator: g.separator, width: width)
  }
}

extension String {
  /// The string without `character` at either end.
  fileprivate func trimmingCharacters(_ character: Character) -> String {
    guard let first = firstIndex(where: { $0 != character }), let last = lastIndex(where: { $0 != character }) else {
      return ""
    }
    return String(self[first...last])
  }
}
