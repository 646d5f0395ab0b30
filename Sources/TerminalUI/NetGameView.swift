import GameCore

/// Draws a networked match: who plays whom (with the opponent's key), the board, the status line, chat,
/// any trust question as a dialog, and the key legend.
public enum NetGameView {
  /// Where the board and its panel go on this screen, or nil when no game is on or the board does not fit.
  static func screenLayout(for state: UIState) -> NetScreenLayout? {
    guard let net = state.net, let game = net.game else { return nil }
    return NetScreenLayout.make(net, rules: game.rules, width: state.width, height: state.height)
  }

  /// The smallest terminal the page can be drawn in: a game's board, or else (and whenever a dialog is up)
  /// the room a dialog takes, which is less, so a question is never hidden behind the size message.
  public static func minimumSize(_ net: NetGameState, width: Int) -> (width: Int, height: Int) {
    if let dialog = dialog(net, glyphs: .ascii) {
      // The box with its frame, and the legend below it.
      let body = dialogBody(dialog.lines, footer: dialog.footer, width: max(width, 40)).body
      return (40, max(12, body.count + 3))
    }
    if net.game == nil { return (40, 12) }
    guard let rules = net.game?.rules else { return (40, 12) }
    return NetScreenLayout.minimumSize(net, rules: rules, width: width)
  }

  /// The board's place (for drawing and for mouse clicks), or nil when it is not on the screen: then no move
  /// is taken.
  public static func boardLayout(for state: UIState) -> BoardLayout? { screenLayout(for: state)?.board }

  public static func draw(_ state: UIState, net: NetGameState, into screen: inout ScreenBuffer) {
    let g = state.glyphs
    let row = drawHeader(state, net: net, into: &screen)
    if let game = net.game, let layout = screenLayout(for: state) {
      GameView.drawBoard(game, cursor: net.myTurn ? net.cursor : nil, layout: layout.board, glyphs: g, into: &screen)
      NetPanelView.draw(net, game: game, layout: layout, glyphs: g, into: &screen)
    } else if net.game == nil {
      drawBeforeTheGame(state, net: net, below: row, into: &screen)
    }
    if let ended = net.ended, screenLayout(for: state) == nil || net.game == nil {
      drawEnded(ended, state, below: row, into: &screen)
    }
    if let dialog = dialog(net, glyphs: g) {
      let box = drawDialog(dialog.lines, footer: dialog.footer, state: state, into: &screen)
      if let field = net.question?.entryField {
        let label = "Fingerprint: "
        FieldView.draw(
          field, row: box.lastRow, column: box.left + 2 + label.count, width: max(1, box.inner - label.count),
          into: &screen)
      }
    }
    screen.put(
      " " + legend(net, width: state.width - 1, glyphs: g), row: state.height - 1, column: 0, style: Style(dim: true))
    if let goTo = net.goTo { GoToField.draw(goTo, state: state, into: &screen) }
  }

  /// The title and the score on the top line, the header's lines below it (its warnings in bold) and, before a
  /// game, the connection's progress. Returns the row below them.
  private static func drawHeader(_ state: UIState, net: NetGameState, into screen: inout ScreenBuffer) -> Int {
    let g = state.glyphs
    let peer = net.peerName.map { "\($0)" } ?? "opponent"
    screen.put(" tictactoe", row: 0, column: 0, style: Style(bold: true, color: .title))
    // The score right of the title, the opponent's name dropped when a long one would run into it.
    let scores = [peer, "them"].map {
      "You \(net.wins)\(g.separator)\($0) \(net.losses)\(g.separator)draws \(net.draws)"
    }
    let watched = net.watching.map {
      [$0.scoreLine(separator: g.separator), "\($0.score[0])-\($0.score[1])-\($0.score[2])"]
    }
    if net.game != nil, let score = (watched ?? scores).first(where: { 11 + $0.count + 1 <= state.width }) {
      screen.put(score, row: 0, column: state.width - score.count - 1)
    }
    let header = NetScreenLayout.headerLines(net, width: state.width)
    let subtitleCount = NetScreenLayout.subtitleLines(net, width: state.width).count
    for (index, line) in header.enumerated() {
      let isWarning = index >= subtitleCount
      screen.put(
        " " + line, row: 1 + index, column: 0,
        style: isWarning ? Style(bold: true, color: .warning) : Style(dim: true))
    }
    var row = 1 + header.count
    if net.game == nil, let connection = net.connection {
      for line in Fit.wrap(connection, width: state.width - 2) {
        screen.put(" " + line, row: row, column: 0, style: Style(dim: true))
        row += 1
      }
    }
    return row
  }

  /// Before a game: the joiner waiting to be let in, and below `row` the match's information (addresses,
  /// invites) with the offer to map a port.
  private static func drawBeforeTheGame(
    _ state: UIState, net: NetGameState, below row: Int, into screen: inout ScreenBuffer
  ) {
    // The joiner knows the host (its hello came) but has no game yet: the host is deciding whether to let
    // it in (or the coin is being tossed, a moment).
    if !net.isHost, net.ended == nil, net.question == nil, net.terms == nil, let host = net.peerName {
      let waiting = net.isWatching ? "Waiting for \(host)'s game." : "Waiting for \(host) to let you in."
      let lines = Fit.wrap(waiting, width: state.width - 2)
      for (index, line) in lines.enumerated() {
        screen.putCentred(line, row: state.height - 2 - lines.count + index, style: Style(bold: true))
      }
    }
    // Each line whole (an address with its zone, an invite), wrapped at spaces; the latest lines when not all
    // fit.
    let offer = net.mapOffer.map {
      [
        "Let friends on the internet join? m: ask your router to open port \($0) to this computer (the answer is"
          + " kept) · M: never ask"
      ]
    }
    let lines = (net.info + (offer ?? [])).flatMap { ChatPane.wrap($0, width: state.width - 2) }
    for (index, line) in lines.suffix(max(0, state.height - row - 4)).enumerated() {
      screen.put(" " + line, row: row + 1 + index, column: 0)
    }
  }

  /// Why the match ended, at the foot of the screen and below `row`, its first line in bold.
  private static func drawEnded(_ ended: String, _ state: UIState, below row: Int, into screen: inout ScreenBuffer) {
    // Whole, as OpenSSH prints its warnings: both fingerprints, the file and line, the command to run.
    let lines = endedLines(ended, width: state.width - 2)
    let top = max(row + 1, state.height - 2 - lines.count)
    for (index, line) in lines.enumerated() where top + index < state.height - 1 {
      screen.put(
        " " + Fit.clip(line, width: state.width - 2, ellipsis: state.glyphs.ellipsis), row: top + index, column: 0,
        style: index == 0 ? Style(bold: true, color: .warning) : .plain)
    }
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

  /// The dialog that is up, if any: the trust question (its last line the fingerprint field's label while the
  /// field is open), or the question before leaving or resigning.
  static func dialog(_ net: NetGameState, glyphs g: Glyphs) -> (lines: [String], footer: String)? {
    if let question = net.question {
      var lines = question.lines
      if let problem = question.problem { lines += ["", "! " + problem] }
      if question.entryField != nil {
        return (lines + ["", "Fingerprint: "], "Enter check\(g.separator)Esc back")
      }
      return (lines + ["", "Or type or paste their fingerprint to check it."], "y accept\(g.separator)n refuse")
    }
    if let terms = net.terms { return (terms, "y play\(g.separator)n decline") }
    switch net.confirming {
    case .leave:
      return (
        ["Leave the match?", "The game in progress counts as a loss for you, and a win for \(peerLabel(net))."],
        "y leave\(g.separator)n stay"
      )
    case .resign:
      return (
        ["Resign this game?", "It counts as a loss for you, and a win for \(peerLabel(net))."],
        "y resign\(g.separator)n play on"
      )
    case .newInvite:
      return (
        [
          "Make a new invite?",
          "Invites you sent before will no longer come in through the relay; your own addresses stay the same.",
        ],
        "y new invite\(g.separator)n keep this one"
      )
    case .mapPort(open: true):
      let port = net.mapOffer.map { " \($0)" } ?? ""
      return (
        [
          "Ask your router to open port\(port)?",
          "Players on the internet can then join you. The answer is saved (map_port = yes): later games ask the"
            + " router too.",
        ],
        "y open it\(g.separator)n not now"
      )
    case .mapPort(open: false):
      return (
        [
          "Never ask about the router again?",
          "The answer is saved (map_port = no): players on the internet reach you only through a port you open"
            + " yourself or a relay.",
        ],
        "y never ask\(g.separator)n not now"
      )
    case nil: return nil
    }
  }

  /// A dialog's lines wrapped whole to the box it gets on a screen `width` wide: the box's inner width, the
  /// wrapped lines, and how many of them are `lines` (the rest: a gap and the footer).
  static func dialogBody(_ lines: [String], footer: String, width: Int) -> (inner: Int, body: [String], text: Int) {
    let inner = min(width - 4, max(30, (lines + [footer]).map(\.count).max() ?? 0))
    let wrap = { (line: String) in line.isEmpty ? [""] : endedLines(line, width: inner) }
    let text = lines.flatMap(wrap)
    return (inner, text + ["", footer].flatMap(wrap), text.count)
  }

  /// A box in the middle of the screen: `lines`, each wrapped whole, a blank line, and `footer`. Returns where it
  /// went: the row of the last line of `lines` (`lastRow`), text from column left + 2, at most `inner` columns.
  @discardableResult
  static func drawDialog(_ lines: [String], footer: String, state: UIState, into screen: inout ScreenBuffer) -> (
    lastRow: Int, left: Int, inner: Int
  ) {
    let g = state.glyphs
    let (inner, body, textCount) = dialogBody(lines, footer: footer, width: state.width)
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
    return (top + textCount, left, inner)
  }

  /// The opponent's name as shown, or "your opponent" before its hello.
  static func peerLabel(_ net: NetGameState) -> String {
    net.peerName.map { "\($0)" } ?? "your opponent"
  }

  static func legend(_ net: NetGameState, width: Int, glyphs g: Glyphs) -> String {
    if net.ended != nil { return net.canRejoin ? "r join again\(g.separator)any other key: leave" : "any key: leave" }
    switch net.confirming {
    case .leave: return "y leave the match\(g.separator)n or Esc stay"
    case .resign: return "y resign\(g.separator)n or Esc play on"
    case .newInvite: return "y make a new invite\(g.separator)n or Esc keep this one"
    case .mapPort(open: true): return "y ask the router to open the port\(g.separator)n or Esc not now"
    case .mapPort(open: false): return "y never ask about the router\(g.separator)n or Esc not now"
    case nil: break
    }
    if let question = net.question {
      if question.entry != nil { return "type or paste the fingerprint\(g.separator)Enter check\(g.separator)Esc back" }
      return "y accept\(g.separator)n refuse\(g.separator)or type the fingerprint"
    }
    if net.terms != nil { return "y play on these terms\(g.separator)n decline" }
    if net.chatDraft != nil { return "type a message\(g.separator)Enter send\(g.separator)Esc cancel" }
    if net.isWatching {
      let items = [("c chat with spectators", 1), ("PgUp/PgDn scroll", 3), ("? help", 2), ("q leave", 0)]
      return Fit.legend(items, separator: g.separator, width: width)
    }
    if net.game == nil {
      return net.canMakeNewInvite ? "i new invite\(g.separator)? help\(g.separator)q leave" : "q leave"
    }
    if net.dropped?.claimable == true, net.result == nil {
      return Fit.legend([("w claim the win", 0), ("c chat", 2), ("q leave", 1)], separator: g.separator, width: width)
    }
    let over = !net.gameInProgress
    if !over, !net.openingChoices.isEmpty {
      let choices = net.openingChoices.map { (NetSwap2Words.key($0), 0) }
      return Fit.legend(
        choices + [("c chat", 3), ("R resign", 4), ("? help", 2), ("q leave", 1)], separator: g.separator, width: width)
    }
    if !over, let offer = net.peerOffer {
      // Their offer waits for an answer: the answers come first.
      let accept = offer == .draw ? "D accept the draw" : "u accept the takeback"
      let items = [(accept, 0), ("x decline", 0), ("Enter place", 1), ("c chat", 3), ("? help", 2), ("q leave", 4)]
      return Fit.legend(items, separator: g.separator, width: width)
    }
    let flow: [(String, Int)] =
      over || !net.hasGameFlow || net.opening?.isSettled == false
      ? [] : (net.canAbort ? [("A abort", 7)] : [("D draw", 8), ("u takeback", 9)])
    let items =
      [("\(g.arrows)/hjkl move", 4), ("Enter place", 0), ("c chat", 3)]
      + (over ? [("n rematch", 5)] : [("R resign", 6)]) + flow
      + (net.game?.rules == .standard ? [] : [("g go to", 10)]) + [("? help", 2), ("q leave", 1)]
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
